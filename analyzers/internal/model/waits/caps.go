package waits

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// CapFact is exported for every function that caps one of its inputs:
// its one result is never above one of its parameters (Params, by index),
// or never above a constant (Const), and on some path it returns an
// input let through by a comparison with that bound (`if d > max {
// return max }; return d`) or a min of one. Recognition is by the
// comparisons that guard the returns, never by the name.
type CapFact struct {
	// Params are the parameters that bound the result.
	Params []int
	// Const: the result is never above a constant of the function.
	Const bool
}

func (*CapFact) AFact() {}

func (f *CapFact) String() string {
	if f.Const {
		return fmt.Sprintf("caps(%v, const)", f.Params)
	}
	return fmt.Sprintf("caps(%v)", f.Params)
}

// le says that Small <= Big where the statement it was derived for runs.
type le struct{ Small, Big ast.Expr }

// sides returns the smaller and the larger side of a comparison that holds.
func sides(e ast.Expr) (small, big ast.Expr, ok bool) {
	be, ok := analysisutil.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return nil, nil, false
	}
	switch be.Op {
	case token.LSS, token.LEQ:
		return be.X, be.Y, true
	case token.GTR, token.GEQ:
		return be.Y, be.X, true
	}
	return nil, nil, false
}

// pathTo returns the nodes from root down to target's parent, or nil.
func pathTo(root ast.Node, target ast.Node) []ast.Node {
	var path []ast.Node
	ast.PreorderStack(root, nil, func(n ast.Node, stack []ast.Node) bool {
		if path != nil {
			return false
		}
		if n == target {
			path = append([]ast.Node{}, stack...)
			return false
		}
		return true
	})
	return path
}

// known returns the comparisons that hold wherever target runs, from the
// conditions that lead to it since the innermost loop or closure: an if
// whose body (a condition or a conjunct of it) or else (a disjunct of the
// negated condition) holds it, a case of a tagless switch (its one
// condition holds, the other cases' do not), an earlier `if c { ...;
// return }` in the same block (c does not hold). A statement before
// target in a block for which writes holds (one that changes the value
// compared) drops what the conditions above it said.
func known(root ast.Node, target ast.Stmt, writes func(ast.Stmt) bool) []le {
	path := append(pathTo(root, target), target)
	if len(path) == 1 {
		return nil
	}
	var out []le
	holds := func(c ast.Expr) {
		for _, cj := range analysisutil.Split(c, token.LAND) {
			if s, b, ok := sides(cj); ok {
				out = append(out, le{s, b})
			}
		}
	}
	fails := func(c ast.Expr) {
		for _, dj := range analysisutil.Split(c, token.LOR) {
			if s, b, ok := sides(dj); ok {
				out = append(out, le{b, s}) // !(s <= b): b <= s
			}
		}
	}
	for i := 0; i+1 < len(path); i++ {
		parent, child := path[i], path[i+1]
		var list []ast.Stmt
		switch p := parent.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			out = nil
		case *ast.IfStmt:
			if child == p.Body {
				holds(p.Cond)
			} else if child == p.Else {
				fails(p.Cond)
			}
		case *ast.BlockStmt:
			_, isCase := child.(*ast.CaseClause)
			_, isComm := child.(*ast.CommClause)
			if !isCase && !isComm {
				list = p.List
			} else if isCase {
				if sw, ok := path[i-1].(*ast.SwitchStmt); ok && sw.Tag == nil {
					caseFacts(p.List, child.(*ast.CaseClause), holds, fails)
				}
			}
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		// Earlier `if c { ...; return }` in the same list: c does not hold.
		above := len(out)
		for j := len(list) - 1; j >= 0; j-- {
			if list[j] == child {
				for k := j - 1; k >= 0; k-- {
					if writes != nil && writes(list[k]) {
						out = append(out[:0:0], out[above:]...)
						break
					}
					if _, ok := list[k].(*ast.LabeledStmt); ok {
						break // a goto may land past the earlier tests
					}
					if ifs, ok := list[k].(*ast.IfStmt); ok && ifs.Else == nil && analysisutil.LeavesBlock(ifs.Body) {
						fails(ifs.Cond)
					}
				}
				break
			}
		}
	}
	return out
}

