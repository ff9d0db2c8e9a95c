package timeouts

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// defaultOnly reports whether the timeout call (WithTimeout, WithDeadline)
// runs only when its parent context has no deadline: it is in the body of
// an if whose condition says so, `if _, ok := ctx.Deadline(); !ok { ctx,
// cancel = context.WithTimeout(ctx, 30*time.Second) }` (or `dl.IsZero()`
// of `dl, _ := ctx.Deadline()`), the check taken in the if's init or in a
// statement before it. Such a timeout is a default for callers that set
// none: under a caller's deadline it never applies. So is one set only
// when the parent has none or more time left than the timeout (`!ok ||
// time.Until(dl) > maxQuery`, fixture timeoutchain/defaults): it never
// outlives the parent's deadline.
func (m *layer) defaultOnly(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	parent := m.objOf(call.Args[0])
	if parent == nil {
		return false
	}
	path := m.path(call)
	for i, n := range path {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || i == 0 || path[i-1] != ifs.Body {
			continue
		}
		var before []ast.Stmt
		if ifs.Init != nil {
			before = append(before, ifs.Init)
		}
		if i+1 < len(path) {
			if b, ok := path[i+1].(*ast.BlockStmt); ok {
				for _, st := range b.List {
					if st == ast.Stmt(ifs) {
						break
					}
					before = append(before, st)
				}
			}
		}
		if m.saysNoDeadline(ifs.Cond, parent, before, call) {
			return true
		}
	}
	return false
}

// saysNoDeadline reports whether cond holds only when the context parent
// has no deadline: `!ok` or `dl.IsZero()` for `dl, ok := parent.Deadline()`
// assigned in one of the statements before; or (each disjunct one of
// those) when it has more time left than the timeout call sets
// (`time.Until(dl) > d` or `dl.Sub(time.Now()) > d`, d a constant no
// shorter than the timeout).
func (m *layer) saysNoDeadline(cond ast.Expr, parent types.Object, before []ast.Stmt, call *ast.CallExpr) bool {
	info := m.pass.TypesInfo
	// The variables a Deadline() of parent is assigned to: its time and
	// its ok.
	var dl, ok types.Object
	for _, st := range before {
		as, isAs := st.(*ast.AssignStmt)
		if !isAs || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			continue
		}
		c, isCall := analysisutil.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !isCall || !analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Deadline") {
			continue
		}
		sel, isSel := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
		if !isSel || m.objOf(sel.X) != parent {
			continue
		}
		dl, ok = m.objOf(as.Lhs[0]), m.objOf(as.Lhs[1])
	}
	noDeadline := func(e ast.Expr) bool {
		switch c := analysisutil.Unparen(e).(type) {
		case *ast.UnaryExpr:
			return c.Op == token.NOT && ok != nil && m.objOf(c.X) == ok
		case *ast.CallExpr:
			sel, isSel := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
			return isSel && dl != nil && sel.Sel.Name == "IsZero" && m.objOf(sel.X) == dl &&
				analysisutil.IsMethod(analysisutil.Callee(info, c), "time", "Time", "IsZero")
		}
		return false
	}
	if noDeadline(cond) {
		return true
	}
	if dl == nil {
		return false
	}
	for _, d := range analysisutil.Split(cond, token.LOR) {
		if noDeadline(d) || m.moreLeftThan(d, dl, call) {
			continue
		}
		// ok && time.Until(dl) > maxQuery: a conjunction holds only
		// when one of its conjuncts does.
		if b, ok := analysisutil.Unparen(d).(*ast.BinaryExpr); ok && b.Op == token.LAND &&
			(m.moreLeftThan(b.X, dl, call) || m.moreLeftThan(b.Y, dl, call)) {
			continue
		}
		return false
	}
	return true
}

