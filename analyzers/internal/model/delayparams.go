package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// DelayParamFact is exported for a function whose retry waits, between
// its attempts, a duration its caller gives, as given:
//
//	func publish(ctx context.Context, m *Msg, wait time.Duration, n int) error {
//		for r := 0; errors.Is(err, ErrNoResponders) && r < n; r++ {
//			select { case <-ctx.Done(): ...; case <-time.After(wait): }
//			...
//
// What the delay is — fixed, random — is only known at the call, in this
// package or another: the argument is the delay. A function that passes
// its own parameter on to such a call, unchanged, has the fact too.
type DelayParamFact struct {
	Param int    // the parameter waited
	Site  string // the retry: "retry loop at publish.go:281"
	// What the model knows of that retry, for the checks to judge the
	// delay at the call as they would judge it in the retry: every
	// attempt stays on this host; every path that goes round after a
	// failure knows a client error, or a failure of the request's own
	// state (Retry.ClientErrors, Retry.Specific); every attempt is a
	// probe (Retry.Probe).
	Local, ClientErrors, Specific, Probe bool
	// Grows: the retry waits the parameter grown with its attempts by a
	// factor of no random part (`base << attempt`, `base * (1 << n)`), not
	// the parameter itself: at the call, a delay of no random part is
	// still one.
	Grows bool
	// Next, when set, is the catalog row (path, receiver type, method)
	// of a backoff value's next wait (jitter/backoff's Duration): the
	// parameter is that backoff value, not a duration, and its jitter
	// is read where the caller makes it.
	Next [3]string
	// Made: the retry is in the function value the function returns
	// (`return func(ctx context.Context, ...) error { for ... {
	// time.Sleep(wait) } }`), waiting the parameter it captured.
	Made bool
}

func (*DelayParamFact) AFact() {}

func (f *DelayParamFact) String() string {
	if f.Grows {
		return fmt.Sprintf("waitsparam(%d grown)", f.Param)
	}
	if f.Next[2] != "" {
		return fmt.Sprintf("waitsparam(%d.%s)", f.Param, f.Next[2])
	}
	return fmt.Sprintf("waitsparam(%d)", f.Param)
}

// DelayArg is a call, in this package, of a function with a
// DelayParamFact, whose argument for the delay is not a parameter of the
// calling function: where the delay of that retry is known.
type DelayArg struct {
	Call   *ast.CallExpr
	Callee *types.Func
	Arg    ast.Expr
	Shape  waits.DelayShape
	Fact   *DelayParamFact
	// OpLocal, for a call of a retry helper (RetryHelperFact): every
	// attempt of the operation given here stays on this host
	// (`retry(10, 50*time.Millisecond, func() error { return
	// os.Rename(tmp, dst) })`).
	OpLocal bool
}

// delayParamOf returns the fact of fn, of this package or imported.
func (m *builder) delayParamOf(fn *types.Func, own map[*types.Func]*DelayParamFact) *DelayParamFact {
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return own[fn]
	}
	var f DelayParamFact
	if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// findDelayParams exports DelayParamFact for the package's functions
