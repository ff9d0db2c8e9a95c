package waits

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Shape classifies a duration expression, following the local variables
// it is made of (every assignment in the function, so `delay *= 2` is
// seen) and the helpers of this package it calls.
func (m *Result) Shape(dur ast.Expr, fnBody *ast.BlockStmt) DelayShape {
	return m.shape(dur, fnBody, shapeOpts{})
}

// ShapeCounting is Shape for a delay computed from parameters that count
// the attempts of a recursive retry (`time.Duration(attempt) *
// time.Second` in a function that calls itself with attempt+1): they are
// counters stepped by the retry, not values the caller chooses, so they
// hide no random part.
func (m *Result) ShapeCounting(dur ast.Expr, fnBody *ast.BlockStmt, counters map[types.Object]bool) DelayShape {
	return m.shape(dur, fnBody, shapeOpts{counters: counters})
}

// shapeOpts: level counts the shapes asked for the arguments of a
// capping call (isCapCall), which stop at 2; counters are the
// parameters that count attempts (ShapeCounting).
type shapeOpts struct {
	level    int
	counters map[types.Object]bool
	// of, when set, asks the shape of the returns of a function of
	// the package (its parameters the caller's values) instead of dur's
	// (delayShapeOf).
	of *ast.FuncDecl
}

