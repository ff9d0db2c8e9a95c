package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// FieldsFact is exported for every method that writes fields of its
// receiver, or whose results are picked from a collection by a field of
// its receiver (`addr := c.addrs[c.next]; c.next++; return addr`), so
// that a loop calling it, in this package or another, knows which state
// the call moves and which state the value it returns is chosen by.
// Fields are named "pkgpath.Type.field", by the named struct type that
// declares them.
type FieldsFact struct {
	// Writes are the receiver's fields the method writes, itself or
	// through the methods it calls on the same receiver.
	Writes []string
	// Picks are the receiver's fields used as an index, a slice bound or a
	// map key of a collection the method's results are taken from.
	Picks []string
}

func (*FieldsFact) AFact() {}

func (f *FieldsFact) String() string {
	s := "fields("
	if len(f.Writes) > 0 {
		s += "writes " + strings.Join(f.Writes, " ")
	}
	if len(f.Picks) > 0 {
		if len(f.Writes) > 0 {
			s += "; "
		}
		s += "picks by " + strings.Join(f.Picks, " ")
	}
	return s + ")"
}

// maxFactFields bounds the fields a fact lists: a method that writes more
// is not a rotation helper, and a bounded fact keeps facts small.
const maxFactFields = 32

// fieldKey names the field a selection reads, by the named struct type
// that declares it ("" for a method value, a field of an unnamed struct).
func fieldKey(sel *types.Selection) string {
	if sel == nil || sel.Kind() != types.FieldVal {
		return ""
	}
	t := sel.Recv()
	idx := sel.Index()
	for i, x := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || x >= st.NumFields() {
			return ""
		}
		if i == len(idx)-1 {
			n, ok := types.Unalias(t).(*types.Named)
			if !ok || n.Obj().Pkg() == nil {
				return ""
			}
			obj := n.Origin().Obj()
			return obj.Pkg().Path() + "." + obj.Name() + "." + st.Field(x).Name()
		}
		t = st.Field(x).Type()
	}
	return ""
}

// fieldsFact returns the FieldsFact of fn: computed for this package's
// methods, imported for others'.
func (m *builder) fieldsFact(fn *types.Func) *FieldsFact {
	if m.fsummaries == nil {
		m.fsummaries = newSummaries[FieldsFact]()
	}
	return summarize(m, m.fsummaries, fn, m.computeFields)
}

func (m *builder) computeFields(fn *types.Func, d *ast.FuncDecl) *FieldsFact {
	info := m.pass.TypesInfo
	if d.Recv == nil || len(d.Recv.List) == 0 || len(d.Recv.List[0].Names) == 0 || d.Body == nil {
		return nil
	}
	recv := info.Defs[d.Recv.List[0].Names[0]]
	if recv == nil {
		return nil
	}
	onRecv := func(e ast.Expr) string {
		sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
			return ""
		}
		return fieldKey(info.Selections[sel])
	}
	writes := map[string]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false // runs later, or elsewhere
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					if k := onRecv(l); k != "" {
						writes[k] = true
					}
				}
			}
		case *ast.IncDecStmt:
			if k := onRecv(x.X); k != "" {
				writes[k] = true
			}
		case *ast.CallExpr:
			// r.advance(): a method called on the same receiver moves
			// the receiver's state too.
			sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
				break
			}
			if callee := analysisutil.Callee(info, x); callee != nil && callee != fn {
				if f := m.fieldsFact(callee); f != nil {
					for _, k := range f.Writes {
						writes[k] = true
					}
				}
			}
		}
		return true
	})
	// The values the results are made of: the returned expressions and,
	// through the locals they use, what those were assigned in fn.
	picks := map[string]bool{}
	seen, idxSeen := map[types.Object]bool{}, map[types.Object]bool{}
	var flow func(e ast.Expr, depth int)
	flow = func(e ast.Expr, depth int) {
		if depth > 3 {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				m.indexFields(x.Index, recv, picks, d.Body, idxSeen, 0)
			case *ast.SliceExpr:
				for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
					if b != nil {
						m.indexFields(b, recv, picks, d.Body, idxSeen, 0)
					}
				}
			case *ast.CallExpr:
				if sel, ok := analysisutil.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					if id, ok := analysisutil.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == recv {
						if callee := analysisutil.Callee(info, x); callee != nil && callee != fn {
							if f := m.fieldsFact(callee); f != nil {
								for _, k := range f.Picks {
									picks[k] = true
								}
							}
						}
					}
				}
			case *ast.Ident:
				if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) && !seen[v] && inNodes([]ast.Node{d.Body}, v.Pos()) {
					seen[v] = true
					for _, a := range m.vals.Assigns[v] {
						if a.Value != nil {
							flow(a.Value, depth+1)
						}
					}
				}
			}
			return true
		})
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				flow(r, 0)
			}
		}
		return true
	})
	if len(writes) == 0 && len(picks) == 0 || len(writes) > maxFactFields || len(picks) > maxFactFields {
		return nil
	}
	f := &FieldsFact{Writes: sortedKeys(writes), Picks: sortedKeys(picks)}
	return f
}

