package timeouts

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// findDropped finds context.Background() and TODO() used where a context
// is in scope (not in main, init, tests, or goroutines started to outlive
// the request), and the calls that take no context there (ContextLess).
func (m *layer) findDropped(t *Timeouts) {
	root := m.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for file := range root.Children() {
		if analysisutil.IsTestFile(m.pass, file.Node().Pos()) {
			continue
		}
		for decl := range file.Children() {
			fd, ok := decl.Node().(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			// main and init give the program's contexts, but a function
			// literal written there with a context of its own (an HTTP
			// handler given to http.HandleFunc) runs under that one.
			outer := fd.Recv != nil || fd.Name.Name != "main" && fd.Name.Name != "init"
			body := decl.ChildAt(edge.FuncDecl_Body, -1)
			var started map[types.Object]bool // computed on first need
			var sent *types.Var               // the request handed over to send (requestToSend)
			var walk func(n inspector.Cursor, scope string)
			walk = func(n inspector.Cursor, scope string) {
				n.Inspect(nil, func(c inspector.Cursor) bool {
					switch y := c.Node().(type) {
					case *ast.GoStmt:
						return false // work meant to outlive the caller
					case *ast.DeferStmt:
						return false // cleanup that must run after the caller gave up
					case *ast.IfStmt:
						// if ctx == nil { ctx = context.Background() }: a
						// default for a missing context, not a dropped one.
						if be, ok := analysisutil.Unparen(y.Cond).(*ast.BinaryExpr); ok && be.Op == token.EQL {
							if isContextType(m.pass.TypesInfo.TypeOf(be.X)) && m.pass.TypesInfo.Types[be.Y].IsNil() ||
								isContextType(m.pass.TypesInfo.TypeOf(be.Y)) && m.pass.TypesInfo.Types[be.X].IsNil() {
								if y.Else != nil {
									walk(c.ChildAt(edge.IfStmt_Else, -1), scope)
								}
								return false
							}
						}
					case *ast.FuncLit:
						s := m.ctxInScope(y.Type)
						// A closure kept to run later (stored in a field, a
						// composite literal, returned: Result.Uncounted) runs
						// after the caller's context may be gone.
						if s == "" && !m.res.Uncounted(y) && !startedAlone(m.pass.TypesInfo, c, body, &started) && !groupStarted(m.pass.TypesInfo, c, body) && !m.sharedRun(c) {
							s = scope
						}
						walk(c.ChildAt(edge.FuncLit_Body, -1), s)
						return false
					case *ast.CallExpr:
						// The walk starts at a block or an if, so a
						// call has a parent and a grandparent inside
						// it (passedDown reads both).
						if scope != "" && m.isContextFunc(y, "Background", "TODO") && !m.reHomes(c, sent) && m.passedDown(c, body, scope, 0) && !m.afterDone(c, body, scope) {
							t.Dropped = append(t.Dropped, &DroppedContext{Call: y, InScope: scope})
						}
						if scope != "" {
							if cl := m.contextLess(c, body, y, scope); cl != nil && !m.afterDone(c, body, scope) {
								t.ContextLess = append(t.ContextLess, cl)
							}
						}
					}
					return true
				})
			}
			scope := ""
			if outer {
				scope = m.ctxInScope(fd.Type)
				if scope == "" {
					scope = m.receiverContext(fd)
				}
			}
			sent = m.requestToSend(fd.Type)
			if scope != "" && (m.neverCancelled(fd.Body.Lbrace+1, scope) || m.doneOnEntry(fd, scope) || m.detachesScope(fd, scope)) {
				// Every caller gives a context that is never cancelled,
				// or one already done; or the function only ever
				// detaches its context: nothing live is dropped.
				scope = ""
			}
			walk(body, scope)
		}
	}
}

// maxFollow bounds how far a Background is followed through locals and
// values derived from it.
const maxFollow = 4

// passedDown reports whether the context.Background() call at cur is used
// for a call: an argument of a call that can fail with the context's
// error (not of one that returns nothing), or the value of a variable.
// Comparisons (ctx != context.Background()) and returns of a
// context-choosing helper are not, nor is a context given a lifetime of
// its own (ownLifetime). A context derived from it by
// context.WithValue is followed in its place, as is a local variable
// holding either (neverRunUnder), depth levels deep so far. body is the
// cursor of the function's body; an expression is never the body, so
// cur's parent and grandparent are inside it.
func (m *layer) passedDown(cur, body inspector.Cursor, scope string, depth int) bool {
	bg := cur.Node().(ast.Expr)
	parent, grand := cur.Parent().Node(), cur.Parent().Parent().Node()
	switch p := parent.(type) {
	case *ast.CallExpr:
		if m.ownLifetime(bg, p, grand, body) {
			return false
		}
		if gp, ok := grand.(*ast.CallExpr); ok && m.returnsContext(p) && m.ownLifetime(p, gp, cur.Parent().Parent().Parent().Node(), body) {
			// context.WithTimeout(copyTrace(context.Background(), ctx),
			// d): a context built from the Background (values copied
			// onto it, by whatever means) given a lifetime of its own
			// at once; the call that built it runs nothing under it.
			return false
		}
		if i := m.valueArg(p); i >= 0 && i < len(p.Args) && p.Args[i] == bg && depth < maxFollow {
			// context.WithValue(context.Background(), k, v), or a
			// package's NewContext(context.Background(), info): the
			// same lifetime, carrying a value; judged where it goes,
			// unless kept for later (assigned to a field).
			return !m.keptForLater(p, grand, body) && m.passedDown(cur.Parent(), body, scope, depth+1)
		}
		if i := m.carrierArg(p); i >= 0 && i < len(p.Args) && p.Args[i] == ast.Expr(bg) {
			// req.Clone(context.Background()): dropped only if the
			// request goes on to a call.
			return !m.carriedOnlyLocally(p, grand, body, false)
		}
		for i, a := range p.Args {
			if a == ast.Expr(bg) {
				if fn := analysisutil.Callee(m.pass.TypesInfo, p); fn != nil {
					// srv.Shutdown(context.Background()): the process's
					// own server, stopped whatever the caller does.
					// mr.Collect(context.Background(), &rm): a read of
					// what this process recorded, nothing downstream.
					if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && (row.Role == catalog.OwnShutdown || row.Role == catalog.InProcess) && row.ValueArg == i {
						return false
					}
					// lc.Listen(context.Background(), "tcp", addr): binding
					// a listener on this host; the context bounds only
					// resolving the address.
					if row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.HostBind {
						return false
					}
					// grpc.DialContext(context.Background(), target): it
					// connects in the background unless told to block.
					if m.lazyDial(p, fn) {
						return false
					}
				}
				return !m.returnsNothing(p) && !m.ignoresParam(p, i) && !m.workUnder(p, scope) && !m.detachesParam(p, i) && !m.boundsParam(p, i) && !m.keptForLater(p, grand, body) && !m.startsLifetime(p, i)
			}
		}
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == ast.Expr(bg) && i < len(p.Lhs) {
				if id, ok := p.Lhs[i].(*ast.Ident); ok && id.Name == "_" {
					return false // _, span := tracer.Start(bg, name): the context is thrown away
				}
				if m.chosenOver(p.Lhs[i], cur.Parent(), body, scope) {
					return false
				}
				if m.rebindsParam(bg, p.Lhs[i], body) {
					return false
				}
				return !m.neverRunUnder(p.Lhs[i], body, scope, depth)
			}
		}
		return true
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == ast.Expr(bg) && i < len(p.Names) {
				return !m.neverRunUnder(p.Names[i], body, scope, depth)
			}
		}
		return true
	}
	// A field of a composite literal (detached{Context:
	// context.Background(), values: ctx}) builds a value whose use the
	// model cannot follow: a type made to detach is no dropped context.
	return false
}