// moreLeftThan reports whether e holds only when the deadline dl is
// further away than the timeout call sets: `time.Until(dl) > d` (or >=,
// or the sides swapped), `dl.Sub(time.Now()) > d`, with d a constant
// duration no shorter than that timeout.
func (m *layer) moreLeftThan(e ast.Expr, dl types.Object, call *ast.CallExpr) bool {
	info := m.pass.TypesInfo
	be, ok := analysisutil.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	left, limit := be.X, be.Y
	switch be.Op {
	case token.GTR, token.GEQ:
	case token.LSS, token.LEQ:
		left, limit = be.Y, be.X
	default:
		return false
	}
	timeLeft := func(x ast.Expr) bool {
		c, ok := analysisutil.Unparen(x).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return false
		}
		fn := analysisutil.Callee(info, c)
		switch {
		case analysisutil.IsFunc(fn, "time", "Until"):
			return m.objOf(c.Args[0]) == dl
		case analysisutil.IsMethod(fn, "time", "Time", "Sub"):
			sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr)
			now, isCall := analysisutil.Unparen(c.Args[0]).(*ast.CallExpr)
			return ok && m.objOf(sel.X) == dl && isCall && analysisutil.IsFunc(analysisutil.Callee(info, now), "time", "Now")
		}
		return false
	}
	if !timeLeft(left) {
		return false
	}
	d, ok := m.durationOf(limit)
	t, tok := m.timeoutOf(call)
	return ok && tok && d >= t
}

// objOf returns the object an identifier expression denotes, or nil.
func (m *layer) objOf(e ast.Expr) types.Object {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if obj := m.pass.TypesInfo.Uses[id]; obj != nil {
		return obj
	}
	return m.pass.TypesInfo.Defs[id]
}

// exclusive reports whether a and b lie in different branches of one if
// (its body and its else) or one switch (two of its cases): no run
// evaluates both.
func (m *layer) exclusive(a, b ast.Node) bool {
	if a == nil || b == nil {
		return false
	}
	pa, pb := m.path(a), m.path(b)
	if len(pa) == 0 || len(pb) == 0 || pa[len(pa)-1] != pb[len(pb)-1] {
		return false // not in one file
	}
	// The branch of each node under every if or switch clause list that
	// holds it, innermost first.
	branch := func(path []ast.Node, stmt ast.Node) ast.Node {
		for i, n := range path {
			if n == stmt && i > 0 {
				return path[i-1]
			}
		}
		return nil
	}
	for _, n := range pa {
		switch n.(type) {
		case *ast.IfStmt, *ast.BlockStmt:
		default:
			continue
		}
		x, y := branch(pa, n), branch(pb, n)
		if x == nil || y == nil || x == y {
			continue
		}
		switch s := n.(type) {
		case *ast.IfStmt:
			return (x == s.Body || x == s.Else) && (y == s.Body || y == s.Else)
		case *ast.BlockStmt:
			// The body of a switch: two of its case clauses.
			_, cx := x.(*ast.CaseClause)
			_, cy := y.(*ast.CaseClause)
			if cx && cy {
				return true
			}
			// `if fast { ctx, cancel = WithTimeout(ctx, 1s); ...; return
			// op(ctx) }` before b in the same block: a branch that always
			// leaves never reaches the statements after it.
			if ifs, ok := x.(*ast.IfStmt); ok && x.Pos() < y.Pos() {
				if within(a, ifs.Body) && analysisutil.LeavesBlock(ifs.Body) {
					return true
				}
				if eb, ok := ifs.Else.(*ast.BlockStmt); ok && within(a, eb) && analysisutil.LeavesBlock(eb) {
					return true
				}
			}
			return false
		}
	}
	return false
}

func within(n, outer ast.Node) bool { return outer.Pos() <= n.Pos() && n.End() <= outer.End() }

// path returns n and its enclosing nodes, innermost first, up to its
// file, from a parent index of the package's files built once (so that
// asking for many nodes stays linear in the package).
func (m *layer) path(n ast.Node) []ast.Node {
	if m.parents == nil {
		m.parents = map[ast.Node]ast.Node{}
		for _, f := range m.pass.Files {
			var stack []ast.Node
			ast.Inspect(f, func(x ast.Node) bool {
				if x == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				if len(stack) > 0 {
					m.parents[x] = stack[len(stack)-1]
				}
				stack = append(stack, x)
				return true
			})
		}
	}
	var out []ast.Node
	for x := n; x != nil; x = m.parents[x] {
		out = append(out, x)
	}
	return out
}
