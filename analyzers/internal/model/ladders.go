package model

// Ladders: loops each of whose ways round first changes the state that
// chose to go round (a protocol downgraded, a credential dropped): the
// loop's analogue of a recursive retry's fallback (clearsGuard).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// fallbackLadder reports whether the loop stmt (a for loop, or a goto
// loop: the label at list[idx] and the statements after it) goes round
// only from rungs. A rung is a goto back to the label, or a continue of
// the for loop, that runs only in the body of a test of a local variable
// declared before the loop (or a parameter) whose path, in that body,
// first writes it a value that makes the test false (`if verified {
// verified = false; goto retry }`, `if cfg != nil { ...; cfg = nil; goto
// retry }`). A for loop must not fall off the end of its body, which
// goes round untested.
//
// Each rung is then taken once, unless a write in the loop gives its
// variable a value its test accepts again. Such a write must lie in the
// body of another rung's test, and rungs re-arming each other so must
// form no cycle (the rung that drops verification may set the config
// the plaintext rung tests, but not the other way round too). The
// variables are the function's own: their address is never taken and no
// closure in the loop uses them, so nothing else writes them. The
// passes are then bounded by the rungs, and each asks differently: a
// fallback, not a resend of the same request.
func fallbackLadder(info *types.Info, stmt ast.Stmt, label string, list []ast.Stmt, idx int) bool {
	var region []ast.Stmt
	isGoto := list != nil
	if isGoto {
		region = list[idx:]
	} else {
		fs, ok := stmt.(*ast.ForStmt)
		if !ok || len(fs.Body.List) == 0 {
			return false
		}
		region = fs.Body.List
		switch last := region[len(region)-1].(type) {
		case *ast.ReturnStmt:
		case *ast.BranchStmt:
			if last.Tok != token.CONTINUE && last.Tok != token.BREAK {
				return false
			}
		default:
			return false
		}
	}
	lo, hi := region[0].Pos(), region[len(region)-1].End()
	own := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		return ok && isLocal(v) && (v.Pos() < lo || v.Pos() >= hi)
	}
	w := &ladderWalk{info: info, label: label, isGoto: isGoto, own: own, ok: true}
	w.walk(region, nil, nil, false)
	if !w.ok || len(w.rungs) == 0 {
		return false
	}
	return w.rearmsAcyclic(region)
}

type ladderGuard struct {
	state     ast.Expr
	falsifies func(ast.Expr) bool
	body      *ast.BlockStmt
}

type ladderWrite struct {
	lhs, rhs ast.Expr
	depth    int // the guards around the write
}

type ladderWalk struct {
	info   *types.Info
	label  string
	isGoto bool
	own    func(ast.Expr) bool
	rungs  []ladderGuard
	ok     bool
}

// walk follows the statements of list under guards, with the writes
// made before them on their path; inner: inside a loop nested in the
// judged one, whose unlabeled continues are its own.
func (w *ladderWalk) walk(list []ast.Stmt, guards []ladderGuard, writes []ladderWrite, inner bool) {
	for _, st := range list {
		if !w.ok {
			return
		}
		switch x := st.(type) {
		case *ast.AssignStmt:
			writes = w.noteWrites(x, writes, len(guards))
		case *ast.IfStmt:
			if as, ok := x.Init.(*ast.AssignStmt); ok {
				writes = w.noteWrites(as, writes, len(guards))
			}
			in := guards[:len(guards):len(guards)]
			for _, cj := range analysisutil.Split(x.Cond, token.LAND) {
				if state, falsifies := guardedState(w.info, cj, w.own); state != nil {
					in = append(in, ladderGuard{state: state, falsifies: falsifies, body: x.Body})
				}
			}
			w.walk(x.Body.List, in, writes, inner)
			if x.Else != nil {
				w.walk([]ast.Stmt{x.Else}, guards, writes, inner)
			}
		case *ast.BlockStmt:
			w.walk(x.List, guards, writes, inner)
		case *ast.LabeledStmt:
			w.walk([]ast.Stmt{x.Stmt}, guards, writes, inner)
		case *ast.ForStmt:
			w.walk(x.Body.List, guards, writes, true)
		case *ast.RangeStmt:
			w.walk(x.Body.List, guards, writes, true)
		case *ast.SwitchStmt:
			w.walkClauses(x.Body, guards, writes, inner)
		case *ast.TypeSwitchStmt:
			w.walkClauses(x.Body, guards, writes, inner)
		case *ast.SelectStmt:
			w.walkClauses(x.Body, guards, writes, inner)
		case *ast.BranchStmt:
			if w.goesRound(x, inner) {
				w.rung(guards, writes)
			}
		}
	}
}

