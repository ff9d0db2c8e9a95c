package analysisutil

import (
	"go/format"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// New imports go where goimports puts them: a standard library path with
// the standard library's imports, any other in a group of its own after
// them (or at the end of the last such group).
func TestImportEdit(t *testing.T) {
	for _, tc := range []struct {
		name, src, path, want string
	}{
		{"std group only", "package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n", "example.com/r",
			"package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\n\t\"example.com/r\"\n)\n"},
		{"into the last non-std group", "package p\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/a\"\n\n\t\"local.test/b\"\n)\n", "example.com/r",
			"package p\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/a\"\n\n\t\"example.com/r\"\n\t\"local.test/b\"\n)\n"},
		{"std before a non-std group", "package p\n\nimport (\n\t\"example.com/a\"\n)\n", "time",
			"package p\n\nimport (\n\t\"time\"\n\n\t\"example.com/a\"\n)\n"},
		{"std into the std group", "package p\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/a\"\n)\n", "time",
			"package p\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\n\t\"example.com/a\"\n)\n"},
		{"after a comment on the last line", "package p\n\nimport (\n\t\"fmt\" // printing\n)\n", "example.com/r",
			"package p\n\nimport (\n\t\"fmt\" // printing\n\n\t\"example.com/r\"\n)\n"},
		{"no imports", "package p\n\nvar x = 1\n", "example.com/r",
			"package p\n\nimport \"example.com/r\"\n\nvar x = 1\n"},
		{"one unparenthesized import", "package p\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n", "example.com/r",
			"package p\n\nimport \"fmt\"\nimport \"example.com/r\"\n\nvar _ = fmt.Sprint\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", tc.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			e := importEdit(fset, f, tc.path, strconv.Quote(tc.path))
			tf := fset.File(f.Pos())
			start, end := tf.Offset(e.Pos), tf.Offset(e.End)
			got, err := format.Source([]byte(tc.src[:start] + string(e.NewText) + tc.src[end:]))
			if err != nil {
				t.Fatalf("%v in:\n%s", err, tc.src[:start]+string(e.NewText)+tc.src[end:])
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
