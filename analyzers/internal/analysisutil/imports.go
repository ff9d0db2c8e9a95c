package analysisutil

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// AddImport returns the name by which file can refer to the package at
// path, and the edits (none if already imported) that import it. The
// preferred name is used unless another import, a package-level name of
// the file's package or a name declared in the file takes it, in which
// case "resilint" + name is tried.
func AddImport(pass *analysis.Pass, file *ast.File, path, name string) (string, []analysis.TextEdit) {
	taken := map[string]bool{}
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		local := ""
		if imp.Name != nil {
			local = imp.Name.Name
		} else if pkg := importedPackage(pass, p); pkg != "" {
			local = pkg
		}
		if p == path && local != "_" && local != "." {
			return local, nil
		}
		taken[local] = true
	}
	if pass.Pkg.Scope().Lookup(name) != nil {
		taken[name] = true
	}
	// A local name declared anywhere in the file may shadow the import
	// where the fix uses it (`retry, wait, err := c.shouldRetry(...)`);
	// the candidates are checked the same way. Labels, fields and
	// methods live in other name spaces.
	declared := func(n string) bool {
		for id, obj := range pass.TypesInfo.Defs {
			if id.Name != n || id.Pos() < file.Pos() || id.Pos() >= file.End() {
				continue
			}
			switch o := obj.(type) {
			case *types.Var:
				if !o.IsField() {
					return true
				}
			case *types.Const, *types.TypeName:
				return true
			}
		}
		return false
	}
	local := name
	for i := 0; taken[local] || declared(local); i++ {
		local = fmt.Sprintf("resilint%s", name)
		if i > 0 {
			local = fmt.Sprintf("resilint%s%d", name, i)
		}
	}
	spec := strconv.Quote(path)
	if local != name {
		spec = local + " " + spec
	}
	return local, []analysis.TextEdit{importEdit(pass.Fset, file, path, spec)}
}

// importEdit inserts spec the way goimports groups imports: a standard
// library path into the file's last group of standard library imports, any
// other path into its last group of other imports; when the file has no
// such group, into a new group of its own (after the standard library's,
// before the others'). gofmt then sorts the group.
func importEdit(fset *token.FileSet, file *ast.File, path, spec string) analysis.TextEdit {
	std := isStdPath(path)
	// The parenthesized import declarations, and their groups: runs of
	// specs on consecutive lines.
	type group struct {
		decl  *ast.GenDecl
		specs []*ast.ImportSpec
		std   bool // every path of the group is of the standard library
	}
	var groups []group
	var last *ast.GenDecl
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		last = g
		if !g.Rparen.IsValid() {
			continue
		}
		prevLine := -1
		for _, s := range g.Specs {
			is := s.(*ast.ImportSpec)
			line := fset.Position(is.Pos()).Line
			if doc := is.Doc; doc != nil {
				line = fset.Position(doc.Pos()).Line
			}
			p, _ := strconv.Unquote(is.Path.Value)
			if len(groups) == 0 || groups[len(groups)-1].decl != g || line > prevLine+1 {
				groups = append(groups, group{decl: g, std: true})
			}
			gr := &groups[len(groups)-1]
			gr.specs = append(gr.specs, is)
			gr.std = gr.std && isStdPath(p)
			prevLine = fset.Position(is.End()).Line
		}
	}
	// lineEnd is the end of the last spec of g, after a comment on its line.
	lineEnd := func(g group) token.Pos {
		last := g.specs[len(g.specs)-1]
		end := last.End()
		if last.Comment != nil {
			end = last.Comment.End()
		}
		return end
	}
	// The last group of the same kind takes it.
	for i := len(groups) - 1; i >= 0; i-- {
		if groups[i].std == std {
			end := lineEnd(groups[i])
			return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n\t" + spec)}
		}
	}
	if len(groups) > 0 {
		if std {
			// Before the first group, as a group of its own.
			pos := groups[0].specs[0].Pos()
			if doc := groups[0].specs[0].Doc; doc != nil {
				pos = doc.Pos()
			}
			return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(spec + "\n\n\t")}
		}
		end := lineEnd(groups[len(groups)-1])
		return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n\n\t" + spec)}
	}
	if last != nil && last.Rparen.IsValid() {
		// An empty import ( ).
		return analysis.TextEdit{Pos: last.Rparen, End: last.Rparen, NewText: []byte("\t" + spec + "\n")}
	}
	if last != nil {
		return analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}
	}
	return analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + spec)}
}

// isStdPath reports whether path is a standard library import path: its
// first element has no dot (as goimports judges it).
func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func importedPackage(pass *analysis.Pass, path string) string {
	for _, p := range pass.Pkg.Imports() {
		if p.Path() == path {
			return p.Name()
		}
	}
	return ""
}

// FileOf returns the file of pass that contains pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// IsTestFile reports whether pos is in a _test.go file.
func IsTestFile(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	if f == nil {
		return false
	}
	name := f.Name()
	return len(name) > len("_test.go") && name[len(name)-len("_test.go"):] == "_test.go"
}

// EnclosingStmt returns the statement of a statement list (a block, a case
// or select clause) that contains n, and its indentation as tabs.
func EnclosingStmt(pass *analysis.Pass, n ast.Node) (ast.Stmt, string) {
	file := FileOf(pass, n.Pos())
	if file == nil {
		return nil, ""
	}
	var found ast.Stmt
	var visit func(list []ast.Stmt) bool
	visit = func(list []ast.Stmt) bool {
		for _, st := range list {
			if st.Pos() <= n.Pos() && n.End() <= st.End() {
				found = st
				// Look for a deeper list.
				ast.Inspect(st, func(x ast.Node) bool {
					if x == st {
						return true
					}
					switch b := x.(type) {
					case *ast.FuncLit:
						return b.Pos() <= n.Pos() && n.End() <= b.End()
					case *ast.BlockStmt:
						if b.Pos() <= n.Pos() && n.End() <= b.End() {
							visit(b.List)
							return false
						}
					case *ast.CaseClause:
						if b.Pos() <= n.Pos() && n.End() <= b.End() {
							visit(b.Body)
							return false
						}
					case *ast.CommClause:
						if b.Pos() <= n.Pos() && n.End() <= b.End() {
							visit(b.Body)
							return false
						}
					}
					return true
				})
				return true
			}
		}
		return false
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Body.Pos() <= n.Pos() && n.End() <= fd.Body.End() {
			visit(fd.Body.List)
		}
	}
	if found == nil {
		return nil, ""
	}
	col := pass.Fset.Position(found.Pos()).Column
	indent := ""
	for i := 1; i < col; i++ {
		indent += "\t"
	}
	return found, indent
}

// Text returns the source text of n, formatted.
func Text(pass *analysis.Pass, n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, pass.Fset, n); err != nil {
		return ""
	}
	return b.String()
}
