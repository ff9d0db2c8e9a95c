package analysisutil

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtractDoc returns the documentation of the analyzer called name from
// the package comment of the Go source content (an analyzer's doc.go,
// embedded with //go:embed). The comment must contain a section
//
//	# Analyzer name
//
//	name: one-line title
//
//	longer description...
//
// which runs until the next "# " heading or the end of the comment. The
// result is "title\n\ndescription", the form analysis.Analyzer.Doc expects.
// It panics if the section is missing: that is a programming error caught
// by every test of the analyzer.
func MustExtractDoc(content, name string) string {
	doc, err := ExtractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

// ExtractDoc is MustExtractDoc returning an error instead of panicking.
func ExtractDoc(content, name string) (string, error) {
	if content == "" {
		return "", fmt.Errorf("empty Go source file")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("not a Go source file: %v", err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("Go source file has no package doc comment")
	}
	return extract(f.Doc, name)
}

func extract(doc *ast.CommentGroup, name string) (string, error) {
	text := doc.Text()
	heading := "# Analyzer " + name
	i := strings.Index(text, heading+"\n")
	if i < 0 {
		return "", fmt.Errorf("package doc comment contains no %q heading", heading)
	}
	body := text[i+len(heading)+1:]
	if j := strings.Index(body, "\n# "); j >= 0 {
		body = body[:j]
	}
	body = strings.TrimSpace(body)
	prefix := name + ": "
	if !strings.HasPrefix(body, prefix) {
		return "", fmt.Errorf("section %q does not start with %q", heading, prefix)
	}
	return strings.TrimSpace(strings.TrimPrefix(body, prefix)), nil
}