func (w *ladderWalk) walkClauses(body *ast.BlockStmt, guards []ladderGuard, writes []ladderWrite, inner bool) {
	for _, c := range body.List {
		switch cc := c.(type) {
		case *ast.CaseClause:
			w.walk(cc.Body, guards, writes, inner)
		case *ast.CommClause:
			w.walk(cc.Body, guards, writes, inner)
		}
	}
}

func (w *ladderWalk) noteWrites(as *ast.AssignStmt, writes []ladderWrite, depth int) []ladderWrite {
	if len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		return writes
	}
	out := writes[:len(writes):len(writes)]
	for i, l := range as.Lhs {
		out = append(out, ladderWrite{lhs: l, rhs: as.Rhs[i], depth: depth})
	}
	return out
}

// goesRound reports whether b goes round the judged loop.
func (w *ladderWalk) goesRound(b *ast.BranchStmt, inner bool) bool {
	if w.isGoto {
		return b.Tok == token.GOTO && b.Label != nil && b.Label.Name == w.label
	}
	if b.Tok == token.GOTO {
		w.ok = false // a jump the walk does not follow
		return false
	}
	return b.Tok == token.CONTINUE && (b.Label == nil && !inner || b.Label != nil && b.Label.Name == w.label)
}

// rung notes the way round at the end of a path under guards, with
// writes before it, or fails the walk if no guard was falsified on the
// path inside its own body.
func (w *ladderWalk) rung(guards []ladderGuard, writes []ladderWrite) {
	for i, g := range guards {
		for _, wr := range writes {
			if wr.depth > i && wr.lhs.Pos() >= g.body.Pos() && sameState(w.info, wr.lhs, g.state) && g.falsifies(wr.rhs) {
				w.rungs = append(w.rungs, g)
				return
			}
		}
	}
	w.ok = false
}

// rearmsAcyclic reports whether every write in region that gives a
// rung's variable a value its test accepts lies in the body of a rung
// on another variable, and those re-armings form no cycle; and whether
// the rungs' variables are never taken the address of, nor used by a
// closure, in region.
func (w *ladderWalk) rearmsAcyclic(region []ast.Stmt) bool {
	vars := map[types.Object][]ladderGuard{}
	for _, g := range w.rungs {
		obj := w.info.Uses[analysisutil.Unparen(g.state).(*ast.Ident)]
		vars[obj] = append(vars[obj], g)
	}
	edges := map[types.Object][]types.Object{}
	ok := true
	check := func(lhs, rhs ast.Expr, pos token.Pos) {
		id, isID := analysisutil.Unparen(lhs).(*ast.Ident)
		if !isID {
			return
		}
		obj := w.info.Uses[id]
		gs, isRung := vars[obj]
		if !isRung {
			return
		}
		rearms := rhs == nil
		for _, g := range gs {
			rearms = rearms || !g.falsifies(rhs)
		}
		if !rearms {
			return
		}
		for _, r := range w.rungs {
			if r.body.Pos() <= pos && pos < r.body.End() {
				if from := w.info.Uses[analysisutil.Unparen(r.state).(*ast.Ident)]; from != obj {
					edges[from] = append(edges[from], obj)
					return
				}
			}
		}
		ok = false
	}
	for _, st := range region {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				ast.Inspect(x.Body, func(n ast.Node) bool {
					if id, isID := n.(*ast.Ident); isID && vars[w.info.Uses[id]] != nil {
						ok = false
					}
					return ok
				})
				return false
			case *ast.UnaryExpr:
				if id, isID := analysisutil.Unparen(x.X).(*ast.Ident); isID && x.Op == token.AND && vars[w.info.Uses[id]] != nil {
					ok = false
				}
			case *ast.IncDecStmt:
				check(x.X, nil, x.Pos())
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if len(x.Lhs) == len(x.Rhs) && (x.Tok == token.ASSIGN || x.Tok == token.DEFINE) {
						check(l, x.Rhs[i], x.Pos())
					} else {
						check(l, nil, x.Pos())
					}
				}
			}
			return ok
		})
	}
	if !ok {
		return false
	}
	// A cycle among the re-arming edges: a depth-first search.
	const (
		unseen = iota
		open
		done
	)
	mark := map[types.Object]int{}
	var cyclic func(types.Object) bool
	cyclic = func(v types.Object) bool {
		mark[v] = open
		for _, u := range edges[v] {
			if mark[u] == open || mark[u] == unseen && cyclic(u) {
				return true
			}
		}
		mark[v] = done
		return false
	}
	for v := range vars {
		if mark[v] == unseen && cyclic(v) {
			return false
		}
	}
	return true
}