// workUnder reports whether call is also given a function literal that
// uses the context named scope (`doWithBatch(context.Background(), n,
// func(s, e int) error { return get(ctx, keys[s:e]) })`): the work the
// call runs is the closure's, under the caller's context; the Background
// governs only how the call schedules it (every batch runs, so that each
// sends its one result).
func (m *layer) workUnder(call *ast.CallExpr, scope string) bool {
	for _, a := range call.Args {
		lit, ok := analysisutil.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		// The context's variable (ctx, or r of r.Context()), declared
		// outside the literal: the closure's own parameter of that name
		// is whatever the call gives it.
		root := scope
		if i := strings.IndexAny(root, ".("); i >= 0 {
			root = root[:i]
		}
		uses := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !uses && id.Name == root {
				if v, ok := m.pass.TypesInfo.Uses[id].(*types.Var); ok && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) && isFuncParam(v) {
					uses = true
				}
			}
			return !uses
		})
		if uses {
			return true
		}
	}
	return false
}

// isFuncParam reports whether v is a parameter of a declared function
// (its scope is the function's, whose parent is the file's): the context
// the function was given, not a local of the same name (`ctx :=
// context.Background()`).
func isFuncParam(v *types.Var) bool {
	fs := v.Parent()
	return fs != nil && fs.Parent() != nil && v.Pkg() != nil && fs.Parent().Parent() == v.Pkg().Scope()
}