// caseFacts adds what holds in the clause cc of a tagless switch whose
// clauses are list: its own condition (when it has one alone), and the
// negation of every case tested before it (every other case, for the
// default). Nothing when a clause falls through into it.
func caseFacts(list []ast.Stmt, cc *ast.CaseClause, holds, fails func(ast.Expr)) {
	var before []*ast.CaseClause
	for i, s := range list {
		c := s.(*ast.CaseClause)
		if c == cc {
			if i > 0 {
				prev := list[i-1].(*ast.CaseClause)
				if n := len(prev.Body); n > 0 {
					if br, ok := prev.Body[n-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
						return
					}
				}
			}
			if cc.List == nil {
				for _, o := range list {
					if o != s {
						before = append(before, o.(*ast.CaseClause))
					}
				}
			}
			break
		}
		if c.List != nil {
			before = append(before, c)
		}
	}
	if len(cc.List) == 1 {
		holds(cc.List[0])
	}
	for _, c := range before {
		for _, e := range c.List {
			fails(e)
		}
	}
}

// scaledOf reports whether e is v, or v times, or shifted by, a constant
// (d, d*2, 2*d, d<<1).
func scaledOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	if info.Uses[identOf(e)] == v {
		return true
	}
	be, ok := analysisutil.Unparen(e).(*ast.BinaryExpr)
	if !ok || (be.Op != token.MUL && be.Op != token.SHL) {
		return false
	}
	if info.Uses[identOf(be.X)] == v && info.Types[be.Y].Value != nil {
		return true
	}
	return be.Op == token.MUL && info.Uses[identOf(be.Y)] == v && info.Types[be.X].Value != nil
}

// growsBelowCap reports whether the growth statement s of v runs only
// while v (or v scaled by a constant) is at most a limit that is not v:
// `if d < max { d *= 2 }`, `switch { case d*2 > max: d = max; default:
// d *= 2 }`, an earlier `if d >= max { continue }`.
func growsBelowCap(info *types.Info, s ast.Stmt, v *types.Var, fnBody *ast.BlockStmt) bool {
	writes := func(st ast.Stmt) bool { return assignedIn(info, false, st, v) }
	for _, f := range known(fnBody, s, writes) {
		if scaledOf(info, f.Small, v) && !mentionsObj(info, f.Big, v) {
			return true
		}
	}
	return leavesAboveCap(info, s, v, fnBody)
}

// exponentBounded reports whether the growth x (base << n, math.Pow(2,
// n)) runs only where its exponent n, a variable, is at most a limit
// that is not n: `if n > ceil { return max }` earlier in its block, or an
// enclosing `if n <= ceil`. Past the limit the code takes another value,
// so the growth stops there, as a capped delay does.
func exponentBounded(info *types.Info, x, exponent ast.Expr, body *ast.BlockStmt) bool {
	v, ok := info.Uses[identOf(Unconvert(info, exponent))].(*types.Var)
	if !ok || body == nil {
		return false
	}
	path := pathTo(body, x)
	var target ast.Stmt
	for i := len(path) - 1; i >= 0 && target == nil; i-- {
		target, _ = path[i].(ast.Stmt)
	}
	if target == nil {
		return false
	}
	writes := func(st ast.Stmt) bool { return assignedIn(info, false, st, v) }
	for _, f := range known(body, target, writes) {
		if info.Uses[identOf(Unconvert(info, f.Small))] == v && !mentionsObj(info, f.Big, v) {
			return true
		}
	}
	return false
}

// leavesAboveCap recognizes growth followed, in its block and before v
// is written again, by a guard that returns something else when v passed
// a limit (`d *= 2; if d > max { return max }`): past the guard v is at
// most the limit.
func leavesAboveCap(info *types.Info, s ast.Stmt, v *types.Var, fnBody *ast.BlockStmt) bool {
	path := pathTo(fnBody, s)
	if len(path) == 0 {
		return false
	}
	block, ok := path[len(path)-1].(*ast.BlockStmt)
	if !ok {
		return false
	}
	i := slices.Index(block.List, s)
	if i < 0 {
		return false
	}
	for _, st := range block.List[i+1:] {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && len(ifs.Body.List) > 0 {
			above := false
			for _, dj := range analysisutil.Split(ifs.Cond, token.LOR) {
				if small, big, ok := sides(dj); ok && scaledOf(info, big, v) && !mentionsObj(info, small, v) {
					above = true
				}
			}
			// The guard returns something else than v (the limit):
			// a break would leave with v above it.
			if ret, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); ok && above && len(ret.Results) > 0 {
				if !slices.ContainsFunc(ret.Results, func(e ast.Expr) bool { return mentionsObj(info, e, v) }) {
					return true
				}
			}
		}
		if assignedIn(info, false, st, v) {
			return false
		}
	}
	return false
}