// indexFields adds to picks the receiver's fields an index expression is
// computed from: `c.addrs[c.next]`, `i := c.next % n; c.addrs[i]`.
// Each local is followed once (seen), so the cost is linear in the
// function.
func (m *builder) indexFields(e ast.Expr, recv types.Object, picks map[string]bool, body *ast.BlockStmt, seen map[types.Object]bool, depth int) {
	if depth > 3 {
		return
	}
	info := m.pass.TypesInfo
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if id, ok := analysisutil.Unparen(x.X).(*ast.Ident); ok && (recv == nil || info.Uses[id] == recv) {
				if k := fieldKey(info.Selections[x]); k != "" {
					picks[k] = true
				}
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) && !seen[v] && (body == nil || inNodes([]ast.Node{body}, v.Pos())) {
				seen[v] = true
				for _, a := range m.vals.Assigns[v] {
					if a.Value != nil && (body == nil || inNodes([]ast.Node{body}, a.Pos)) {
						m.indexFields(a.Value, recv, picks, body, seen, depth+1)
					}
				}
			}
		}
		return true
	})
}

func sortedKeys(set map[string]bool) []string {
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// rotates reports whether the loop fails over from one instance to the
// next: a call in the loop writes a field (FieldsFact.Writes, or a write
// in the loop itself) by which the input of one of its operations is
// picked from a collection — through a method whose results are picked by
// it (FieldsFact.Picks), or an index in the operation's arguments
// (`c.addrs[c.next]`) — and a counter bounds the passes. Each pass then
// goes to another endpoint, replica or server: a fail-over, not a re-send
// of the failed request to the instance that failed it. A rotation
// without a counted bound comes round to the failed instances again and
// again: that is a retry over the set.
func (m *builder) rotates(stmt ast.Stmt, nodes []ast.Node, ops []*ast.CallExpr) bool {
	info := m.pass.TypesInfo
	writes := map[string]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE {
					for _, l := range x.Lhs {
						if sel, ok := analysisutil.Unparen(l).(*ast.SelectorExpr); ok {
							if k := fieldKey(info.Selections[sel]); k != "" {
								writes[k] = true
							}
						}
					}
				}
			case *ast.IncDecStmt:
				if sel, ok := analysisutil.Unparen(x.X).(*ast.SelectorExpr); ok {
					if k := fieldKey(info.Selections[sel]); k != "" {
						writes[k] = true
					}
				}
			case *ast.CallExpr:
				if fn := analysisutil.Callee(info, x); fn != nil {
					if f := m.fieldsFact(fn); f != nil {
						for _, k := range f.Writes {
							writes[k] = true
						}
					}
				}
			}
			return true
		})
	}
	if len(writes) == 0 {
		return false
	}
	picks := map[string]bool{}
	seen, idxSeen := map[types.Object]bool{}, map[types.Object]bool{}
	var flow func(e ast.Node, depth int)
	flow = func(e ast.Node, depth int) {
		if depth > 3 {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				m.indexFields(x.Index, nil, picks, nil, idxSeen, 0)
			case *ast.SliceExpr:
				for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
					if b != nil {
						m.indexFields(b, nil, picks, nil, idxSeen, 0)
					}
				}
			case *ast.CallExpr:
				if fn := analysisutil.Callee(info, x); fn != nil {
					if f := m.fieldsFact(fn); f != nil {
						for _, k := range f.Picks {
							picks[k] = true
						}
					}
				}
			case *ast.Ident:
				// endpoint := c.next(): a local set in the loop.
				if v, ok := info.Uses[x].(*types.Var); ok && isLocal(v) && !seen[v] {
					seen[v] = true
					for _, a := range m.vals.Assigns[v] {
						// a.Pos is the end of the assignment, which may be
						// the end of the loop's region (`retry: x := f()`).
						if a.Value != nil && inNodes(nodes, a.Pos-1) {
							flow(a.Value, depth+1)
						}
					}
				}
			}
			return true
		})
	}
	aimed := m.newAims(nodes)
	aimedSeen := map[*types.Var]bool{}
	for _, call := range ops {
		for _, a := range call.Args {
			flow(a, 0)
			if v, vals := aimed.pointedAt(a); v != nil && !aimedSeen[v] {
				aimedSeen[v] = true
				for _, e := range vals {
					flow(e, 1)
				}
			}
		}
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			flow(sel.X, 0)
		}
	}
	return slices.ContainsFunc(sortedKeys(picks), func(k string) bool { return writes[k] }) && (m.countBounded(stmt, nodes) || m.leavesAtEnd(nodes))
}

