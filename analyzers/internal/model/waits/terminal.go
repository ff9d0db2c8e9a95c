package waits

// Waits for a person: code that reads the process's standard input or
// hands it on.

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// ReadsTerminal reports whether n reads the process's standard input or
// hands it on (catalog.Terminal): a call of a Terminal function (`var
// s string; fmt.Scanln(&s)`), os.Stdin's own Read, or os.Stdin given
// as an argument (`bufio.NewReader(os.Stdin)`), assigned (`cmd.Stdin =
// os.Stdin`, an editor run in the foreground) or put in a composite
// literal. Such code waits for a person, or for whatever feeds the
// process, for as long as they take. Asking os.Stdin about itself
// (`os.Stdin.Fd()`, `Stat()`: is it a terminal?) reads nothing.
func ReadsTerminal(info *types.Info, n ast.Node) bool {
	stdin := func(e ast.Expr) bool {
		var id *ast.Ident
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			id = x
		case *ast.SelectorExpr:
			id = x.Sel
		}
		v, ok := info.Uses[id].(*types.Var)
		return ok && terminal(v)
	}
	switch x := n.(type) {
	case *ast.CallExpr:
		if fn := analysisutil.Callee(info, x); fn != nil {
			if terminal(fn) {
				return true
			}
			if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok && stdin(sel.X) && analysisutil.IsMethod(fn, "os", "File", "Read") {
				return true
			}
		}
		return slices.ContainsFunc(x.Args, stdin)
	case *ast.AssignStmt:
		return slices.ContainsFunc(x.Rhs, stdin)
	case *ast.KeyValueExpr:
		return stdin(x.Value)
	case *ast.CompositeLit:
		return slices.ContainsFunc(x.Elts, stdin)
	}
	return false
}

// terminal reports whether obj, a package-level function or variable,
// has a catalog.Terminal row.
func terminal(obj types.Object) bool {
	if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	row := catalog.Lookup(obj.Pkg().Path(), "", obj.Name())
	return row != nil && row.Role == catalog.Terminal
}

// findTerminalWaits marks the package's wait functions that read the
// standard input outside loops (WaitFact.Terminal), in rounds as for
// WaitFact.
func (m *Result) findTerminalWaits() {
	m.terminals = map[*types.Func]bool{}
	markRounds(m.WaitFuncs, m.terminals, func(fn *types.Func) bool {
		d := m.vals.Decls[fn]
		return d != nil && d.Body != nil && waitsOnEveryCall(m.pass.TypesInfo, d.Body, m.readsTerminalHere)
	})
}

// readsTerminalHere reports whether n itself reads the standard input:
// ReadsTerminal, or a call of a function that does (this package's, or
// another's through its WaitFact).
func (m *Result) readsTerminalHere(n ast.Node) bool {
	if ReadsTerminal(m.pass.TypesInfo, n) {
		return true
	}
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if m.terminals[fn] {
		return true
	}
	f := m.ImportedWait(fn)
	return f != nil && f.Terminal
}

// ReadsTerminalStmt reports whether the simple parts of stmt (an if's or
// a switch's init and condition, an assignment, a call) read the
// standard input, themselves or through a function that does: a pass
// that runs it waits for a person.
func (m *Result) ReadsTerminalStmt(stmt ast.Stmt) bool {
	var nodes []ast.Node
	switch st := stmt.(type) {
	case *ast.IfStmt:
		nodes = []ast.Node{st.Init, st.Cond}
	case *ast.SwitchStmt:
		nodes = []ast.Node{st.Init, st.Tag}
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
		nodes = []ast.Node{st}
	}
	nodes = slices.DeleteFunc(nodes, func(n ast.Node) bool { return n == nil })
	return analysisutil.AnyIn(nodes, m.readsTerminalHere)
}