// isCapAssign recognizes `if d > max { d = max }`: s gives v a value that
// is not v's, directly in the body of an if or a tagless switch case
// that runs whenever v is above a limit: the condition is such a test or
// has one as a disjunct (`d > max || d <= 0`). A case runs so only when
// the cases tested before it do not, or each of them also gives v a
// value that is not v's.
func isCapAssign(info *types.Info, s *ast.AssignStmt, v *types.Var, fnBody *ast.BlockStmt) bool {
	if mentionsObj(info, s.Rhs[0], v) {
		return false
	}
	path := pathTo(fnBody, s)
	if len(path) < 2 {
		return false
	}
	above := func(conds ...ast.Expr) bool {
		for _, c := range conds {
			for _, dj := range analysisutil.Split(c, token.LOR) {
				if small, big, ok := sides(dj); ok && scaledOf(info, big, v) && !mentionsObj(info, small, v) {
					return true
				}
			}
		}
		return false
	}
	switch p := path[len(path)-1].(type) {
	case *ast.BlockStmt:
		ifs, ok := path[len(path)-2].(*ast.IfStmt)
		if !ok || ifs.Body != p {
			return false
		}
		if above(ifs.Cond) {
			return true
		}
		// if u >= max { d = max } else { d = time.Duration(u) }: d is
		// the smaller of the two.
		u := elseValue(info, ifs, v)
		if u == nil {
			return false
		}
		for _, dj := range analysisutil.Split(ifs.Cond, token.LOR) {
			if small, big, ok := sides(dj); ok && scaledOf(info, big, u) && !mentionsObj(info, small, u) {
				return true
			}
		}
		return false
	case *ast.CaseClause:
		if len(path) < 3 || !above(p.List...) {
			return false
		}
		sw, ok := path[len(path)-3].(*ast.SwitchStmt)
		if !ok || sw.Tag != nil {
			return false
		}
		for _, st := range sw.Body.List {
			c := st.(*ast.CaseClause)
			if c == p {
				return true
			}
			if c.List != nil && !resets(info, c.Body, v) {
				return false
			}
		}
	}
	return false
}

// resets reports whether list gives v, directly, a value that is not v's.
// elseValue returns, for an if whose else branch is the one statement
// `v = e`, the local variable e is made of, as it is or converted
// (`time.Duration(backoff)`); nil otherwise.
func elseValue(info *types.Info, ifs *ast.IfStmt, v *types.Var) *types.Var {
	els, ok := ifs.Else.(*ast.BlockStmt)
	if !ok || len(els.List) != 1 {
		return nil
	}
	as, ok := els.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || info.Uses[identOf(as.Lhs[0])] != v {
		return nil
	}
	id := identOf(Unconvert(info, as.Rhs[0]))
	if id == nil {
		return nil
	}
	u, ok := info.Uses[id].(*types.Var)
	if !ok || u == v || !provenance.IsLocal(u) {
		return nil
	}
	return u
}

func resets(info *types.Info, list []ast.Stmt, v *types.Var) bool {
	for _, st := range list {
		if a, ok := st.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && len(a.Lhs) == 1 && len(a.Rhs) == 1 &&
			info.Uses[identOf(a.Lhs[0])] == v && !mentionsObj(info, a.Rhs[0], v) {
			return true
		}
	}
	return false
}

