package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// iterates reports whether the loop feeds its operations a changing input,
// which makes it a search or an iteration rather than a retry: an index
// that the loop advances (`batches[m.index]`, `m.index++`), or a string or
// number it derives from its own previous value (`name = name[:i]`,
// `size *= 2`). Attempt counters (`attempt++`) passed as plain arguments,
// durations (growing timeouts) and rebuilt requests do not count.
//
// follows also counts a loop that aims its request at what an earlier
// attempt answered (followsResponse); judge asks again without it.
func (m *builder) iterates(in *interp, stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int, follows bool) bool {
	info := m.pass.TypesInfo
	nodes := loopNodes(stmt, gotoList, gotoIdx)
	objOf := func(e ast.Expr) types.Object {
		switch x := analysisutil.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x]
		case *ast.SelectorExpr:
			return info.Uses[x.Sel]
		}
		return nil
	}
	mentions := func(e ast.Node, obj types.Object) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
				found = true
			}
			return !found
		})
		return found
	}
	// fresh reports whether obj is declared in the loop's body: made
	// anew in each pass, so whatever a pass derives it from itself is
	// gone by the next (n := base; n = n * 2 is the same every pass).
	var bodySpan [2]token.Pos
	switch st := stmt.(type) {
	case *ast.ForStmt:
		bodySpan = [2]token.Pos{st.Body.Pos(), st.Body.End()}
	case *ast.RangeStmt:
		bodySpan = [2]token.Pos{st.Body.Pos(), st.Body.End()}
	default:
		if len(nodes) > 0 {
			bodySpan = [2]token.Pos{nodes[0].Pos(), nodes[len(nodes)-1].End()}
		}
	}
	fresh := func(obj types.Object) bool {
		v, ok := obj.(*types.Var)
		return ok && !v.IsField() && bodySpan[0] <= v.Pos() && v.Pos() < bodySpan[1]
	}
	advanced := map[types.Object]bool{} // modified in the loop
	derived := map[types.Object]bool{}  // modified from its own value, not as a counter
	walks := false                      // err = c.Cause() with c from err: walking a chain
	var ops []*ast.CallExpr
	// for i := range len(keys): the range advances its key as i++ would.
	if rs, ok := stmt.(*ast.RangeStmt); ok {
		if id := identOf(rs.Key); id != nil && info.ObjectOf(id) != nil {
			advanced[info.ObjectOf(id)] = true
		}
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IncDecStmt:
				if obj := objOf(x.X); obj != nil && !fresh(obj) {
					advanced[obj] = true
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 {
					if call, ok := analysisutil.Unparen(x.Rhs[0]).(*ast.CallExpr); ok {
						consumes := false
						for _, l := range x.Lhs {
							if obj := objOf(l); obj != nil && x.Tok != token.DEFINE {
								if mentionsOutsideClosures(info, call, obj) && !in.outcomeOfPass(nodes, x, obj) {
									consumes = true
								}
								if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && m.derivedVia(sel.X, obj, nodes) {
									consumes = true
								}
								for _, a := range call.Args {
									if m.derivedVia(a, obj, nodes) {
										consumes = true
									}
								}
							}
						}
						if consumes {
							if in.isOp(call) {
								walks = true // err = c.Cause(), c from err
							}
							if len(x.Lhs) > 1 {
								// b, data = pem.Decode(data): the call consumes
								// its input; everything it returns changes.
								for _, l := range x.Lhs {
									if obj := objOf(l); obj != nil && !fresh(obj) {
										derived[obj] = true
									}
								}
							}
						}
					}
				}
				if x.Tok == token.DEFINE {
					return true
				}
				for i, l := range x.Lhs {
					obj := objOf(l)
					if obj == nil || fresh(obj) {
						continue
					}
					advanced[obj] = true
					counter := (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Rhs) == 1 && info.Types[x.Rhs[0]].Value != nil
					self := x.Tok != token.ASSIGN || (len(x.Rhs) == len(x.Lhs) && (mentions(x.Rhs[i], obj) || m.derivedVia(x.Rhs[i], obj, nodes)))
					if self && !counter && isPlainValue(obj.Type()) {
						derived[obj] = true
					}
					if x.Tok == token.ASSIGN && len(x.Rhs) == len(x.Lhs) && dropsHead(info, x.Rhs[i], x.Lhs[i], obj) {
						// addrs = addrs[1:]: the list the loop tries is
						// consumed, what it takes from it changes.
						derived[obj] = true
					}
				}
			case *ast.CallExpr:
				if in.isOp(x) {
					ops = append(ops, x)
				}
			}
			return true
		})
	}
	if walks || m.passesDiffer(stmt, nodes, ops) || m.neverSameInput(nodes, ops) || m.stateChanged(nodes, ops) || m.rotates(stmt, nodes, ops) || follows && m.followsResponse(nodes, ops) {
		return true
	}
	m.readsPosition(nodes, ops, derived)
	if m.takesNext(nodes, ops) || m.picksUntilEmpty(in, stmt, ops) || m.advancedByCond(stmt, nodes, ops) {
		return true
	}
	// port++ where port started from the input (port := cfg.Port), not
	// from a constant as an attempt counter does: a position in a search.
	for obj := range advanced {
		if derived[obj] || !isPlainValue(obj.Type()) {
			continue
		}
		if v, ok := obj.(*types.Var); ok && isLocal(v) && m.startsFromInput(v, nodes) {
			derived[obj] = true
		}
	}
	// cfg.Port = port, cfg["port"] = port: the request the loop sends is
	// changed with it.
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				var base ast.Expr
				switch x := analysisutil.Unparen(l).(type) {
				case *ast.IndexExpr:
					base = x.X
				case *ast.SelectorExpr:
					base = x.X
				default:
					continue
				}
				changes := false
				ast.Inspect(as.Rhs[i], func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && derived[info.Uses[id]] {
						changes = true
					}
					return !changes
				})
				if obj := objOf(base); changes && obj != nil {
					derived[obj] = true
				}
			}
			return true
		})
	}
	// for x := first(); x != nil; x = next(): the loop walks candidates
	// (brokers, replicas), each tried once.
	if fs, ok := stmt.(*ast.ForStmt); ok && fs.Post != nil {
		if as, ok := fs.Post.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				obj := objOf(l)
				if obj == nil || isPlainValue(obj.Type()) && mentions(as.Rhs[i], obj) {
					continue // a counter
				}
				for _, call := range ops {
					if mentions(call, obj) {
						return true
					}
				}
			}
		}
	}
	for _, call := range ops {
		parts := opInputs(call)
		// indexedByAdvanced reports whether e picks an element by an
		// index the loop advances (mirrors[i]).
		indexedByAdvanced := func(e ast.Node) bool {
			found := false
			ast.Inspect(e, func(n ast.Node) bool {
				if ix, ok := n.(*ast.IndexExpr); ok {
					ast.Inspect(ix.Index, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && advanced[obj] {
								found = true
							}
						}
						return !found
					})
				}
				return !found
			})
			return found
		}
		for _, p := range parts {
			changing := false
			ast.Inspect(p, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					// A closure the operation runs (cb.Execute(func()
					// ...)): what it sends is the operation's input.
					return true
				case *ast.IndexExpr:
					ast.Inspect(x.Index, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok {
							if obj := objOf(e); obj != nil && advanced[obj] {
								changing = true
							}
						}
						return !changing
					})
				case *ast.SliceExpr:
					for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
						if b != nil {
							ast.Inspect(b, func(n ast.Node) bool {
								if e, ok := n.(ast.Expr); ok {
									if obj := objOf(e); obj != nil && derived[obj] {
										changing = true
									}
								}
								return !changing
							})
						}
					}
				case *ast.Ident:
					if obj := info.Uses[x]; obj != nil && derived[obj] {
						changing = true
					}
					// key := fmt.Sprintf("%s/%d", p, time.Now().UnixNano()):
					// a value made fresh in every pass.
					// A local declared before the loop counts by the
					// values the loop gives it (s = servers[i]).
					if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) {
						for _, a := range m.vals.Assigns[v] {
							if !inNodes(nodes, a.Pos) {
								continue
							}
							if a.Value != nil && m.fresh(a.Value) {
								changing = true
							}
							// m := mirrors[i]: the element the pass
							// takes is a new candidate.
							if a.Value != nil && indexedByAdvanced(a.Value) {
								changing = true
							}
							// addr := &net.UDPAddr{Port: port}: built in
							// the pass from a value the loop derives.
							if a.Value != nil {
								ast.Inspect(a.Value, func(n ast.Node) bool {
									if id, ok := n.(*ast.Ident); ok && derived[info.Uses[id]] {
										changing = true
									}
									return !changing
								})
							}
						}
					}
				case *ast.CallExpr:
					if m.fresh(x) {
						changing = true
					}
				}
				return !changing
			})
			if changing {
				return true
			}
		}
	}
	return false
}

