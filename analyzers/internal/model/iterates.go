package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// stdRoots are the first elements of the standard library's import paths.
var stdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true,
	"context": true, "crypto": true, "database": true, "debug": true, "embed": true, "encoding": true,
	"errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "plugin": true, "reflect": true,
	"regexp": true, "runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true, "time": true,
	"unicode": true, "unique": true, "unsafe": true, "weak": true, "vendor": true, "cmd": true,
}

func isStd(path string) bool {
	first := path
	if i := strings.IndexByte(path, '/'); i >= 0 {
		first = path[:i]
	}
	return stdRoots[first]
}

// iterates reports whether the loop feeds its operations a changing input,
// which makes it a search or an iteration rather than a retry: an index
// that the loop advances (`batches[m.index]`, `m.index++`), or a string or
// number it derives from its own previous value (`name = name[:i]`,
// `size *= 2`). Attempt counters (`attempt++`) passed as plain arguments,
// durations (growing timeouts) and rebuilt requests do not count.
func (m *builder) iterates(in *interp, stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int) bool {
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
	advanced := map[types.Object]bool{} // modified in the loop
	derived := map[types.Object]bool{}  // modified from its own value, not as a counter
	walks := false                      // err = c.Cause() with c from err: walking a chain
	var ops []*ast.CallExpr
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IncDecStmt:
				if obj := objOf(x.X); obj != nil {
					advanced[obj] = true
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 {
					if call, ok := analysisutil.Unparen(x.Rhs[0]).(*ast.CallExpr); ok {
						consumes := false
						for _, l := range x.Lhs {
							if obj := objOf(l); obj != nil && x.Tok != token.DEFINE {
								if mentionsOutsideClosures(info, call, obj) {
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
									if obj := objOf(l); obj != nil {
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
					if obj == nil {
						continue
					}
					advanced[obj] = true
					counter := (x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN) && len(x.Rhs) == 1 && info.Types[x.Rhs[0]].Value != nil
					self := x.Tok != token.ASSIGN || (len(x.Rhs) == len(x.Lhs) && (mentions(x.Rhs[i], obj) || m.derivedVia(x.Rhs[i], obj, nodes)))
					if self && !counter && isPlainValue(obj.Type()) {
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
	if walks || m.neverSameInput(nodes, ops) || m.stateChanged(nodes, ops) {
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
		var parts []ast.Node
		for _, a := range call.Args {
			parts = append(parts, a)
		}
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			parts = append(parts, sel.X)
		}
		for _, p := range parts {
			changing := false
			ast.Inspect(p, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.FuncLit:
					return false
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
					if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) && inNodes(nodes, v.Pos()) {
						for _, a := range m.vals.assigns[v] {
							if a.value != nil && m.fresh(a.value) {
								changing = true
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
	for _, a := range m.vals.assigns[v] {
		if a.value == nil || !inNodes(nodes, a.pos) {
			continue
		}
		found := false
		ast.Inspect(a.value, func(n ast.Node) bool {
			if x, ok := n.(*ast.Ident); ok && m.pass.TypesInfo.Uses[x] == obj {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
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

// findYields returns the yield parameters of the package's iterator
// functions: a function (declared or literal) whose only parameter is a
// function returning a bool and which returns nothing, the shape of
// iter.Seq and iter.Seq2. A loop that passes an outcome to yield hands it
// to the consumer.
func findYields(info *types.Info, files []*ast.File) map[types.Object]bool {
	yields := map[types.Object]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			var ft *ast.FuncType
			switch x := n.(type) {
			case *ast.FuncDecl:
				ft = x.Type
			case *ast.FuncLit:
				ft = x.Type
			default:
				return true
			}
			if ft.Results != nil && len(ft.Results.List) > 0 || ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) != 1 {
				return true
			}
			name := ft.Params.List[0].Names[0]
			obj := info.Defs[name]
			if obj == nil {
				return true
			}
			sig, ok := obj.Type().Underlying().(*types.Signature)
			if !ok || sig.Results().Len() != 1 {
				return true
			}
			if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				yields[obj] = true
			}
			return true
		})
	}
	return yields
}

// startsFromInput reports whether the local v gets its first value,
// outside nodes (the loop), from something other than a constant: a
// field, a parameter, a call's result.
func (m *builder) startsFromInput(v *types.Var, nodes []ast.Node) bool {
	outside := 0
	for _, a := range m.vals.assigns[v] {
		if inNodes(nodes, a.pos) {
			continue
		}
		if a.value == nil {
			continue
		}
		if id, ok := a.value.(*ast.Ident); ok && m.vals.zeroDecl[id] {
			continue // var n int: the zero value, a constant start
		}
		outside++
		if tv, ok := m.pass.TypesInfo.Types[a.value]; ok && tv.Value != nil {
			return false
		}
	}
	return outside > 0
}

// neverSameInput reports whether the loop remembers the input of a failed
// attempt (`lastIdx = idx`) and leaves when the next pass would try that
// same input again (`if idx == lastIdx { return }`): every pass it goes
// round with tries a new input, read afresh, so it never repeats a
// request: it follows a changing state rather than retrying.
func (m *builder) neverSameInput(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	inOp := func(obj types.Object) bool {
		for _, call := range ops {
			for _, a := range call.Args {
				if id, ok := analysisutil.Unparen(a).(*ast.Ident); ok && info.Uses[id] == obj {
					return true
				}
			}
		}
		return false
	}
	remembers := map[[2]types.Object]bool{} // {input, its copy}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i := range as.Lhs {
				l, lok := analysisutil.Unparen(as.Lhs[i]).(*ast.Ident)
				r, rok := analysisutil.Unparen(as.Rhs[i]).(*ast.Ident)
				if lok && rok && info.Uses[l] != nil && inOp(info.Uses[r]) {
					remembers[[2]types.Object{info.Uses[r], info.Uses[l]}] = true
				}
			}
			return true
		})
	}
	if len(remembers) == 0 {
		return false
	}
	found := false
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || found {
				return !found
			}
			be, ok := analysisutil.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL || !endsInExit(ifs.Body) {
				return true
			}
			x, xok := analysisutil.Unparen(be.X).(*ast.Ident)
			y, yok := analysisutil.Unparen(be.Y).(*ast.Ident)
			if xok && yok {
				a, b := info.Uses[x], info.Uses[y]
				found = remembers[[2]types.Object{a, b}] || remembers[[2]types.Object{b, a}]
			}
			return !found
		})
	}
	return found
}

// endsInExit reports whether b ends in a return or a break.
func endsInExit(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch x := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return x.Tok == token.BREAK
	}
	return false
}

// stateChanged reports whether a method of this package called in the loop
// writes a field of its receiver that another method called in the loop
// reads: `if !t.recoversFrom(err) { return }` switches t.link, and the next
// pass's `t.planRequest()` builds its request from it. Each pass sends a
// request made from the state the failure changed, a fallback rather than
// a retry of the same request.
func (m *builder) stateChanged(nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	// The methods of this package whose results feed an operation's
	// arguments, directly or through a local variable set in the loop.
	feeds := map[*ast.FuncDecl]bool{}
	var feed func(e ast.Expr, depth int)
	feed = func(e ast.Expr, depth int) {
		if depth > 3 {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if fn := analysisutil.Callee(info, x); fn != nil {
					if d := m.vals.decls[fn.Origin()]; d != nil {
						feeds[d] = true
					}
				}
			case *ast.Ident:
				if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) {
					for _, a := range m.vals.assigns[v] {
						if a.value != nil && inNodes(nodes, a.pos) {
							feed(a.value, depth+1)
						}
					}
				}
			}
			return true
		})
	}
	for _, call := range ops {
		for _, a := range call.Args {
			feed(a, 0)
		}
	}
	if len(feeds) == 0 {
		return false
	}
	var methods []*ast.FuncDecl
	seen := map[*ast.FuncDecl]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if fn := analysisutil.Callee(info, c); fn != nil {
					if d := m.vals.decls[fn.Origin()]; d != nil && d.Recv != nil && d.Body != nil && !seen[d] {
						seen[d] = true
						methods = append(methods, d)
					}
				}
			}
			return true
		})
	}
	if len(methods) < 2 {
		return false
	}
	recvOf := func(d *ast.FuncDecl) types.Object {
		if len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 {
			return nil
		}
		return info.Defs[d.Recv.List[0].Names[0]]
	}
	// fields returns the fields of its receiver that d writes or reads.
	fields := func(d *ast.FuncDecl) (writes, reads map[types.Object]bool) {
		writes, reads = map[types.Object]bool{}, map[types.Object]bool{}
		recv := recvOf(d)
		if recv == nil {
			return
		}
		onRecv := func(e ast.Expr) types.Object {
			sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
			if !ok {
				return nil
			}
			if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
				return nil
			}
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
				return s.Obj()
			}
			return nil
		}
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if f := onRecv(l); f != nil {
						writes[f] = true
					}
				}
			case *ast.SelectorExpr:
				if f := onRecv(x); f != nil {
					reads[f] = true
				}
			}
			return true
		})
		return
	}
	type rw struct{ writes, reads map[types.Object]bool }
	all := make([]rw, len(methods))
	for i, d := range methods {
		all[i].writes, all[i].reads = fields(d)
	}
	for i := range all {
		for f := range all[i].writes {
			for j := range all {
				if j != i && feeds[methods[j]] && all[j].reads[f] && !all[j].writes[f] {
					return true
				}
			}
		}
	}
	return false
}
