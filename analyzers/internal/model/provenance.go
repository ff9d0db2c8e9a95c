package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Values is the package's value provenance, for the layers built on the
// model (libconfig): where a value used in one place was made.
type Values struct{ v *values }

// Origin is one place a traced value was made: the expression, and the
// variables and fields it passed through on the way. An Expr that is an
// identifier or a selector could not be followed further (or is the zero
// value of a `var x T`).
type Origin struct {
	Expr ast.Expr
	Via  []types.Object
}

// FieldWrite is one `v.Field = value` write; Pos is where the write's
// left-hand side starts.
type FieldWrite struct {
	Field string
	Value ast.Expr
	Pos   token.Pos
}

// Trace follows e back to where its value was made: through local
// variables (to the last assignment before the use), struct fields and
// package variables (every value the package gives them), and helper
// functions of the package (their returns).
func (v *Values) Trace(e ast.Expr) []Origin {
	if v == nil {
		return nil
	}
	os := v.v.trace(e)
	out := make([]Origin, len(os))
	for i, o := range os {
		out[i] = Origin{Expr: o.expr, Via: o.via}
	}
	return out
}

// LastWrite returns the last `x.field = value` write to any of the
// variables a traced value passed through, or nil.
func (v *Values) LastWrite(via []types.Object, field string) *FieldWrite {
	if v == nil {
		return nil
	}
	w := v.v.lastWrite(via, field)
	if w == nil {
		return nil
	}
	return &FieldWrite{Field: w.field, Value: w.value, Pos: w.pos}
}

// lastWrite returns the last `v.field = x` write among the variables a
// value passed through.
func (v *values) lastWrite(via []types.Object, field string) *fieldWrite {
	var best *fieldWrite
	for _, obj := range via {
		ws := v.fieldSet[obj]
		for i := range ws {
			if ws[i].field == field && (best == nil || ws[i].pos > best.pos) {
				best = &ws[i]
			}
		}
	}
	return best
}

func (m *builder) lastWrite(via []types.Object, field string) *fieldWrite {
	return m.vals.lastWrite(via, field)
}

// litField returns the value of field name in a keyed composite literal.
func litField(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, true
			}
		}
	}
	return nil, false
}

func (m *builder) callOf(e ast.Expr) (*ast.CallExpr, *types.Func) {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return c, analysisutil.Callee(m.pass.TypesInfo, c)
}