// readsPosition marks in derived the numbers and strings that the loop
// sets, for an operation, from the state of another input of that same
// operation: `n = r.Buffered() + 1` before the next `tryRead(r, n)`. The
// next pass asks for more than the last one got from its input (an
// incremental read: the buffered bytes hold no complete header yet), so it
// follows what the operation consumed rather than repeating a request.
func (m *builder) readsPosition(nodes []ast.Node, ops []*ast.CallExpr, derived map[types.Object]bool) {
	info := m.pass.TypesInfo
	// The inputs of each operation: its arguments and its receiver.
	inputs := func(call *ast.CallExpr) []types.Object {
		var objs []types.Object
		for _, e := range opInputs(call) {
			if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					objs = append(objs, v)
				}
			}
		}
		return objs
	}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			id, ok := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident)
			if !ok {
				return true
			}
			obj, ok := info.Uses[id].(*types.Var)
			if !ok || !isLocal(obj) || !isPlainValue(obj.Type()) {
				return true
			}
			// The receivers of the methods the new value is computed with.
			var read []types.Object
			ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if sel, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok {
						if rid, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok {
							if v, ok := info.Uses[rid].(*types.Var); ok && info.Selections[sel] != nil {
								read = append(read, v)
							}
						}
					}
				}
				return true
			})
			if len(read) == 0 {
				return true
			}
			for _, call := range ops {
				in := inputs(call)
				if !slices.Contains(in, types.Object(obj)) {
					continue
				}
				for _, r := range read {
					if r != obj && slices.Contains(in, types.Object(r)) {
						derived[obj] = true
					}
				}
			}
			return true
		})
	}
}