// ignoresParam reports whether the function call calls never reads the
// parameter its i'th argument is given to: the parameter is blank or
// unnamed (`func (b *bucket) iter(_ context.Context, ...)`, also in
// another package: export data keeps the names), or a function of this
// package never uses it but to read a value it carries (`ctx.Value(k)`:
// no deadline or cancellation reaches anything through it) or to hand it
// on, as it is, to a parameter that is not read either (a constructor that passes its context to a method
// that ignores it; fixture `testdata/src/timeoutchain/detach/unread.go`),
// or a function of another package does so (its UnreadFact). An
// interface method or a function value may be anything.
func (m *layer) ignoresParam(call *ast.CallExpr, i int) bool {
	fn := analysisutil.Callee(m.pass.TypesInfo, call)
	return fn != nil && m.unreadParam(fn, i)
}

// UnreadFact is exported for a function whose context parameters at
// Params it never reads but for the values they carry (`ctx.Value(k)`:
// an id for a log line or an error) or to hand them on, as they are, to
// parameters that are not read either: their deadline and cancellation
// reach nothing.
type UnreadFact struct {
	Params []int
}

func (*UnreadFact) AFact() {}

func (f *UnreadFact) String() string { return fmt.Sprintf("unread%v", f.Params) }

// unreadSummary returns the UnreadFact of fn, a function of this
// package; nil when it reads every context it is given.
func (m *layer) unreadSummary(fn *types.Func) *UnreadFact {
	var f UnreadFact
	params := fn.Signature().Params()
	for i := range params.Len() {
		p := params.At(i)
		if p.Name() == "_" || p.Name() == "" || !analysisutil.IsNamedType(p.Type(), "context", "Context") {
			continue // blank ones are seen in export data already
		}
		if m.unreadParam(fn, i) {
			f.Params = append(f.Params, i)
		}
	}
	if len(f.Params) == 0 {
		return nil
	}
	return &f
}

func (m *layer) unreadParam(fn *types.Func, i int) bool {
	w := &paramWalk{m: m, memo: m.unread, maxDepth: 8, unnamed: true, handOn: useHarmless,
		imported: func(fn *types.Func, i int) bool {
			var f UnreadFact
			return m.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		}}
	return w.param(fn, i, map[*types.Var]bool{}, 0)
}

// returnsNothing reports whether call's function returns nothing: it cannot
// fail with its context's error, so no caller learns of a cancellation
// through it, and the context it is given serves its values (slog's
// InfoContext, a tracer's or a frame observer's notification). Whether the
// function is static or an interface method does not matter: the
// signature says it.
func (m *layer) returnsNothing(call *ast.CallExpr) bool {
	return analysisutil.ReturnsNothing(m.pass.TypesInfo, call)
}

// producerOfCaller reports whether a context derived from Background,
// held in derived and cancelled by `defer cancel()` (v the cancel
// function), only drives producers that the function consumes while it
// watches another context: derived is given only to calls that return a
// channel (`c := wait(waitCtx)`), and a select of the function leaves it
// when another context is done (`case <-ctx.Done(): return`). The caller's
// cancellation then ends the function, and the deferred cancel ends the
// producer: nothing outlives the caller.
func (m *layer) producerOfCaller(derived ast.Expr, cancel *types.Var, body inspector.Cursor) bool {
	info := m.pass.TypesInfo
	id, ok := analysisutil.Unparen(derived).(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	dv, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return false
	}
	deferred, uses, leaves := false, 0, false
	for cur := range body.Preorder((*ast.DeferStmt)(nil), (*ast.Ident)(nil), (*ast.CommClause)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.DeferStmt:
			if fid, ok := analysisutil.Unparen(n.Call.Fun).(*ast.Ident); ok && info.Uses[fid] == cancel && len(n.Call.Args) == 0 {
				deferred = true
			}
		case *ast.Ident:
			if n == id || info.Uses[n] != dv {
				continue
			}
			call, ok := cur.Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun == ast.Expr(n) || !returnsChan(info, call) {
				return false
			}
			uses++
		case *ast.CommClause:
			if m.doneOfOther(n.Comm, dv) && len(n.Body) > 0 {
				if _, ok := n.Body[len(n.Body)-1].(*ast.ReturnStmt); ok {
					leaves = true
				}
			}
		}
	}
	return deferred && uses > 0 && leaves
}

// returnsChan reports whether one of call's results is a channel.
func returnsChan(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if tup, ok := t.(*types.Tuple); ok {
		for i := range tup.Len() {
			if _, ok := tup.At(i).Type().Underlying().(*types.Chan); ok {
				return true
			}
		}
		return false
	}
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// doneOfOther reports whether comm receives from the Done channel of a
// context other than the variable not (`case <-ctx.Done():`).
func (m *layer) doneOfOther(comm ast.Stmt, not *types.Var) bool {
	call, ok := analysisutil.Unparen(analysisutil.CommRecv(comm)).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Done" || !isContextType(m.pass.TypesInfo.TypeOf(sel.X)) {
		return false
	}
	if xid, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && m.pass.TypesInfo.Uses[xid] == not {
		return false
	}
	return true
}

