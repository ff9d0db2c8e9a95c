package model

// The counters and flags the loop interpreter follows concretely, and
// their values when the loop starts (judgeLoop).

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// trackedVars returns the local integer and boolean variables worth
// following concretely in a loop: those its conditions compare with
// constants (or use as flags), and that no closure writes or address
// escapes.
// unknownPartner stands for a value a tracked integer is compared with
// that the interpreter cannot know (a field: `i <= c.policy.MaxRetries`).
var unknownPartner types.Object = types.NewVar(token.NoPos, nil, "unknown", types.Typ[types.Int])

func trackedVars(info *types.Info, loop ast.Node, gotoList []ast.Stmt, gotoIdx int) (map[types.Object]bool, map[types.Object][]types.Object, map[types.Object]int64) {
	track := map[types.Object]bool{}
	// limits holds, for each tracked integer, the largest magnitude of the
	// constants it is compared with.
	limits := map[types.Object]int64{}
	// partners lists, for each tracked integer, what it is compared with:
	// another local variable, or nil for a constant expression.
	partners := map[types.Object][]types.Object{}
	local := func(e ast.Expr) *types.Var {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			v, ok = info.Defs[id].(*types.Var)
		}
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	isInt := func(v *types.Var) bool {
		b, ok := v.Type().Underlying().(*types.Basic)
		return ok && b.Info()&types.IsInteger != 0
	}
	static := func(e ast.Expr) bool {
		e = analysisutil.Unparen(e)
		if tv, ok := info.Types[e]; ok && tv.Value != nil {
			return true
		}
		if v := local(e); v != nil && isInt(v) {
			return true
		}
		var ok = true
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				switch obj := info.Uses[n].(type) {
				case *types.Const, *types.TypeName, *types.Builtin, *types.PkgName:
				case *types.Var:
					if !obj.IsField() && obj.Parent() != nil && obj.Parent() == obj.Pkg().Scope() {
						break // package-level variable: maybe constant-valued
					}
					if v := local(n); v != nil && isInt(v) {
						break
					}
					ok = false
				case nil:
				default:
					ok = false
				}
			case *ast.CallExpr:
				if tv, isT := info.Types[n.Fun]; !isT || !tv.IsType() {
					if id, isId := analysisutil.Unparen(n.Fun).(*ast.Ident); !isId || (id.Name != "min" && id.Name != "max") {
						ok = false
					}
				}
			case *ast.SelectorExpr:
				if _, isVar := info.Uses[n.Sel].(*types.Var); isVar {
					if v := info.Uses[n.Sel].(*types.Var); v.IsField() {
						ok = false
					}
				}
			}
			return ok
		})
		return ok
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if v := local(pair[0]); v != nil && isInt(v) && !static(pair[1]) {
						// Compared with what the interpreter cannot
						// know (a configured field): a partner that
						// widens it once past its constants.
						partners[v] = append(partners[v], unknownPartner)
						continue
					}
					if v := local(pair[0]); v != nil && isInt(v) && static(pair[1]) {
						track[v] = true
						if w := local(pair[1]); w != nil {
							track[w] = true
							partners[v] = append(partners[v], w)
						} else {
							partners[v] = append(partners[v], nil)
							if tv, ok := info.Types[analysisutil.Unparen(pair[1])]; ok && tv.Value != nil {
								if n, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact {
									limits[v] = max(limits[v], n, -n)
								}
							}
						}
					}
				}
			case token.LAND, token.LOR:
				for _, x := range []ast.Expr{n.X, n.Y} {
					if v := local(x); v != nil && analysisutil.IsBool(v.Type()) {
						track[v] = true
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.NOT {
				if v := local(n.X); v != nil && analysisutil.IsBool(v.Type()) {
					track[v] = true
				}
			}
		case *ast.IfStmt:
			if v := local(n.Cond); v != nil && analysisutil.IsBool(v.Type()) {
				track[v] = true
			}
		case *ast.ForStmt:
			if n.Cond != nil {
				if v := local(n.Cond); v != nil && analysisutil.IsBool(v.Type()) {
					track[v] = true
				}
			}
		}
		return true
	}
	if gotoList != nil {
		for _, st := range gotoList[gotoIdx:] {
			ast.Inspect(st, visit)
		}
	} else {
		ast.Inspect(loop, visit)
	}
	// A variable written by a closure or whose address is taken cannot be
	// followed.
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := local(n.X); v != nil {
					delete(track, v)
				}
			}
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.AssignStmt:
					for _, l := range m.Lhs {
						if v := local(l); v != nil {
							delete(track, v)
						}
					}
				case *ast.IncDecStmt:
					if v := local(m.X); v != nil {
						delete(track, v)
					}
				}
				return true
			})
			return false
		}
		return true
	})
	return track, partners, limits
}

