package timeouts

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Carriers: calls that put a context into a value instead of waiting
// under it. `req.Clone(ctx)` makes a request that carries ctx; what the
// context bounds is whatever is later done with the request. A
// context.Background() given to a carrier is a dropped context only if
// the value it makes goes on to a call: a clone made to be dumped to a
// log (httputil.DumpRequestOut) sends nothing and bounds nothing.

// CarrierFact is exported for a function whose context parameter Param
// is only handed to carriers (catalog.ContextCarrier rows, or functions
// with this fact) whose values the function returns, after setting
// their fields at most: it waits for nothing under the context, which
// bounds what its caller does with the result (a package's own
// cloneRequest(req, ctx)).
type CarrierFact struct {
	Param int
}

func (*CarrierFact) AFact() {}

func (f *CarrierFact) String() string { return fmt.Sprintf("carrier(%d)", f.Param) }

// carrierSummary returns the CarrierFact of fn.
func (m *layer) carrierSummary(fn *types.Func) *CarrierFact {
	return provenance.Summarize(m.pass, m.vals, m.carriers, fn, func(fn *types.Func, d *ast.FuncDecl) *CarrierFact {
		if d.Body == nil {
			return nil
		}
		body, ok := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root().FindByPos(d.Body.Pos(), d.Body.End())
		if !ok {
			return nil
		}
		sig := fn.Signature()
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			if isContextType(p.Type()) && m.onlyCarried(p, body) {
				return &CarrierFact{Param: i}
			}
		}
		return nil
	})
}

// onlyCarried reports whether every use of the parameter p in body is as
// the context argument of a carrier whose value is returned (with its
// fields set at most), and there is at least one.
func (m *layer) onlyCarried(p *types.Var, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	uses := 0
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		if info.Uses[cur.Node().(*ast.Ident)] != p {
			continue
		}
		call, ok := cur.Parent().Node().(*ast.CallExpr)
		if !ok {
			return false
		}
		if i := m.carrierArg(call); i < 0 || i >= len(call.Args) || call.Args[i] != cur.Node() {
			return false
		}
		if !m.carriedOnlyLocally(call, cur.Parent().Parent().Node(), body, true) && !returnedWhole(cur.Parent()) {
			return false
		}
		uses++
	}
	return uses > 0
}

// returnedWhole reports whether the value of the expression at c is a
// field of a composite literal (or of its address) that is returned as
// it is (`return &Request{Request: r.Request.WithContext(ctx)}`): a new
// value built around it. (A carrier's value returned bare, not assigned
// first, is not followed: see carriedOnlyLocally.)
func returnedWhole(c inspector.Cursor) bool {
	p := c.Parent()
	if kv, ok := p.Node().(*ast.KeyValueExpr); ok && kv.Value == c.Node() {
		p = p.Parent()
	}
	if _, ok := p.Node().(*ast.CompositeLit); !ok {
		return false
	}
	p = p.Parent()
	if u, ok := p.Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		p = p.Parent()
	}
	_, ok := p.Node().(*ast.ReturnStmt)
	return ok
}

// carrierArg returns the index of the context argument of call when call
// is a carrier (a catalog.ContextCarrier row, or a function with a
// CarrierFact), or -1.
func (m *layer) carrierArg(call *ast.CallExpr) int {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return -1
	}
	if analysisutil.IsStd(analysisutil.PkgPath(fn)) {
		if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.ContextCarrier {
			return row.ValueArg
		}
		return -1
	}
	if f := m.carrierSummary(fn); f != nil {
		return f.Param
	}
	return -1
}

// carriedOnlyLocally reports whether the value made by the carrier call
// (parent its parent) is never handed to anything that may wait: it is
// assigned to a local variable whose every use in body reads or sets a
// field of it, or hands it to a catalog.RequestReader (a dump, a router
// asked which route it matches), or —
// with returned — returns it. A value used any other way (sent,
// stored, passed on, returned when returned is false) carries the
// context on, as does one not assigned to a variable.
func (m *layer) carriedOnlyLocally(call *ast.CallExpr, parent ast.Node, body inspector.Cursor, returned bool) bool {
	var lhs ast.Expr
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 && p.Rhs[0] == ast.Expr(call) && len(p.Lhs) > 0 {
			lhs = p.Lhs[0]
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && p.Values[0] == ast.Expr(call) && len(p.Names) > 0 {
			lhs = p.Names[0]
		}
	}
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	info := m.pass.TypesInfo
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return false
	}
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		x := cur.Node().(*ast.Ident)
		if x == id || info.Uses[x] != v {
			continue
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[p]; sel != nil && sel.Kind() == types.FieldVal {
				continue // c.Header.Set(...), c.Body = b
			}
		case *ast.AssignStmt:
			if slices.Contains(p.Lhs, ast.Expr(x)) {
				continue // written, not used
			}
		case *ast.ReturnStmt:
			if returned {
				continue
			}
		case *ast.CallExpr:
			fn := analysisutil.Callee(info, p)
			if fn != nil {
				row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
				if row != nil && row.Role == catalog.RequestReader && row.ValueArg < len(p.Args) && p.Args[row.ValueArg] == ast.Expr(x) {
					continue // httputil.DumpRequestOut(c, true)
				}
			}
		}
		return false
	}
	return true
}