// whose retry waits a parameter, and for those that pass theirs on to
// one, and lists the calls where the delay is known (Result.DelayArgs).
func (m *builder) findDelayParams() {
	info := m.pass.TypesInfo
	local := m.pass.ResultOf[hostlocal.Analyzer].(*hostlocal.Result)
	own := map[*types.Func]*DelayParamFact{}
	memo := map[*types.Var]bool{}
	var order []*types.Func
	for _, r := range m.result.Retries {
		if r.Implements != nil || r.Kind != LoopRetry && r.Kind != GotoRetry {
			continue
		}
		fn, d := m.declAt(r.Pos)
		if d == nil || own[fn] != nil {
			continue
		}
		made := false
		if m.inFuncLit(d.Body, r.Node) {
			// A retry in the closure the function returns (an
			// interceptor made to order) waits what the maker was
			// given: its call gives the delay.
			if !returnedLit(d, r.Node) {
				continue
			}
			made = true
		}
		for _, dl := range r.Delays {
			if dl.Own {
				continue
			}
			if h := analysisutil.Callee(info, dl.Call); h != nil && m.waitLayer.WaitJitters(h.Origin()) {
				continue // the helper adds to what it is given, or computes its own wait
			}
			i, grows := paramIndexOf(info, fn, d.Body, dl.Dur, memo), false
			if i < 0 {
				i = grownParamOf(info, fn, d.Body, dl.Dur, memo)
				if i < 0 {
					i = grownInPlace(info, fn, d.Body, dl.Dur)
				}
				grows = i >= 0
			}
			var next [3]string
			if i < 0 && dl.Shape.Next != nil && dl.Shape.Jitter == waits.JitterUnknown {
				// b.Duration() of a backoff the caller gives.
				if i = paramIndexOf(info, fn, d.Body, dl.Shape.NextRecv, memo); i >= 0 {
					next = [3]string{dl.Shape.Next.Path, dl.Shape.Next.Recv, dl.Shape.Next.Name}
				}
			}
			if i >= 0 {
				own[fn] = &DelayParamFact{Param: i, Grows: grows, Next: next, Made: made,
					Site:  fmt.Sprintf("%s at %s", r.Describe(), analysisutil.ShortPos(m.pass.Fset, r.Pos)),
					Local: local.Within(r.Ops, r.OpFuncs), ClientErrors: r.ClientErrors, Specific: r.Specific, Probe: r.Probe}
				order = append(order, fn)
				break
			}
		}
	}
	// The calls of functions with the fact, by caller: a parameter passed
	// on gives the caller the fact; any other argument is a delay known.
	type call struct {
		call   *ast.CallExpr
		callee *types.Func
		caller *types.Func
		decl   *ast.FuncDecl
	}
	var calls []call
	byCallee := map[*types.Func][]int{}
	for _, f := range m.pass.Files {
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Body == nil {
				continue
			}
			caller, _ := info.Defs[d.Name].(*types.Func)
			ast.Inspect(d.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if fn := analysisutil.Callee(info, c); fn != nil {
					fn = fn.Origin()
					byCallee[fn] = append(byCallee[fn], len(calls))
					calls = append(calls, call{c, fn, caller, d})
				}
				return true
			})
		}
	}
	// Imported functions with the fact, in the order of their first call
	// (source order: the facts this package derives do not depend on a
	// map's order).
	for i, c := range calls {
		if c.callee.Pkg() != m.pass.Pkg && byCallee[c.callee][0] == i {
			if f := m.delayParamOf(c.callee, own); f != nil {
				order = append(order, c.callee)
			}
		}
	}
	// Pass the fact up through parameters passed on, each function once.
	facts := map[*types.Func]*DelayParamFact{}
	for len(order) > 0 {
		fn := order[0]
		order = order[1:]
		f := m.delayParamOf(fn, own)
		if f == nil || facts[fn] != nil {
			continue
		}
		facts[fn] = f
		for _, i := range byCallee[fn] {
			c := calls[i]
			if c.caller == nil || f.Param >= len(c.call.Args) || own[c.caller] != nil {
				continue
			}
			if j := paramIndexOf(info, c.caller, c.decl.Body, c.call.Args[f.Param], memo); j >= 0 {
				g := *f
				g.Param = j
				own[c.caller] = &g
				order = append(order, c.caller)
			}
		}
	}
	for fn, f := range own {
		m.pass.ExportObjectFact(fn, f)
	}
	for _, c := range calls {
		f := facts[c.callee]
		if f == nil || f.Param >= len(c.call.Args) || isVariadicArg(c.callee, f.Param) {
			continue
		}
		arg := c.call.Args[f.Param]
		if c.caller != nil && paramIndexOf(info, c.caller, c.decl.Body, arg, memo) >= 0 {
			continue // passed on: judged at the caller's calls
		}
		opLocal := false
		if m.helperOf(c.callee) != nil {
			// A retry helper given its operation here: the call is a
			// retry site unless it makes one attempt (Do(1, d, f)),
			// when the delay is never waited.
			r := m.retryAt[c.call]
			if r == nil {
				continue
			}
			opLocal = local.Within(r.Ops, r.OpFuncs)
		}
		shape := m.waitLayer.Shape(arg, c.decl.Body)
		if f.Next[2] != "" {
			row := catalog.Lookup(f.Next[0], f.Next[1], f.Next[2])
			if row == nil {
				continue
			}
			shape = m.waitLayer.BackoffShape(row, arg)
		}
		m.result.DelayArgs = append(m.result.DelayArgs, &DelayArg{Call: c.call, Callee: c.callee, Arg: arg,
			Shape: shape, Fact: f, OpLocal: opLocal})
	}
}

// declAt returns the function declaration of the package that holds pos.
func (m *builder) declAt(pos token.Pos) (*types.Func, *ast.FuncDecl) {
	for _, f := range m.pass.Files {
		if pos < f.Pos() || pos >= f.End() {
			continue
		}
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.FuncDecl); ok && d.Body != nil && d.Pos() <= pos && pos < d.End() {
				fn, _ := m.pass.TypesInfo.Defs[d.Name].(*types.Func)
				return fn, d
			}
		}
	}
	return nil, nil
}