// neverRunUnder reports whether the local variable lhs (bg :=
// context.Background()) is used in body only in comparisons (a == bg),
// a reference value, as the parent of contexts with a lifetime of their
// own (ownLifetime), in work meant to outlive the caller (a go or
// defer statement, as findDropped skips them), or where passedDown
// finds no call of the request run under it (an argument of a call that
// returns nothing or keeps its result for later, the parent of a
// WithValue used so): no call of the request runs under it. Assigning
// the variable another value is no use. body is the cursor of the
// function's body.
func (m *layer) neverRunUnder(lhs ast.Expr, body inspector.Cursor, scope string, depth int) bool {
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok || depth >= maxFollow {
		return false
	}
	info := m.pass.TypesInfo
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return false
	}
	if m.following[v] {
		// out = withUser(out, u): derived back into the variable being
		// judged, whose other uses decide.
		return true
	}
	m.following[v] = true
	defer delete(m.following, v)
	compared, other := 0, false
	for cur := range body.Preorder((*ast.Ident)(nil)) {
		x := cur.Node().(*ast.Ident)
		if x == id || info.Uses[x] != v {
			continue
		}
		// An identifier is never the body, so its parent, and a call's
		// parent, are inside it.
		parent := cur.Parent()
		if be, ok := parent.Node().(*ast.BinaryExpr); ok && (be.Op == token.EQL || be.Op == token.NEQ) {
			compared++
			continue
		}
		if c, ok := parent.Node().(*ast.CallExpr); ok && m.ownLifetime(x, c, parent.Parent().Node(), body) {
			compared++
			continue
		}
		if detachedUse(cur, body) {
			compared++ // go func() { pub.Publish(bg, ...) }(): meant to outlive the caller
			continue
		}
		if as, ok := parent.Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(x)) {
			continue // given another value, not used
		}
		if _, ok := parent.Node().(*ast.ReturnStmt); ok {
			// Returned, as `return context.Background()` is (passedDown):
			// nothing runs under it here; a helper that builds a context
			// (values copied onto a Background) hands it to its callers.
			compared++
			continue
		}
		if _, ok := parent.Node().(*ast.CallExpr); ok && !m.passedDown(cur, body, scope, depth+1) {
			compared++ // handed where nothing of the request runs under it
			continue
		}
		other = true
	}
	return compared > 0 && !other
}

// detachedUse reports whether cur lies in a go or defer statement inside
// body: work started to outlive the caller, or cleanup that must run after
// it gave up.
func detachedUse(cur, body inspector.Cursor) bool {
	for p := cur.Parent(); p.Node() != nil && p.Node() != body.Node(); p = p.Parent() {
		switch p.Node().(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return true
		}
	}
	return false
}

// rebindsParam reports whether bg, a context.Background() (not TODO, the
// placeholder), is assigned to the function's own context parameter
// (`ctx = context.Background()`): the code puts its caller's context
// aside by name for all that follows, a detach written out, not one
// dropped by mistake.
func (m *layer) rebindsParam(bg ast.Expr, lhs ast.Expr, body inspector.Cursor) bool {
	call, ok := bg.(*ast.CallExpr)
	if !ok || !m.isContextFunc(call, "Background") {
		return false
	}
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isContextType(v.Type()) {
		return false
	}
	var ft *ast.FuncType
	switch f := body.Parent().Node().(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if m.pass.TypesInfo.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// chosenOver reports whether lhs, a local variable the statement at
// assign gives a Background, is also given the context in scope outside
// the branch (an if's, a case's) that holds assign (`handlerCtx := ctx;
// if w.graceful { handlerCtx = context.Background() }`): the code chooses
// between the two under a condition of its own (an option to let work
// finish after a shutdown); it has not dropped the context by mistake.
func (m *layer) chosenOver(lhs ast.Expr, assign, body inspector.Cursor, scope string) bool {
	id, ok := analysisutil.Unparen(lhs).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := m.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return false
	}
	var branch ast.Node
	for p := assign.Parent(); p.Node() != nil && p.Node() != body.Node() && branch == nil; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.IfStmt, *ast.CaseClause:
			branch = p.Node()
		case *ast.FuncLit:
			return false
		}
	}
	if branch == nil {
		return false
	}
	for _, a := range m.vals.Assigns[v] {
		if a.Value != nil && (a.Pos < branch.Pos() || a.Pos >= branch.End()) && analysisutil.Text(m.pass, a.Value) == scope {
			return true
		}
	}
	return false
}
