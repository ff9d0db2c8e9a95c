package model

import (
	"go/ast"
	"go/token"
	"go/types"
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

// Uncounted reports whether lit is a closure kept to run later (returned,
// stored in a field, a literal or a package variable): what it does is
// not done where it is written.
func (r *Result) Uncounted(lit *ast.FuncLit) bool {
	return r.b != nil && r.b.uncounted[lit]
}

// ExecutorPolicies returns the policies a failsafe-go executor
// expression was built with (failsafe.With(rp, cb).WithContext(ctx)),
// and whether every step of it was known.
func (r *Result) ExecutorPolicies(e ast.Expr) ([]ast.Expr, bool) {
	if r.b == nil {
		return nil, false
	}
	return r.b.executorPolicies(e, 0)
}

// IsRetryPolicy reports whether e is a retry policy of an executor (a
// value of a RetryPolicyType row's type).
func (r *Result) IsRetryPolicy(e ast.Expr) bool {
	return r.b != nil && r.b.isRetryPolicy(e)
}

// Decl returns the declaration of fn, a function of this package with a
// body, or nil.
func (r *Result) Decl(fn *types.Func) *ast.FuncDecl {
	if r.b == nil || fn == nil {
		return nil
	}
	return r.b.vals.decls[fn.Origin()]
}

// Decls returns the package's functions with a body.
func (r *Result) Decls() map[*types.Func]*ast.FuncDecl {
	if r.b == nil {
		return nil
	}
	return r.b.vals.decls
}

// Opaque reports whether the model treats the package as opaque (the
// standard library): it has no retries, and the layers built on the
// model state nothing about it either.
func (r *Result) Opaque() bool { return r.b == nil }