// shape is Shape.
func (m *Result) shape(dur ast.Expr, fnBody *ast.BlockStmt, o shapeOpts) DelayShape {
	info := m.pass.TypesInfo
	var sh DelayShape
	random, fixed := false, false
	libUnknown := false // a backoff value's next wait, its jitter not known
	unfollowed := false // a helper's return that lists no delay (a bare return)
	seen := map[ast.Node]bool{}
	var exprs []ast.Expr
	var helpers []*ast.FuncDecl // helpers whose returns were followed
	var lits []*ast.FuncLit     // function literals whose returns were followed
	var visitExpr func(e ast.Expr, depth int)
	// returns follows the returns of a function into the delay: if d >
	// b.max { return b.max }; return d: every return of a local is past
	// such a guard.
	returns := func(body *ast.BlockStmt, depth int) {
		capped, uncapped := false, false
		hooks := m.hookReturns(body)
		ast.Inspect(body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 && !hooks[r] {
				if cappedReturn(info, body, r) {
					capped = true
				} else if v, ok := info.Uses[identOf(r.Results[0])].(*types.Var); ok && provenance.IsLocal(v) {
					uncapped = true
				}
				visitExpr(r.Results[0], depth+1)
			}
			return true
		})
		if capped && !uncapped {
			sh.Capped = true
		}
	}
	visitExpr = func(e ast.Expr, depth int) {
		if e == nil || seen[e] || depth > 8 {
			return
		}
		seen[e] = true
		exprs = append(exprs, e)
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.SelectorExpr:
				if m.configuredField(x) {
					return false // c.Config().Wait: the getter's struct is no delay
				}
			case *ast.Ident:
				if v, ok := info.Uses[x].(*types.Var); ok && provenance.IsLocal(v) {
					for _, a := range m.vals.Assigns[v] {
						if a.Value != nil {
							visitExpr(a.Value, depth+1)
						} else if a.Tuple != nil {
							// retry, wait := c.shouldRetry(resp, err): the
							// helper's returns of that result.
							for _, f := range m.resultBodies(a.Tuple, a.Result) {
								if d, ok := f.(*ast.FuncDecl); ok {
									helpers = append(helpers, d)
								} else {
									lits = append(lits, f.(*ast.FuncLit))
								}
								resultsOf(funcBody(f), a.Result, func(e ast.Expr) { visitExpr(e, depth+1) })
							}
						}
					}
					if sched := m.scheduleOf(v); sched != nil {
						visitExpr(sched, depth+1) // for _, d := range schedule
					}
					// x op= y, x++ anywhere in the function declaring x
					// (a helper whose returns were followed, or this one).
					body := fnBody
					for _, h := range helpers {
						if h.Body.Pos() <= v.Pos() && v.Pos() < h.Body.End() {
							body = h.Body
						}
					}
					ast.Inspect(body, func(n ast.Node) bool {
						switch s := n.(type) {
						case *ast.AssignStmt:
							if s.Tok != token.ASSIGN && s.Tok != token.DEFINE && len(s.Lhs) == 1 && info.Uses[identOf(s.Lhs[0])] == v {
								grows := s.Tok == token.MUL_ASSIGN || s.Tok == token.SHL_ASSIGN ||
									s.Tok == token.ADD_ASSIGN && mentionsObj(info, s.Rhs[0], v) // d += d
								if grows {
									sh.Exponential = true
									if growsBelowCap(info, s, v, body) {
										sh.Capped = true // if d < max { d *= 2 }
									}
								}
								visitExpr(s.Rhs[0], depth+1)
							}
							if s.Tok == token.ASSIGN && len(s.Lhs) == 1 && len(s.Rhs) == 1 && info.Uses[identOf(s.Lhs[0])] == v {
								if isCapAssign(info, s, v, body) || (mentionsObj(info, s.Rhs[0], v) && growsBelowCap(info, s, v, body)) {
									sh.Capped = true // if d > max { d = max }; if d < max { d = d * 2 }
								}
							}
						}
						return true
					})
				}
			case *ast.CallExpr:
				if row, _ := m.nextDelay(x); row != nil {
					// b.Duration(): its receiver is the backoff value,
					// no delay of its own (libJitter reads it).
					return false
				}
				if fn := analysisutil.Callee(info, x); fn != nil {
					if d := m.vals.Decls[fn]; d != nil {
						helpers = append(helpers, d)
						if fn.Signature().Results().Len() > 1 {
							// delay, again := r.Retry(code, err): the first
							// result of every return.
							if !resultsOf(d.Body, 0, func(e ast.Expr) { visitExpr(e, depth+1) }) {
								unfollowed = true
							}
						} else {
							returns(d.Body, depth)
						}
					} else if f := m.delayFact(fn); f != nil {
						// steps.Doubling(n): another package's function
						// of its inputs (its DelayFact); the arguments
						// give the values.
						sh.Exponential = sh.Exponential || f.Exponential
						sh.Capped = sh.Capped || f.Capped
					}
				} else if funcs, ok := m.defaultFuncs(x.Fun, 0); ok {
					// pause(i), pause the caller's function or, when it
					// set none, the package's default: the default's
					// shape, what a caller who sets nothing gets.
					for _, f := range funcs {
						switch {
						case f.lit != nil:
							lits = append(lits, f.lit)
							if maker := m.maker(f); maker != nil {
								// The maker's parameters the literal
								// reads are given by the call's
								// arguments; its locals' writes are
								// the literal's own to follow.
								helpers = append(helpers, maker)
								for _, a := range f.made.Args {
									visitExpr(a, depth+1)
								}
							}
							returns(f.lit.Body, depth)
						case m.vals.Decls[f.fn] != nil:
							helpers = append(helpers, m.vals.Decls[f.fn])
							returns(m.vals.Decls[f.fn].Body, depth)
						case m.isRandomFunc(f.fn):
							random = true
						default:
							if df := m.delayFact(f.fn); df != nil {
								sh.Exponential = sh.Exponential || df.Exponential
								sh.Capped = sh.Capped || df.Capped
							}
						}
					}
					for _, a := range x.Args {
						visitExpr(a, depth+1)
					}
					return false
				} else if funcs, ok := m.fieldFuncs(x.Fun); ok {
					// c.delay(n): a function field the package alone sets.
					for _, f := range funcs {
						switch f := f.(type) {
						case *ast.FuncDecl:
							helpers = append(helpers, f)
							returns(f.Body, depth)
						case *ast.FuncLit:
							lits = append(lits, f)
							returns(f.Body, depth)
						}
					}
				}
			}
			return true
		})
	}
	if o.of != nil {
		helpers = append(helpers, o.of)
		returns(o.of.Body, 0)
	} else {
		visitExpr(dur, 0)
	}

	// A random draw that is not added to a fixed part is full jitter: when
	// the delay has such an alternative (a jitter mode switch), it is not
	// judged equal jitter.
	fullAlt := false
	for _, e := range exprs {
		ast.PreorderStack(e, nil, func(n ast.Node, stack []ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := analysisutil.Callee(info, c)
			if fn == nil || !(m.IsRandomCall(c, fn) || analysisutil.IsFunc(fn, catalog.ResilintRetry, "FullJitter")) {
				return true
			}
			underAdd := false
			for _, a := range stack {
				if b, ok := a.(*ast.BinaryExpr); ok && b.Op == token.ADD {
					underAdd = true
				}
			}
			if !underAdd {
				fullAlt = true
			}
			return true
		})
	}
	// bodyOf is the body of the helper or function literal whose returns
	// were followed where an expression of exprs was found; nil in fnBody,
	// where a guard on the exponent that returns leaves the retry rather
	// than giving the delay another value.
	bodyOf := func(e ast.Expr) *ast.BlockStmt {
		for _, h := range helpers {
			if h.Body.Pos() <= e.Pos() && e.End() <= h.Body.End() {
				return h.Body
			}
		}
		for _, l := range lits {
			if l.Body.Pos() <= e.Pos() && e.End() <= l.Body.End() {
				return l.Body
			}
		}
		return nil
	}
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				switch x.Op {
				case token.SHL:
					if info.Types[x].Value == nil {
						sh.Exponential = true
						if exponentBounded(info, x, x.Y, bodyOf(x)) {
							sh.Capped = true // if n > ceil { return max }; base << n
						}
					}
				case token.MUL:
					if isDoubling(info, x, m.vals) {
						sh.Exponential = true
					}
				case token.ADD:
					// A fixed part plus a random part drawn up to the
					// same value: equal jitter (d/2 + rand(d/2)). A
					// random part of another size beside a fixed one
					// (a constant base and a random spread, a factor
					// in [0.8, 1.3), rand(5s) + n*time.Second) is
					// jitter of its own making, not judged.
					l, r := m.isRandom(x.X), m.isRandom(x.Y)
					if l != r {
						f, rnd := x.X, x.Y
						if l {
							f, rnd = x.Y, x.X
						}
						if m.sameBase(f, rnd) {
							fixed = true
						}
					}
				}
			case *ast.CallExpr:
				if row, recv := m.nextDelay(x); row != nil {
					// b.Duration(): the catalog gives the shape, the
					// value's jitter field the randomness.
					sh.Next, sh.NextRecv = row, recv
					sh.Exponential = sh.Exponential || row.Grows
					sh.Capped = sh.Capped || row.Capped
					switch j, lib := m.libJitter(row, recv); j {
					case JitterFull:
						random = true
					case JitterNone:
						if lib != nil {
							lib.Call = x
						}
						sh.Lib = lib
					default:
						libUnknown = true
					}
					return false
				}
				fn := analysisutil.Callee(info, x)
				if fn == nil {
					if id, ok := analysisutil.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "min" {
						if _, isB := info.Uses[id].(*types.Builtin); isB {
							sh.Capped = true
						}
					}
					return true
				}
				switch {
				case analysisutil.IsFunc(fn, "math", "Pow"):
					sh.Exponential = true
					if len(x.Args) == 2 && exponentBounded(info, x, x.Args[1], bodyOf(x)) {
						sh.Capped = true
					}
				case analysisutil.IsFunc(fn, "math", "Min"):
					sh.Capped = true
				case analysisutil.IsFunc(fn, catalog.ResilintRetry, "Backoff"):
					sh.Exponential, sh.Capped = true, true
				case analysisutil.IsFunc(fn, catalog.ResilintRetry, "EqualJitter"):
					random, fixed = true, true
				case analysisutil.IsFunc(fn, catalog.ResilintRetry, "FullJitter"):
					random = true
				default:
					if m.isCapCall(x, fn, fnBody, o) {
						sh.Capped = true // d = capped(d*2, max)
					}
					if m.IsRandomCall(x, fn) {
						random = true
						if pos, ok := m.constSeeded(x); ok {
							sh.Jitter = JitterSeeded
							sh.SeedPos = pos
						}
					}
				}
			}
			return true
		})
	}
	switch {
	case sh.Jitter == JitterSeeded:
	case random && fixed && !fullAlt:
		sh.Jitter = JitterEqual
	case random:
		sh.Jitter = JitterFull
	default:
		sh.Jitter = JitterNone
		if libUnknown || unfollowed || m.opaque(exprs, helpers, lits, o.counters) || o.of != nil && m.readsState(exprs) {
			sh.Jitter = JitterUnknown
		}
	}
	return sh
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := analysisutil.Unparen(e).(*ast.Ident)
	return id
}