// leavesAtEnd reports whether the loop leaves (leaves: returns, panics
// or breaks out of it) when a local it set from a call that both moves
// and picks by the same receiver field (a cursor: FieldsFact Writes and Picks share
// one, `l.index++; if l.index >= len(l.addrs) { return nil }; return
// &l.addrs[l.index]`) is nil: the cursor's own bound ends the passes,
// as a counter's would. A call that never answers nil leaves the test
// dead, and the loop is taken as bounded: silence where the model
// cannot tell.
func (m *builder) leavesAtEnd(nodes []ast.Node) bool {
	info := m.pass.TypesInfo
	cursor := func(e ast.Expr) bool {
		call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn := analysisutil.Callee(info, call)
		if fn == nil {
			return false
		}
		f := m.fieldsFact(fn)
		return f != nil && slices.ContainsFunc(f.Picks, func(k string) bool { return slices.Contains(f.Writes, k) })
	}
	vars := map[types.Object]bool{}
	for _, root := range nodes {
		ast.Inspect(root, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && cursor(as.Rhs[0]) {
				for _, l := range as.Lhs {
					if id, ok := analysisutil.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) != nil {
						vars[info.ObjectOf(id)] = true
					}
				}
			}
			return true
		})
	}
	if len(vars) == 0 {
		return false
	}
	isNilTest := func(cond ast.Expr) bool {
		be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL {
			return false
		}
		for _, p := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if id, ok := analysisutil.Unparen(p[0]).(*ast.Ident); ok && vars[info.Uses[id]] && info.Types[p[1]].IsNil() {
				return true
			}
		}
		return false
	}
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(x ast.Node) bool {
			switch y := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if x != n {
					walk(x, true) // an unlabeled break there leaves that statement
					return false
				}
			case *ast.IfStmt:
				if isNilTest(y.Cond) && len(y.Body.List) > 0 {
					found = leaves(info, y.Body.List[len(y.Body.List)-1], "", nested)
				}
			}
			return !found
		})
	}
	for _, root := range nodes {
		walk(root, false)
	}
	return found
}
