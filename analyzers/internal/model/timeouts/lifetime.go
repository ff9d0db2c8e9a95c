package timeouts

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// Contexts made from Background with a lifetime of their own: detached
// on purpose, not dropped.

// returnsContext reports whether call's first result is a
// context.Context.
func (m *layer) returnsContext(call *ast.CallExpr) bool {
	res := waits.Results(m.pass.TypesInfo, call)
	return len(res) > 0 && isContextType(res[0])
}

// ownLifetime reports whether the context derived from bg (a
// context.Background() call or a variable holding one) by the call
// deriv (bg its parent) has a lifetime of its own, and so is detached on
// purpose rather than dropped: a deadline (WithTimeout, WithDeadline: it
// cannot outlive its own bound), or a cancel function that escapes the
// function — stored (in a field, a composite literal, a non-local
// variable), returned, handed to a call (context.AfterFunc(ctx, cancel))
// or called from another goroutine or a closure kept to run later: the
// code cancels it by hand, from a signal of its own (both parents' Done in
// a merge, the last waiter of a shared dial gone). A cancel function only
// called here (defer cancel()) ends the context when the call is over
// anyway: the caller's cancellation is still dropped, unless the context
// only drives producers the function consumes while it watches the
// caller's context (producerOfCaller). grand is deriv's
// parent.
func (m *layer) ownLifetime(bg ast.Expr, deriv *ast.CallExpr, grand ast.Node, body inspector.Cursor) bool {
	if len(deriv.Args) == 0 || deriv.Args[0] != bg {
		return false
	}
	switch {
	case m.isContextFunc(deriv, "WithTimeout", "WithTimeoutCause", "WithDeadline", "WithDeadlineCause"):
		return true
	case m.isContextFunc(deriv, "WithCancel", "WithCancelCause"):
	default:
		return false
	}
	// The cancel function: the second name the derivation is assigned to.
	var cancel ast.Expr
	switch g := grand.(type) {
	case *ast.AssignStmt:
		if len(g.Rhs) == 1 && g.Rhs[0] == ast.Expr(deriv) && len(g.Lhs) == 2 {
			cancel = g.Lhs[1]
		}
	case *ast.ValueSpec:
		if len(g.Values) == 1 && g.Values[0] == ast.Expr(deriv) && len(g.Names) == 2 {
			cancel = g.Names[1]
		}
	}
	if cancel == nil {
		return false
	}
	id, ok := analysisutil.Unparen(cancel).(*ast.Ident)
	if !ok {
		return true // stored: w.cancel, cancels[i]
	}
	if id.Name == "_" {
		return false
	}
	v, ok := m.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return false
	}
	if !provenance.IsLocal(v) {
		return true // a package-level variable
	}
	if m.escapes(v, body) || timerCancels(m.pass.TypesInfo, v, body.Node()) || cancelledFirst(m.pass.TypesInfo, grand, v, body.Node()) {
		return true
	}
	var derived ast.Expr
	switch g := grand.(type) {
	case *ast.AssignStmt:
		derived = g.Lhs[0]
	case *ast.ValueSpec:
		derived = g.Names[0]
	}
	return m.producerOfCaller(derived, v, body)
}

// cancelledFirst reports whether the statement after def (the
// derivation, assigned to the cancel function v and a context) in its
// block calls v (`cctx, cancel := context.WithCancel(context.Background());
// cancel()`): a context done before anything uses it, made so that what
// it is given does no work that could wait. No work runs under a live
// context there.
func cancelledFirst(info *types.Info, def ast.Node, v *types.Var, body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		b, ok := n.(*ast.BlockStmt)
		if found || !ok {
			return !found
		}
		for i, st := range b.List {
			if st != def || i+1 >= len(b.List) {
				continue
			}
			es, ok := b.List[i+1].(*ast.ExprStmt)
			if !ok {
				return false
			}
			c, ok := analysisutil.Unparen(es.X).(*ast.CallExpr)
			if ok && len(c.Args) == 0 {
				id, isID := analysisutil.Unparen(c.Fun).(*ast.Ident)
				found = isID && info.Uses[id] == v
			}
			return false
		}
		return true
	})
	return found
}

// escapes reports whether the local function variable v is used in body
// other than by calling it in place: as a value (stored, returned, passed
// on), or called from a goroutine or from a closure that is not run in
// place (deferred or called at once). body is the cursor of the
// function's body.
func (m *layer) escapes(v *types.Var, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		x := cur.Node().(*ast.Ident)
		if info.Uses[x] != v {
			continue
		}
		parent := cur.Parent().Node()
		if as, ok := parent.(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(x)) {
			continue // assigned, not used
		}
		if _, ok := parent.(*ast.BinaryExpr); ok {
			continue // compared: cancel != nil
		}
		if c, ok := parent.(*ast.CallExpr); !ok || c.Fun != ast.Expr(x) {
			return true // a value: stored, returned, passed on
		}
		// Called: in place, unless inside a closure that runs elsewhere.
		// A closure is an expression, so its parent and grandparent are
		// inside body.
		for lc := range cur.Enclosing((*ast.FuncLit)(nil)) {
			if !body.Contains(lc) {
				break
			}
			call := lc.Parent()
			if c, ok := call.Node().(*ast.CallExpr); !ok || c.Fun != ast.Expr(lc.Node().(*ast.FuncLit)) {
				return true // stored or handed on: runs later
			}
			if _, ok := call.Parent().Node().(*ast.GoStmt); ok {
				return true // another goroutine
			}
		}
	}
	return false
}