// MaxGrowthAttempts is the largest attempt bound under which exponential
// growth counts as capped by the bound itself: 2^6 = 64 times the first
// delay at most.
const MaxGrowthAttempts = 7

// isDoubling recognizes d * 2, 2 * d on a non-constant d, and a growth
// factor that is no integer: time.Duration(float64(d) * 1.5).
func isDoubling(info *types.Info, x *ast.BinaryExpr, vals *provenance.Values) bool {
	for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
		if tv := info.Types[pair[1]]; tv.Value != nil && growthFactor(tv.Value) {
			if info.Types[pair[0]].Value == nil {
				// d * 2 where d is the delay itself (not time.Second * 2).
				if id := identOf(Unconvert(info, pair[0])); id != nil {
					if v, ok := info.Uses[id].(*types.Var); ok && provenance.IsLocal(v) {
						for _, a := range vals.Assigns[v] {
							if a.Value != nil && mentionsObj(info, a.Value, v) {
								return true
							}
						}
						return selfAssigned(vals, v, x)
					}
				}
			}
		}
	}
	return false
}

// growthFactor reports whether the constant v multiplies a delay into a
// larger one, as backoffs do: from just over 1 up to 16.
func growthFactor(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float:
		f, _ := constant.Float64Val(v)
		return f > 1 && f <= 16
	}
	return false
}

// Unconvert strips conversions (float64(d), time.Duration(x)) from e.
func Unconvert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[c.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = c.Args[0]
	}
}

func selfAssigned(vals *provenance.Values, v *types.Var, x ast.Expr) bool {
	for _, a := range vals.Assigns[v] {
		if a.Value == x {
			return true
		}
	}
	return false
}

func mentionsObj(info *types.Info, e ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