// sharedRun reports whether the function literal at lit is given to a
// call that runs it for callers other than this one: a SharedRun row
// (sync.Once.Do, singleflight's Group.Do), or a function of this package
// that keeps what its function parameter returns in a field (`c.v, c.err
// = f()`: a cache filled once for every later caller). What the literal
// does then outlives the request that happened to run it: a context of
// its own there is no dropped context.
func (m *layer) sharedRun(lit inspector.Cursor) bool {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	idx := slices.Index(call.Args, lit.Node().(ast.Expr))
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if idx < 0 || fn == nil {
		return false
	}
	if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil {
		return row.Role == catalog.SharedRun && row.ValueArg == idx
	}
	d := m.vals.Decls[fn.Origin()]
	// The declaration's own parameters, which its body uses.
	sig, ok := fn.Origin().Type().(*types.Signature)
	if d == nil || d.Body == nil || !ok || sig.Variadic() && idx >= sig.Params().Len()-1 || idx >= sig.Params().Len() {
		return false
	}
	param := sig.Params().At(idx)
	kept := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || kept || len(as.Rhs) != 1 {
			return !kept
		}
		c, ok := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := analysisutil.Unparen(c.Fun).(*ast.Ident); !ok || m.pass.TypesInfo.Uses[id] != param {
			return true
		}
		for _, l := range as.Lhs {
			if sel, ok := analysisutil.Unparen(l).(*ast.SelectorExpr); ok {
				if s := m.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
					kept = true
				}
			}
		}
		return !kept
	})
	return kept
}

// keptForLater reports whether call, which returns no error, makes a
// value the function keeps beyond itself: assigned to a field or a
// package variable, directly or through a local whose every use is such
// an assignment (`src := tokens.NewSource(ctx, url); h.src = src`). A
// context given to it is the kept value's (a token source refreshing
// later), not this call's: the call itself cannot fail with it, and the
// work it serves happens after the request.
func (m *layer) keptForLater(call *ast.CallExpr, parent ast.Node, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	sig, ok := info.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	for r := range sig.Results().Variables() {
		if analysisutil.IsErrorType(r.Type()) {
			return m.keptStream(call, parent, body)
		}
	}
	as, ok := parent.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) || len(as.Lhs) != 1 {
		return false
	}
	if m.lasting(as.Lhs[0]) {
		return true
	}
	id, v := m.firstLocal(as)
	if v == nil {
		return false
	}
	kept := false
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		x := cur.Node().(*ast.Ident)
		if x == id || info.Uses[x] != v {
			continue
		}
		a, ok := cur.Parent().Node().(*ast.AssignStmt)
		if !ok || len(a.Lhs) != len(a.Rhs) {
			return false
		}
		i := slices.Index(a.Rhs, ast.Expr(x))
		if i < 0 || !m.lasting(a.Lhs[i]) {
			return false
		}
		kept = true
	}
	return kept
}

// lasting reports whether l, the target of an assignment, outlives the
// function: a field, or a package variable.
func (m *layer) lasting(l ast.Expr) bool {
	info := m.pass.TypesInfo
	switch x := analysisutil.Unparen(l).(type) {
	case *ast.SelectorExpr:
		sel := info.Selections[x]
		if sel == nil {
			v, ok := info.Uses[x.Sel].(*types.Var)
			return ok && v.Parent() == v.Pkg().Scope() // pkg.Var
		}
		return sel.Kind() == types.FieldVal
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// keptStream reports whether call, which returns a value and an error, is
// assigned to a local whose stream the function keeps beyond itself: the
// value, or a field of it, that has a Close() error method (a response's
// Body), stored in a field or a package variable. The call's context
// governs that stream for as long as it is read, after the function has
// returned; the caller's would cut it when the caller is done (a feed's
// Connect opening the stream its Next reads). Fixture
// testdata/src/timeoutchain/detach/kept.go.
func (m *layer) keptStream(call *ast.CallExpr, parent ast.Node, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	as, ok := parent.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) || len(as.Lhs) < 2 {
		return false
	}
	id, v := m.firstLocal(as)
	if v == nil {
		return false
	}
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		x := cur.Node().(*ast.Ident)
		if x == id || info.Uses[x] != v {
			continue
		}
		val, up := ast.Expr(x), cur.Parent()
		if sel, ok := up.Node().(*ast.SelectorExpr); ok && sel.X == ast.Expr(x) {
			val, up = sel, up.Parent()
		}
		a, ok := up.Node().(*ast.AssignStmt)
		if !ok || len(a.Lhs) != len(a.Rhs) {
			continue
		}
		if i := slices.Index(a.Rhs, val); i >= 0 && m.lasting(a.Lhs[i]) && closes(info.TypeOf(val)) {
			return true
		}
	}
	return false
}

// firstLocal returns the local variable the first left-hand side of as
// is, and its identifier; nil when it is none.
func (m *layer) firstLocal(as *ast.AssignStmt) (*ast.Ident, *types.Var) {
	id, ok := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := m.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return nil, nil
	}
	return id, v
}

// closes reports whether t has a method Close() error.
func closes(t types.Type) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Close")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && analysisutil.IsErrorType(sig.Results().At(0).Type())
}
