package sends

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// NamedOnce reports whether the request s, sent by each attempt of r, is
// made from a value drawn at random once, before the retry (namedOnce):
// it names the logical request. Whether that stands in for a key header
// is the checks' decision.
func (r *Result) NamedOnce(rt *model.Retry, s *Send) bool {
	if r == nil || r.m == nil {
		return false
	}
	return r.m.namedOnce(rt, s)
}

// maxBodyDepth bounds how far namedOnce follows local variables.
const maxBodyDepth = 6

// namedOnce reports whether the request s, sent by each attempt of r,
// carries a key in what it is made from: an argument of the send (or of
// the call of the function that sends it) or of the call that built the
// request is made, before the retry, from a value drawn at random (a
// UUID, a random string: waits.FreshIDFact) — a body that names the
// logical request (`json.Marshal(batch{ID: newID(), ...})` once, then
// every attempt sends the same bytes), which the server can deduplicate
// on as on a header. A value drawn inside the retry differs from attempt
// to attempt and names nothing. So does a value of a type whose every
// value the package makes names itself (keyDraws: `[]event` where every
// event gets `ID: newID()` when it is queued), none named inside the
// retry. (NamedOnce is its exported form.)
func (m *layer) namedOnce(r *model.Retry, s *Send) bool {
	if r == nil {
		return false
	}
	pass, vals := m.pass, m.vals
	inRetry := func(pos token.Pos) bool {
		if r.Node.Pos() <= pos && pos < r.Node.End() {
			return true
		}
		for _, op := range r.Ops {
			if op.Pos() <= pos && pos < op.End() {
				return true
			}
		}
		return false
	}
	seen := map[types.Object]bool{}
	var walk func(e ast.Expr, depth int) bool
	walk = func(e ast.Expr, depth int) bool {
		if e == nil || depth > maxBodyDepth {
			return false
		}
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if m.waits.IsFreshID(x) && !inRetry(x.Pos()) {
					found = true
				}
			case *ast.Ident:
				v, ok := pass.TypesInfo.Uses[x].(*types.Var)
				if ok && !v.IsField() {
					// A value of a type the package always names
					// (event{ID: newID()}), drawn outside the retry.
					if draws, keyed := m.keyDraws(v.Type()); keyed && !slices.ContainsFunc(draws, inRetry) {
						found = true
						return false
					}
				}
				if !ok || !provenance.IsLocal(v) || seen[v] {
					return true
				}
				seen[v] = true
				for _, a := range vals.Assigns[v] {
					if inRetry(a.Pos) {
						continue // made anew by each attempt
					}
					val := a.Value
					if val == nil {
						val = multiValueRHS(pass, a.Pos)
					}
					if walk(val, depth+1) {
						found = true
						break
					}
				}
			}
			return !found
		})
		return found
	}
	var args []ast.Expr
	if s.Call != nil {
		args = append(args, s.Call.Args...)
	}
	if s.Build != nil {
		args = append(args, s.Build.Args...)
	}
	for _, a := range args {
		if walk(a, 0) {
			return true
		}
	}
	return false
}

// multiValueRHS returns the call a variable is given one result of (`b,
// err := json.Marshal(v)`), from the position of its assignment.
func multiValueRHS(pass *analysis.Pass, pos token.Pos) ast.Expr {
	file := analysisutil.FileOf(pass, pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	for _, n := range path {
		if as, ok := n.(*ast.AssignStmt); ok {
			if len(as.Rhs) == 1 {
				return as.Rhs[0]
			}
			return nil
		}
		if vs, ok := n.(*ast.ValueSpec); ok {
			if len(vs.Values) == 1 {
				return vs.Values[0]
			}
			return nil
		}
	}
	return nil
}
