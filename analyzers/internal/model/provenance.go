package model

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

func (m *builder) lastWrite(via []types.Object, field string) *provenance.FieldWrite {
	return m.vals.LastWrite(via, field)
}

func litField(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	return provenance.LitField(lit, name)
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
	return r.b.vals.Decls[fn.Origin()]
}

// Decls returns the package's functions with a body.
func (r *Result) Decls() map[*types.Func]*ast.FuncDecl {
	if r.b == nil {
		return nil
	}
	return r.b.vals.Decls
}

// Opaque reports whether the model treats the package as opaque (the
// standard library): it has no retries, and the layers built on the
// model state nothing about it either.
func (r *Result) Opaque() bool { return r.b == nil }

// Eval evaluates a constant expression as the interpreter does: constant
// expressions, named constants and package-level variables with a
// constant initializer that nothing writes (provenance.ConstFact).
func (r *Result) Eval(e ast.Expr) (constant.Value, bool) {
	if r.b == nil {
		return nil, false
	}
	m := r.b
	in := m.newInterp()
	return in.eval(e, nil)
}

// OneAttempt reports whether the value made at o (a client, a backoff or
// a policy, as provenance traced it) is configured to make one attempt:
// an attempt field that allows none again (`RetryMax = 0`), or a retry
// predicate that never returns true (`CheckRetry` returning false). A
// value given to a field with other values besides is judged origin by
// origin: only those that retry are configurations of the retry.
func (r *Result) OneAttempt(o provenance.Origin) bool {
	if r.b == nil {
		return false
	}
	b := r.b.originBound(o, 0)
	return b.set && b.attempts == 1
}