// untrackUnknown stops following the integers that are compared only with
// local variables whose value is not known when the loop starts and that
// the loop never sets (`attempt >= maxAttempts`, maxAttempts a
// parameter): their concrete values decide no branch, and following them
// would make every iteration a new state (the loop is judged with the
// comparison taken both ways, as for any unknown value).
//
// It returns the integers still followed that are also compared with such
// an unknown value (`if idx > 0` and `idx <= maxRetries`): their concrete
// values decide the constant comparisons, but past the constants they are
// widened to unknown (judgeLoop), or every iteration would be a new state.
func (in *interp) untrackUnknown(s0 *state, partners map[types.Object][]types.Object, region ast.Node, gotoList []ast.Stmt, gotoIdx int) map[types.Object]bool {
	if len(partners) == 0 {
		return nil
	}
	written := map[types.Object]bool{}
	visit := func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok {
					written[in.info.ObjectOf(id)] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := analysisutil.Unparen(x.X).(*ast.Ident); ok {
				written[in.info.ObjectOf(id)] = true
			}
		}
		return true
	}
	if gotoList != nil {
		for _, st := range gotoList[gotoIdx:] {
			ast.Inspect(st, visit)
		}
	} else {
		ast.Inspect(region, visit)
	}
	var widen map[types.Object]bool
	for v, ps := range partners {
		unknown, some := true, false
		for _, w := range ps {
			if w == nil || written[w] {
				unknown = false
				continue
			}
			if _, ok := s0.val(w); ok {
				unknown = false
				continue
			}
			some = true
		}
		if unknown {
			delete(in.track, v)
			for _, w := range ps {
				delete(in.track, w)
			}
		} else if some {
			if widen == nil {
				widen = map[types.Object]bool{}
			}
			widen[v] = true
		}
	}
	return widen
}

// A write is one write of a variable: a declaration, an assignment, an
// increment, a range clause.
type write struct {
	pos   token.Pos
	value ast.Expr // nil: zero value
	plain bool     // a declaration or plain assignment
}

// writeIndex lists the writes of every local variable of a function's
// body, and those written inside a closure.
type writeIndex struct {
	writes  map[types.Object][]write
	escaped map[types.Object]bool
}

// indexWrites walks fnBody once for every loop of the function to read
// (initialValues).
func indexWrites(info *types.Info, fnBody *ast.BlockStmt) *writeIndex {
	writes := map[types.Object][]write{}
	escaped := map[types.Object]bool{}
	inClosure := 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			inClosure++
			ast.Inspect(n.Body, visit)
			inClosure--
			return false
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := analysisutil.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
				}
				if obj == nil {
					continue
				}
				if inClosure > 0 {
					escaped[obj] = true
				}
				w := write{pos: n.Pos()}
				if (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) && len(n.Lhs) == len(n.Rhs) {
					w.value, w.plain = n.Rhs[i], true
				}
				writes[obj] = append(writes[obj], w)
			}
		case *ast.IncDecStmt:
			if id, ok := analysisutil.Unparen(n.X).(*ast.Ident); ok && info.Uses[id] != nil {
				writes[info.Uses[id]] = append(writes[info.Uses[id]], write{pos: n.Pos()})
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				obj := info.Defs[id]
				if obj == nil {
					continue
				}
				w := write{pos: id.Pos(), plain: true}
				if len(n.Values) == len(n.Names) {
					w.value = n.Values[i]
				} else if len(n.Values) != 0 {
					w.plain = false
				}
				writes[obj] = append(writes[obj], w)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if obj := info.ObjectOf(id); obj != nil {
						writes[obj] = append(writes[obj], write{pos: n.Pos()})
					}
				}
			}
		}
		return true
	}
	ast.Inspect(fnBody, visit)
	return &writeIndex{writes: writes, escaped: escaped}
}

// initialValues finds the values the tracked variables declared before
// the loop have when it starts: known only when the declaration is the
// single write before the loop and gives a constant. The function's
// writes are indexed once (in.writesOf), not once per loop.
func (in *interp) initialValues(fnBody *ast.BlockStmt, loopPos token.Pos, track map[types.Object]bool) map[types.Object]constant.Value {
	var idx *writeIndex
	if in.writesOf != nil {
		idx = in.writesOf(fnBody)
	} else {
		idx = indexWrites(in.info, fnBody)
	}
	writes, escaped := idx.writes, idx.escaped

	out := map[types.Object]constant.Value{}
	for obj := range track {
		if obj.Pos() >= loopPos || escaped[obj] {
			continue
		}
		var before []write
		for _, w := range writes[obj] {
			if w.pos < loopPos {
				before = append(before, w)
			}
		}
		if len(before) != 1 || !before[0].plain {
			continue
		}
		if before[0].value == nil {
			if z := zeroValue(obj.Type()); z != nil {
				out[obj] = z
			}
			continue
		}
		if v, ok := in.eval(before[0].value, nil); ok {
			out[obj] = v
		}
	}
	return out
}
