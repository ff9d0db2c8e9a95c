package analysisutil

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// AddImport returns the name by which file can refer to the package at
// path, and the edits (none if already imported) that import it. The
// preferred name is used unless another import or a package-level name of
// the file's package takes it, in which case "resilint" + name is tried.
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
	local := name
	for i := 0; taken[local]; i++ {
		local = fmt.Sprintf("resilint%s", name)
		if i > 0 {
			local = fmt.Sprintf("resilint%s%d", name, i)
		}
	}
	spec := strconv.Quote(path)
	if local != name {
		spec = local + " " + spec
	}
	// Into the last parenthesized import declaration, else a new one.
	var decl *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			decl = g
		}
	}
	if decl != nil && decl.Rparen.IsValid() {
		return local, []analysis.TextEdit{{Pos: decl.Rparen, End: decl.Rparen, NewText: []byte("\t" + spec + "\n")}}
	}
	if decl != nil {
		return local, []analysis.TextEdit{{Pos: decl.End(), End: decl.End(), NewText: []byte("\nimport " + spec)}}
	}
	return local, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + spec)}}
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