// paramIndexOf returns the index of the parameter of fn that e is, when
// e is that parameter by name and body never assigns it; -1 otherwise.
// assignedMemo holds the answers for the parameters asked about already
// (each body is walked once per parameter).
func paramIndexOf(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr, assignedMemo map[*types.Var]bool) int {
	i := analysisutil.ParamIndex(info, fn, e)
	if i < 0 {
		return -1
	}
	v := fn.Type().(*types.Signature).Params().At(i)
	a, ok := assignedMemo[v]
	if !ok {
		a = analysisutil.AssignedIn(info, body, v)
		assignedMemo[v] = a
	}
	if a {
		return -1
	}
	return i
}

// unconvertParen strips conversions and parentheses from e.
func unconvertParen(info *types.Info, e ast.Expr) ast.Expr {
	return analysisutil.Unparen(waits.Unconvert(info, e))
}

// grownParamOf returns the index of the parameter of fn that e grows
// with the attempts by a factor of no random part — `p << n`,
// `p * (1 << n)`, `p * time.Duration(math.Pow(2, float64(n)))`, with
// conversions around p — where the factor is built only of constants
// and counters the function advances (`n++`, the key of a range over an
// integer); -1 otherwise, and for a constant factor (`p * 2` is a fixed
// delay, which only a parameter passed as is carries).
func grownParamOf(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr, memo map[*types.Var]bool) int {
	b, ok := analysisutil.Unparen(unconvertParen(info, e)).(*ast.BinaryExpr)
	if !ok || info.Types[b].Value != nil {
		return -1
	}
	var pairs [][2]ast.Expr
	switch b.Op {
	case token.SHL:
		pairs = [][2]ast.Expr{{b.X, b.Y}}
	case token.MUL:
		pairs = [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}}
	default:
		return -1
	}
	for _, pair := range pairs {
		i := paramIndexOf(info, fn, body, unconvertParen(info, pair[0]), memo)
		if i >= 0 && info.Types[pair[1]].Value == nil && counterFactor(info, fn, body, pair[1]) {
			return i
		}
	}
	return -1
}

// grownInPlace returns the index of the parameter of fn that e is, when
// body writes it only to grow it by a constant factor (`p *= 2`, `p <<=
// 1`, `p = p * 3 / 2`, `p = time.Duration(float64(p) * 1.5)`) or to cap it
// at another parameter body does not write (`p = max`), at least once to
// grow it, and never takes its address: the retry waits its caller's
// delay grown with the attempts. -1 otherwise, and for a cap at a
// constant: the retry then waits a delay of its own, judged in it.
func grownInPlace(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr) int {
	i := analysisutil.ParamIndex(info, fn, e)
	if i < 0 {
		return -1
	}
	params := fn.Type().(*types.Signature).Params()
	p := params.At(i)
	isP := func(x ast.Expr) bool {
		id, ok := unconvertParen(info, x).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	isConst := func(x ast.Expr) bool { return info.Types[x].Value != nil }
	// above reports whether x is a constant greater than min: a factor
	// that grows (> 1), a shift that does (> 0).
	above := func(x ast.Expr, min int64) bool {
		v := info.Types[x].Value
		if v == nil || v.Kind() != constant.Int && v.Kind() != constant.Float {
			return false
		}
		return constant.Compare(v, token.GTR, constant.MakeInt64(min))
	}
	// grownBy reports whether x is p times constants: p * c, c * p,
	// p << c, p * c / c, conversions around either.
	var grownBy func(x ast.Expr) bool
	grownBy = func(x ast.Expr) bool {
		b, ok := unconvertParen(info, x).(*ast.BinaryExpr)
		if !ok {
			return false
		}
		switch b.Op {
		case token.MUL:
			return (isP(b.X) || grownBy(b.X)) && isConst(b.Y) || isConst(b.X) && (isP(b.Y) || grownBy(b.Y))
		case token.SHL:
			return isP(b.X) && above(b.Y, 0)
		case token.QUO:
			return grownBy(b.X) && isConst(b.Y)
		}
		return false
	}
	capValue := func(x ast.Expr) bool {
		// A constant cap is a delay of the retry's own, judged there.
		j := analysisutil.ParamIndex(info, fn, x)
		return j >= 0 && j != i && !analysisutil.AssignedIn(info, body, params.At(j))
	}
	grows, ok := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for k, l := range x.Lhs {
				if !isP(l) {
					continue
				}
				switch {
				case len(x.Lhs) != len(x.Rhs):
					ok = false
				case x.Tok == token.MUL_ASSIGN && above(x.Rhs[k], 1), x.Tok == token.SHL_ASSIGN && above(x.Rhs[k], 0):
					grows = true
				case x.Tok == token.ASSIGN && grownBy(x.Rhs[k]) && factorAbove1(info, x.Rhs[k]):
					grows = true
				case x.Tok == token.ASSIGN && capValue(x.Rhs[k]):
				default:
					ok = false
				}
			}
		case *ast.IncDecStmt:
			ok = ok && !isP(x.X)
		case *ast.UnaryExpr:
			ok = ok && !(x.Op == token.AND && isP(x.X))
		}
		return true
	})
	if !ok || !grows {
		return -1
	}
	return i
}

