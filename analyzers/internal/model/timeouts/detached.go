package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Work detached on purpose: a context.Background() in work that is started
// as a goroutine — by a closure kept in a variable that a go statement
// starts, or inside the callee — outlives the caller by design.

// startedAlone reports whether the function literal at lit is kept in a
// local variable that the function starts as a goroutine
// (`keepAlive := func() {...}; go keepAlive()`): like a `go func() {...}()`,
// work meant to outlive the caller. A closure also called in place (on
// another path: `if h2 { work() } else { go work() }`) is still written to
// outlive the caller: its Background is the lifetime its goroutine needs,
// and the caller's context put there would end that goroutine with the
// request. started caches, for the function's body, the variables some
// use of which is the function of a go statement.
func startedAlone(info *types.Info, lit, body inspector.Cursor, started *map[types.Object]bool) bool {
	var lhs ast.Expr
	switch p := lit.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			lhs = p.Lhs[0]
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			lhs = p.Names[0]
		}
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return false
	}
	if *started == nil {
		*started = goStartedVars(info, body)
	}
	return (*started)[info.ObjectOf(id)]
}

// goStartedVars returns the variables used in body some use of which is
// the function called by a go statement.
func goStartedVars(info *types.Info, body inspector.Cursor) map[types.Object]bool {
	started := map[types.Object]bool{}
	for c := range body.Preorder((*ast.Ident)(nil)) {
		obj, ok := info.Uses[c.Node().(*ast.Ident)].(*types.Var)
		if !ok {
			continue
		}
		call, isCall := c.Parent().Node().(*ast.CallExpr)
		_, isGo := c.Parent().Parent().Node().(*ast.GoStmt)
		if isCall && call.Fun == c.Node() && isGo {
			started[obj] = true
		}
	}
	return started
}

// detachesParam reports whether the function call calls, one of this
// package, uses the parameter its i'th argument is given to only in work
// it starts as a goroutine (`go func() { store.Unlock(ctx, keys) }()`,
// `go release(ctx, keys)`) and does not wait for (no receive, select,
// range over a channel, nor a WaitGroup's or an errgroup's Wait): the
// callee detaches that work itself, as a `go` statement at the call
// would.
func (m *layer) detachesParam(call *ast.CallExpr, i int) bool {
	param, d := m.calleeParam(call, i)
	if param == nil {
		return false
	}
	var goes []ast.Node
	waits := false // the function waits for what it started
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			goes = append(goes, x)
			return false
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			waits = true
		case *ast.UnaryExpr:
			waits = waits || x.Op == token.ARROW
		case *ast.RangeStmt:
			if t := m.pass.TypesInfo.TypeOf(x.X); t != nil {
				_, ch := t.Underlying().(*types.Chan)
				waits = waits || ch
			}
		case *ast.CallExpr:
			f := analysisutil.Callee(m.pass.TypesInfo, x)
			waits = waits || analysisutil.IsMethod(f, "sync", "WaitGroup", "Wait") || analysisutil.IsMethod(f, "sync", "Cond", "Wait") ||
				analysisutil.IsMethod(f, "golang.org/x/sync/errgroup", "Group", "Wait")
		}
		return !waits
	})
	if waits {
		return false
	}
	used, outside := false, false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || m.pass.TypesInfo.Uses[id] != param {
			return !outside
		}
		used = true
		if !slices.ContainsFunc(goes, func(g ast.Node) bool { return g.Pos() <= id.Pos() && id.End() <= g.End() }) {
			outside = true
		}
		return !outside
	})
	return used && !outside
}

// calleeParam returns the parameter that call's i'th argument is given
// to, and the declaration of the called function, when it is one of this
// package with a body (not a variadic parameter); nil otherwise.
func (m *layer) calleeParam(call *ast.CallExpr, i int) (*types.Var, *ast.FuncDecl) {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	if fn == nil {
		return nil, nil
	}
	sig := fn.Origin().Signature()
	if sig.Variadic() && i >= sig.Params().Len()-1 || i >= sig.Params().Len() {
		return nil, nil
	}
	d := m.vals.Decls[fn.Origin()]
	if d == nil || d.Body == nil {
		return nil, nil
	}
	return sig.Params().At(i), d
}

// groupStarted reports whether the closure lit is the function handed to
// a sync.WaitGroup's Go, which runs it in a goroutine of its own as a go
// statement would, and body never waits for that group (whoever stops
// the work calls Wait, later): work started to outlive the caller. A
// function that waits for the group itself keeps the work inside its
// own call, and a Background there drops the caller's context.
func groupStarted(info *types.Info, lit, body inspector.Cursor) bool {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Args[0] != lit.Node() {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !analysisutil.IsMethod(analysisutil.Callee(info, call), "sync", "WaitGroup", "Go") {
		return false
	}
	group := analysisutil.ReferredObject(info, sel.X)
	if group == nil {
		return false
	}
	for c := range body.Preorder((*ast.CallExpr)(nil)) {
		w := c.Node().(*ast.CallExpr)
		if ws, ok := analysisutil.Unparen(w.Fun).(*ast.SelectorExpr); ok &&
			analysisutil.IsMethod(analysisutil.Callee(info, w), "sync", "WaitGroup", "Wait") && analysisutil.ReferredObject(info, ws.X) == group {
			return false
		}
	}
	return true
}

// awaitedGo reports whether the goroutine that the go statement at g
// starts with the function literal lit sends on a channel that the
// function around g, after g and outside closures, receives from
// (`go func() { errc <- retry(op) }(); err := <-errc`): the function
// waits for the goroutine's work, which is inside its call.
func awaitedGo(info *types.Info, g inspector.Cursor, lit *ast.FuncLit) bool {
	sent := map[types.Object]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SendStmt); ok {
			if id, ok := analysisutil.Unparen(s.Chan).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && v.Pos() < lit.Pos() {
					sent[v] = true
				}
			}
		}
		return true
	})
	if len(sent) == 0 {
		return false
	}
	var body ast.Node
	for f := range g.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch x := f.Node().(type) {
		case *ast.FuncDecl:
			body = x.Body
		case *ast.FuncLit:
			body = x.Body
		}
		break
	}
	if body == nil {
		return false
	}
	end := g.Node().End()
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && u.Pos() >= end {
			if id, ok := analysisutil.Unparen(u.X).(*ast.Ident); ok && sent[info.Uses[id]] {
				found = true
			}
		}
		return true
	})
	return found
}