// findCapFuncs marks the package's functions that cap an input and
// exports their CapFact. Rounds as for WaitFact: a helper that returns
// another's cap of its parameter inherits it.
func (m *Result) findCapFuncs() {
	for round := 0; round < maxFactRounds; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if m.capFuncs[fn] != nil || d.Body == nil {
				continue
			}
			if f := m.capOf(fn, d.Body); f != nil {
				m.capFuncs[fn] = f
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn, f := range m.capFuncs {
		m.pass.ExportObjectFact(fn, f)
	}
}

// capOf returns the CapFact of fn, nil if it caps nothing. A bound is a
// parameter that is never assigned, or "a constant"; every return gives
// one value, and that value is a constant, the bound parameter, a min
// (builtin, math.Min, a function with a CapFact) of which an argument is
// the bound, or a parameter never assigned that a comparison with the
// bound keeps at most the bound where it is returned. At least one
// return must be of the last two kinds: the function caps an input.
func (m *Result) capOf(fn *types.Func, body *ast.BlockStmt) *CapFact {
	info := m.pass.TypesInfo
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 || sig.Params().Len() == 0 {
		return nil
	}
	var rets []*ast.ReturnStmt
	bad := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(r.Results) != 1 {
				bad = true
			}
			rets = append(rets, r)
		}
		return !bad
	})
	if bad || len(rets) == 0 {
		return nil
	}
	stable := map[*types.Var]bool{}
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); !assignedIn(info, m.vals.Assigns[p] != nil, body, p) {
			stable[p] = true
		}
	}
	facts := map[*ast.ReturnStmt][]le{}
	for _, r := range rets {
		facts[r] = known(body, r, nil)
	}
	// isBound: e is the bound (a constant when bound is nil).
	isBound := func(e ast.Expr, bound *types.Var) bool {
		if bound == nil {
			return info.Types[e].Value != nil
		}
		return info.Uses[identOf(e)] == bound
	}
	capsBy := func(bound *types.Var) bool {
		capped := false
		for _, r := range rets {
			e := analysisutil.Unparen(r.Results[0])
			switch {
			case info.Types[e].Value != nil, bound != nil && isBound(e, bound):
				continue
			}
			if c, ok := e.(*ast.CallExpr); ok {
				if m.minArgs(c, func(a ast.Expr) bool { return isBound(a, bound) }) {
					capped = true
					continue
				}
				return false
			}
			p, ok := info.Uses[identOf(e)].(*types.Var)
			if !ok || !stable[p] {
				return false
			}
			held := false
			for _, f := range facts[r] {
				if info.Uses[identOf(f.Small)] == p && isBound(f.Big, bound) {
					held = true
				}
			}
			if !held {
				return false
			}
			capped = true
		}
		return capped
	}
	f := &CapFact{Const: capsBy(nil)}
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); stable[p] && capsBy(p) {
			f.Params = append(f.Params, i)
		}
	}
	if !f.Const && len(f.Params) == 0 {
		return nil
	}
	return f
}

// assignedIn reports whether p is given a value in body (assigned: it
// is known to be already).
func assignedIn(info *types.Info, assigned bool, body ast.Node, p *types.Var) bool {
	return assigned || analysisutil.AssignedIn(info, body, p)
}

// minArgs reports whether call is a min (the builtin, math.Min, a
// function with a CapFact) whose result is at most an argument for
// which bound holds.
func (m *Result) minArgs(call *ast.CallExpr, bound func(ast.Expr) bool) bool {
	info := m.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
		if _, isB := info.Uses[id].(*types.Builtin); !ok || !isB || id.Name != "min" {
			return false
		}
	} else if !analysisutil.IsFunc(fn, "math", "Min") {
		f := m.capFact(fn)
		if f == nil {
			return false
		}
		if f.Const {
			return true
		}
		for _, i := range f.Params {
			if i < len(call.Args) && bound(call.Args[i]) {
				return true
			}
		}
		return false
	}
	for _, a := range call.Args {
		if bound(a) {
			return true
		}
	}
	return false
}

// capFact returns fn's CapFact: this package's, or another's.
func (m *Result) capFact(fn *types.Func) *CapFact {
	if f := m.capFuncs[fn]; f != nil {
		return f
	}
	if fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg {
		return nil
	}
	var f CapFact
	if m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// isCapCall reports whether call, of a function with a CapFact, caps a
// growing delay: an argument grows exponentially and the result is at
// most a constant, or an argument (at a bound parameter) that does not.
func (m *Result) isCapCall(call *ast.CallExpr, fn *types.Func, fnBody *ast.BlockStmt, o shapeOpts) bool {
	f := m.capFact(fn)
	if f == nil || o.level >= 2 {
		return false
	}
	growing := make([]bool, len(call.Args))
	grows := false
	for i, a := range call.Args {
		growing[i] = m.shape(a, fnBody, shapeOpts{level: o.level + 1, counters: o.counters}).Exponential
		grows = grows || growing[i]
	}
	if !grows {
		return false
	}
	if f.Const {
		return true
	}
	for _, i := range f.Params {
		if i < len(call.Args) && !growing[i] {
			return true
		}
	}
	return false
}

// cappedReturn reports whether the return r of a delay helper's body
// gives a local variable that a comparison on the way keeps at most
// something else, and that nothing assigns after it: `if d > b.max {
// return b.max }; return d`.
func cappedReturn(info *types.Info, body *ast.BlockStmt, r *ast.ReturnStmt) bool {
	v, ok := info.Uses[identOf(r.Results[0])].(*types.Var)
	if !ok || !provenance.IsLocal(v) {
		return false
	}
	writes := func(st ast.Stmt) bool { return analysisutil.AssignedIn(info, st, v) }
	for _, f := range known(body, r, writes) {
		if info.Uses[identOf(f.Small)] == v && !mentionsObj(info, f.Big, v) {
			return true
		}
	}
	return false
}
