package lsp

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestMapper(t *testing.T) {
	// 𝛿 is 4 bytes and 2 UTF-16 units, é 2 bytes and 1 unit, ≈ 3 bytes
	// and 1 unit; the second line ends in CRLF.
	content := "a𝛿b\r\né≈c\n\nend"
	m := newMapper([]byte(content))
	for _, tc := range []struct {
		off int
		pos Position
	}{
		{0, Position{0, 0}},
		{1, Position{0, 1}},  // before 𝛿
		{5, Position{0, 3}},  // after 𝛿
		{6, Position{0, 4}},  // before \r
		{8, Position{1, 0}},  // é
		{10, Position{1, 1}}, // ≈
		{13, Position{1, 2}}, // c
		{15, Position{2, 0}}, // the empty line
		{16, Position{3, 0}},
		{19, Position{3, 3}}, // the end
	} {
		if got := m.position(tc.off); got != tc.pos {
			t.Errorf("position(%d) = %+v, want %+v", tc.off, got, tc.pos)
		}
		if got, err := m.offset(tc.pos); err != nil || got != tc.off {
			t.Errorf("offset(%+v) = %d, %v; want %d", tc.pos, got, err, tc.off)
		}
	}
	// Past the end of a line means its end (before the CRLF).
	if got, _ := m.offset(Position{0, 99}); got != 6 {
		t.Errorf("offset past the end of line 0 = %d, want 6", got)
	}
	if got := m.position(99); got != (Position{3, 3}) {
		t.Errorf("position past the end = %+v, want the end", got)
	}
	if _, err := m.offset(Position{7, 0}); err == nil {
		t.Error("offset of a line past the end: no error")
	}
}

func TestApplyEdits(t *testing.T) {
	got, err := applyEdits("x := f(d)\n", []TextEdit{
		{Range: Range{Position{0, 8}, Position{0, 8}}, NewText: ")"},
		{Range: Range{Position{0, 7}, Position{0, 7}}, NewText: "g("},
		{Range: Range{Position{0, 0}, Position{0, 1}}, NewText: "y"},
	})
	if want := "y := f(g(d))\n"; err != nil || got != want {
		t.Errorf("applyEdits = %q, %v; want %q", got, err, want)
	}
	_, err = applyEdits("abc", []TextEdit{
		{Range: Range{Position{0, 0}, Position{0, 2}}},
		{Range: Range{Position{0, 1}, Position{0, 3}}},
	})
	if err == nil {
		t.Error("overlapping edits: no error")
	}
}

func TestURIs(t *testing.T) {
	for _, path := range []string{"/tmp/a b/ü.go", "/x/y#z.go", "/p%q/r.go"} {
		uri := pathToURI(path)
		if strings.ContainsAny(uri, " #") {
			t.Errorf("pathToURI(%q) = %q, not escaped", path, uri)
		}
		got, err := uriToPath(uri)
		if err != nil || got != path {
			t.Errorf("uriToPath(%q) = %q, %v; want %q", uri, got, err, path)
		}
	}
	if got, err := uriToPath("file:///tmp/a%20b/%C3%BC.go"); err != nil || got != "/tmp/a b/ü.go" {
		t.Errorf("uriToPath of an escaped URI = %q, %v", got, err)
	}
	if _, err := uriToPath("untitled:Untitled-1"); err == nil {
		t.Error("uriToPath of a non-file URI: no error")
	}
}

func TestReader(t *testing.T) {
	stream := "Content-Length: 2\r\n\r\n{}" +
		"\r\n" + // stray blank line
		"X: y\r\n\r\n" + // no Content-Length
		"content-length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]" +
		"Content-Length: 10\r\n\r\n{}"
	rd := newReader(strings.NewReader(stream))
	var ef *errFraming
	for i, want := range []string{"{}", "framing", "[1]", "eof"} {
		body, err := rd.read()
		switch want {
		case "framing":
			if !errors.As(err, &ef) {
				t.Errorf("message %d: %v, want a framing error", i, err)
			}
		case "eof":
			if err != io.ErrUnexpectedEOF {
				t.Errorf("message %d: %v, want unexpected EOF", i, err)
			}
		default:
			if err != nil || string(body) != want {
				t.Errorf("message %d = %q, %v; want %q", i, body, err, want)
			}
		}
	}
	if _, err := newReader(strings.NewReader("")).read(); err != io.EOF {
		t.Errorf("empty stream: %v, want EOF", err)
	}
}

// TestFixImports: the imports a quick fix adds to its file are the ones
// the server has the engine prepare; those the file has already, and
// fixes that import nothing, add none.
func TestFixImports(t *testing.T) {
	const path = "/src/m/a.go"
	text := "package a\n\nimport \"time\"\n\nvar d = time.Second\n"
	uri := pathToURI(path)
	at := func(line, char int) Range {
		return Range{Start: Position{Line: line, Character: char}, End: Position{Line: line, Character: char}}
	}
	fix := func(edits ...TextEdit) CodeAction {
		return CodeAction{Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{uri: edits}}}
	}
	res := &analysisResult{files: map[string]*fileState{path: {uri: uri, findings: []*finding{
		{fixes: []CodeAction{fix(TextEdit{Range: at(2, 7), NewText: "(\n\t\"time\"\n\n\t\"example.com/retry\"\n)\n//"})}},
		{fixes: []CodeAction{fix(TextEdit{Range: at(4, 8), NewText: "2*"})}},
		{fixes: []CodeAction{fix(TextEdit{Range: at(2, 0), NewText: "import \"time\"\n"})}},
	}}}}
	docs := map[string]*document{path: {uri: uri, version: 1, text: text}}
	got := fixImports(res, newContents(docs))
	if want := []string{"example.com/retry"}; !slices.Equal(got, want) {
		t.Errorf("fixImports: %q, want %q", got, want)
	}
}