// dropsHead reports whether e re-slices the slice obj holds, dropping its
// head (`s[1:]`, `s[n:]`), into lhs: a list consumed as the loop goes,
// held in a variable or in a field of one value (`s.pending =
// s.pending[1:]`).
func dropsHead(info *types.Info, e, lhs ast.Expr, obj types.Object) bool {
	se, ok := analysisutil.Unparen(e).(*ast.SliceExpr)
	if !ok || se.Slice3 {
		return false
	}
	switch x := analysisutil.Unparen(se.X).(type) {
	case *ast.Ident:
		if info.Uses[x] != obj {
			return false
		}
	case *ast.SelectorExpr:
		// s.pending = s.pending[1:]: the field of the same value.
		if info.Uses[x.Sel] != obj || lhs == nil || types.ExprString(x) != types.ExprString(analysisutil.Unparen(lhs)) {
			return false
		}
	default:
		return false
	}
	if _, ok := obj.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	if se.Low == nil || se.High != nil {
		return false
	}
	tv := info.Types[se.Low]
	return tv.Value == nil || constant.Sign(tv.Value) > 0
}

// isPlainValue reports whether t is a number (not a duration) or a string.
func isPlainValue(t types.Type) bool {
	if analysisutil.IsNamedType(t, "time", "Duration") {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsString) != 0
}

// derivedVia reports whether e is a variable that the loop computes from
// obj: parent := filepath.Dir(dir); ...; dir = parent.
func (m *builder) derivedVia(e ast.Expr, obj types.Object, nodes []ast.Node) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v := m.pass.TypesInfo.Uses[id]
	if v == nil {
		return false
	}
	return m.viaMemo.uses(m, v, nodes)[obj]
}

// viaMemo remembers, for the loop being judged (its nodes), the variables
// that the values assigned to each variable in the loop read, so that
// derivedVia costs a lookup however many times a loop of many
// assignments asks it (a dispatch loop of hundreds of cases).
type viaMemo struct {
	nodes []ast.Node // kept, so a new loop's slice cannot share its address
	reads map[types.Object]map[types.Object]bool
}

func (c *viaMemo) uses(m *builder, v types.Object, nodes []ast.Node) map[types.Object]bool {
	if c.reads == nil || len(nodes) != len(c.nodes) || len(nodes) > 0 && &nodes[0] != &c.nodes[0] {
		c.nodes, c.reads = nodes, map[types.Object]map[types.Object]bool{}
	}
	if r, ok := c.reads[v]; ok {
		return r
	}
	r := map[types.Object]bool{}
	for _, a := range m.vals.Assigns[v] {
		if a.Value == nil || !inNodes(nodes, a.Pos) {
			continue
		}
		ast.Inspect(a.Value, func(n ast.Node) bool {
			if x, ok := n.(*ast.Ident); ok && m.pass.TypesInfo.Uses[x] != nil {
				r[m.pass.TypesInfo.Uses[x]] = true
			}
			return true
		})
	}
	c.reads[v] = r
	return r
}

// fresh reports whether e draws a new value every time it is evaluated:
// it reads the clock (time.Now) or a random source.
func (m *builder) fresh(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if fn := analysisutil.Callee(m.pass.TypesInfo, c); fn != nil && (analysisutil.IsFunc(fn, "time", "Now") || m.isRandomCall(c, fn)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// opInputs returns the inputs of an operation's call: its arguments and
// what it is called on (the receiver, or the package of a qualified
// function).
func opInputs(call *ast.CallExpr) []ast.Expr {
	in := append([]ast.Expr(nil), call.Args...)
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		in = append(in, sel.X)
	}
	return in
}

// inNodes reports whether pos lies in one of nodes.
func inNodes(nodes []ast.Node, pos token.Pos) bool {
	for _, n := range nodes {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// mentionsOutsideClosures reports whether e uses obj, not counting the
// bodies of function literals in it (an operation run through a closure
// that assigns the loop's error is not fed that error).
func mentionsOutsideClosures(info *types.Info, e ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if info.Uses[x] == obj {
				found = true
			}
		}
		return !found
	})
	return found
}