// factorAbove1 reports whether e, the parameter times constants
// (grownInPlace), grows it: the product of its constant factors, over
// its constant divisors, evaluated with the parameter taken as 1, is over
// 1 (`p * 3 / 2`, not `p / 2 * 1`).
func factorAbove1(info *types.Info, e ast.Expr) bool {
	var eval func(x ast.Expr) constant.Value
	eval = func(x ast.Expr) constant.Value {
		x = unconvertParen(info, x)
		if v := info.Types[x].Value; v != nil {
			return constant.ToFloat(v)
		}
		switch b := x.(type) {
		case *ast.Ident:
			return constant.MakeFloat64(1) // the parameter
		case *ast.BinaryExpr:
			l, r := eval(b.X), eval(b.Y)
			if l == nil || r == nil {
				return nil
			}
			switch b.Op {
			case token.MUL:
				return constant.BinaryOp(l, token.MUL, r)
			case token.QUO:
				if constant.Sign(r) == 0 {
					return nil
				}
				return constant.BinaryOp(l, token.QUO, r)
			case token.SHL:
				n, ok := constant.Int64Val(constant.ToInt(r))
				if !ok || n < 0 || n > 62 {
					return nil
				}
				return constant.BinaryOp(l, token.MUL, constant.MakeInt64(1<<n))
			}
		}
		return nil
	}
	v := eval(e)
	return v != nil && constant.Compare(v, token.GTR, constant.MakeFloat64(1))
}

// counterFactor reports whether e is built only of constants, operators,
// conversions, math.Pow, and local variables that body advances as
// counters: nothing that could be a random draw.
func counterFactor(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr) bool {
	ok := true
	var vars []*types.Var
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		switch x := n.(type) {
		case *ast.BasicLit, *ast.BinaryExpr, *ast.UnaryExpr, *ast.ParenExpr:
		case *ast.CallExpr:
			if tv, isT := info.Types[x.Fun]; isT && tv.IsType() {
				return true
			}
			if !analysisutil.IsFunc(analysisutil.Callee(info, x), "math", "Pow") {
				ok = false
			}
		case *ast.SelectorExpr:
			// math.Pow, time.Second: a package's name and its member.
			if _, isPkg := info.Uses[identOf(x.X)].(*types.PkgName); !isPkg {
				ok = false
			}
			return false
		case *ast.Ident:
			switch o := info.Uses[x].(type) {
			case *types.Const, *types.TypeName, *types.Builtin, *types.PkgName:
			case *types.Var:
				if o.Parent() == nil || o.Parent() == types.Universe || o.Pkg() == nil || o.Parent() == o.Pkg().Scope() || analysisutil.ParamIndex(info, fn, x) >= 0 {
					ok = false // a package variable, a field, a parameter
				} else {
					vars = append(vars, o)
				}
			default:
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	if !ok {
		return false
	}
	for _, v := range vars {
		if !advanced(info, body, v) {
			return false
		}
	}
	return true
}

// advanced reports whether body advances v as a counter: v++, v--,
// v += n, or v is the key of a range over an integer.
func advanced(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if e := steppedBy(n); e != nil {
			found = info.Uses[identOf(e)] == v
			return !found
		}
		switch x := n.(type) {
		case *ast.RangeStmt:
			if x.Key != nil && info.Defs[identOf(x.Key)] == v {
				if b, ok := info.TypeOf(x.X).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func isVariadicArg(fn *types.Func, i int) bool {
	sig := fn.Type().(*types.Signature)
	return sig.Variadic() && i >= sig.Params().Len()-1
}

// returnedLit reports whether n lies in a function literal that d returns
// as it is (`return func(...) {...}`), and in no literal nested in it.
func returnedLit(d *ast.FuncDecl, n ast.Node) bool {
	found := false
	ast.Inspect(d.Body, func(x ast.Node) bool {
		switch r := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, e := range r.Results {
				lit, ok := analysisutil.Unparen(e).(*ast.FuncLit)
				if ok && lit.Body.Pos() <= n.Pos() && n.End() <= lit.Body.End() {
					nested := false
					ast.Inspect(lit.Body, func(y ast.Node) bool {
						if inner, ok := y.(*ast.FuncLit); ok && inner.Pos() <= n.Pos() && n.End() <= inner.End() {
							nested = true
						}
						return !nested
					})
					found = !nested
				}
			}
		}
		return !found
	})
	return found
}
