package sends

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// keyDraws reports whether values of t (a struct type of this package,
// or a pointer, slice or array of one) name themselves: the struct has an
// exported field of string or bytes that every value the package gives
// is a fresh identifier drawn at random (`event{ID: newID(), ...}`
// wherever the package makes an event, `e.ID = uuid.NewString()`), so a
// body marshalled from such a value carries a key the server can
// deduplicate on. It returns where the identifiers are drawn, for the
// caller to check that none is drawn anew by each attempt.
func (m *layer) keyDraws(t types.Type) ([]token.Pos, bool) {
	for depth := 0; t != nil && depth < 4; depth++ {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		case *types.Array:
			t = u.Elem()
			continue
		}
		break
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != m.pass.Pkg {
		return nil, false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() || !waits.IDType(f.Type()) {
			continue
		}
		as := m.vals.Assigns[f]
		if len(as) == 0 {
			continue
		}
		var draws []token.Pos
		for _, a := range as {
			if a.Value == nil || !m.drawsID(a.Value) {
				draws = nil
				break
			}
			draws = append(draws, a.Pos)
		}
		if draws != nil {
			return draws, true
		}
	}
	return nil, false
}

// drawsID reports whether e is a fresh identifier drawn at random: such a
// call (IsFreshID), through conversions, or a method called on one
// (`uuid.New().String()`).
func (m *layer) drawsID(e ast.Expr) bool {
	for {
		call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		if tv, ok := m.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
			e = call.Args[0] // string(id)
			continue
		}
		if m.waits.IsFreshID(call) {
			return true
		}
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 0 {
			return false
		}
		if _, isCall := analysisutil.Unparen(sel.X).(*ast.CallExpr); !isCall {
			return false
		}
		e = sel.X
	}
}
