package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"
)

// mapper converts between byte offsets in a file's content (what go/token
// positions are) and LSP positions (lines and UTF-16 code units).
type mapper struct {
	content []byte
	lines   []int // byte offset of the start of each line
}

func newMapper(content []byte) *mapper {
	m := &mapper{content: content, lines: []int{0}}
	for i, b := range content {
		if b == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// position returns the LSP position of a byte offset, clamped to the
// content. An offset inside a multi-byte character counts the character.
func (m *mapper) position(off int) Position {
	off = max(0, min(off, len(m.content)))
	line := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	col := 0
	for p := m.lines[line]; p < off; {
		r, size := utf8.DecodeRune(m.content[p:])
		p += size
		col += utf16Len(r)
	}
	return Position{Line: line, Character: col}
}

// offset returns the byte offset of an LSP position. A character past the
// end of its line means the end of the line (as the protocol says); a line
// past the end of the content is an error.
func (m *mapper) offset(pos Position) (int, error) {
	if pos.Line < 0 || pos.Character < 0 {
		return 0, fmt.Errorf("negative position %d:%d", pos.Line, pos.Character)
	}
	if pos.Line >= len(m.lines) {
		if pos.Line == len(m.lines) && pos.Character == 0 {
			return len(m.content), nil
		}
		return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", pos.Line, len(m.lines))
	}
	p := m.lines[pos.Line]
	end := len(m.content)
	if pos.Line+1 < len(m.lines) {
		end = m.lines[pos.Line+1] - 1 // the newline
		if end > p && m.content[end-1] == '\r' {
			end--
		}
	}
	for col := 0; p < end && col < pos.Character; {
		r, size := utf8.DecodeRune(m.content[p:])
		p += size
		col += utf16Len(r)
	}
	return p, nil
}

// rng returns the LSP range of the byte offsets [start, end).
func (m *mapper) rng(start, end int) Range {
	return Range{Start: m.position(start), End: m.position(end)}
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// applyEdits applies LSP text edits to content; tests and incremental
// document sync use it. Edits must not overlap; edits at the same position
// apply in their order.
func applyEdits(content string, edits []TextEdit) (string, error) {
	m := newMapper([]byte(content))
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		s, err := m.offset(e.Range.Start)
		if err != nil {
			return "", err
		}
		t, err := m.offset(e.Range.End)
		if err != nil {
			return "", err
		}
		if t < s {
			return "", fmt.Errorf("edit %d ends before it starts", i)
		}
		spans[i] = span{s, t, e.NewText}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for i, s := range spans {
		if s.start < last {
			return "", fmt.Errorf("edit %d overlaps the one before it", i)
		}
		b.WriteString(content[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.WriteString(content[last:])
	return b.String(), nil
}

// uriToPath returns the file path of a file: URI.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("bad document URI %q: %v", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q is not a file: URI", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/dir/f.go has the path /C:/dir/f.go.
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		}
		if u.Host != "" {
			p = `\\` + u.Host + p
		}
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI returns the file: URI of an absolute file path.
func pathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
