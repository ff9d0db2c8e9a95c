package model

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// bound is what an expression says about the number of attempts.
type bound struct {
	set      bool  // the expression determines the bound
	attempts int64 // 0: no attempt bound (unbounded or only time-bounded)
}

var (
	noBound   = bound{}
	unbounded = bound{set: true}
)

func attemptsBound(n int64) bound { return bound{set: true, attempts: n} }

// combine merges the bounds of several possible origins: the worst case.
func combine(bs []bound) bound {
	if len(bs) == 0 {
		return noBound
	}
	out := bs[0]
	for _, b := range bs[1:] {
		switch {
		case !b.set || !out.set:
			return noBound
		case b.attempts == 0 || out.attempts == 0:
			out = unbounded
		case b.attempts > out.attempts:
			out = b
		}
	}
	return out
}

// constInt evaluates e as an integer constant, also through package-level
// variables with constant values.
func (m *builder) constInt(e ast.Expr) (int64, bool) {
	in := m.newInterp()
	v, ok := in.eval(e, nil)
	if !ok || v.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	return n, exact
}

// boundOf evaluates the attempt bound configured by e: a backoff, a
// policy, a client, a wait.Backoff, or an option.
func (m *builder) boundOf(e ast.Expr) bound {
	return m.boundDepth(e, 0)
}

func (m *builder) boundDepth(e ast.Expr, depth int) bound {
	if depth > 10 || e == nil {
		return noBound
	}
	var bs []bound
	for _, o := range m.vals.Trace(e) {
		bs = append(bs, m.originBound(o, depth))
	}
	return combine(bs)
}

func (m *builder) originBound(o provenance.Origin, depth int) bound {
	// A write to an attempt field after the value was made wins:
	// c := retryablehttp.NewClient(); c.RetryMax = 2.
	if t, ok := m.pass.TypesInfo.Types[o.Expr]; ok {
		// A retry predicate that never returns true: one attempt,
		// whatever the attempt field says (CheckRetry returning false).
		if m.neverRetries(t.Type, o) {
			return attemptsBound(1)
		}
		if b, ok := m.fieldWrites(t.Type, o.Via); ok {
			return b
		}
	}
	switch x := analysisutil.Unparen(o.Expr).(type) {
	case *ast.CallExpr:
		fn := analysisutil.Callee(m.pass.TypesInfo, x)
		if fn == nil {
			return noBound
		}
		row := catalogRow(fn)
		if row == nil {
			return noBound
		}
		switch row.Role {
		case catalog.AttemptOption:
			if row.ValueArg >= len(x.Args) {
				return noBound
			}
			n, ok := m.constInt(x.Args[row.ValueArg])
			if !ok {
				return noBound
			}
			return attemptsFrom(n, row)
		case catalog.Unbounded:
			return unbounded
		case catalog.Constructor:
			return attemptsBound(row.Default)
		case catalog.Wrapper, catalog.RetryingClient:
			return m.innerBound(x, row, depth)
		}
	case *ast.CompositeLit:
		t := m.pass.TypesInfo.Types[x].Type
		if row := policyFieldRow(t); row != nil {
			if v, ok := litField(x, row.Name); ok && !m.pass.TypesInfo.Types[v].IsNil() {
				return m.boundDepth(v, depth+1)
			}
			if w := m.lastWrite(o.Via, row.Name); w != nil {
				return m.boundDepth(w.Value, depth+1)
			}
			return attemptsBound(1) // no retry policy: one attempt
		}
		for _, row := range fieldRows(t) {
			for _, elt := range x.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == row.Name {
					n, ok := m.constInt(kv.Value)
					if !ok {
						return noBound
					}
					return attemptsFrom(n, row)
				}
			}
			return attemptsBound(row.Default)
		}
	case *ast.Ident, *ast.SelectorExpr:
		if id, ok := x.(*ast.Ident); ok && m.vals.ZeroDecl[id] {
			for _, row := range fieldRows(m.pass.TypesInfo.ObjectOf(id).Type()) {
				return attemptsBound(row.Default)
			}
		}
		if obj := m.vals.ObjOf(x); obj != nil {
			if row := catalog.Lookup(analysisutil.PkgPath(obj), "", obj.Name()); row != nil && row.Role == catalog.KnownVar {
				return attemptsBound(row.Default)
			}
		}
	}
	return noBound
}

func attemptsFrom(n int64, row *catalog.Row) bound {
	if n <= 0 {
		switch {
		case row.ZeroMeans < 0:
			return unbounded
		case row.ZeroMeans > 0:
			return attemptsBound(row.ZeroMeans)
		}
	}
	n += row.Plus
	if n < 1 {
		n = 1
	}
	return attemptsBound(n)
}

func (m *builder) innerBound(call *ast.CallExpr, row *catalog.Row, depth int) bound {
	if row.InnerRecv {
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return m.boundDepth(sel.X, depth+1)
		}
		return noBound
	}
	if row.Inner >= 0 && row.Inner < len(call.Args) {
		return m.boundDepth(call.Args[row.Inner], depth+1)
	}
	if row.Role == catalog.RetryingClient {
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return m.boundDepth(sel.X, depth+1)
		}
	}
	return noBound
}

// namedOf returns the named type behind t (through a pointer), or nil.
func namedOf(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	return n.Origin().Obj()
}

// structRows returns the rows of role for the fields of the struct type t.
func structRows(t types.Type, role catalog.Role) []*catalog.Row {
	obj := namedOf(t)
	if obj == nil {
		return nil
	}
	var out []*catalog.Row
	for i := range catalog.Rows {
		r := &catalog.Rows[i]
		if r.Role == role && r.Recv == obj.Name() && r.Path == analysisutil.PkgPath(obj) {
			out = append(out, r)
		}
	}
	return out
}

// fieldRows returns the AttemptField rows of the struct type t.
func fieldRows(t types.Type) []*catalog.Row { return structRows(t, catalog.AttemptField) }

// fieldWrites looks for `x.Field = n` writes of an attempt field on the
// variables a value passed through; the last one in the source wins.
func (m *builder) fieldWrites(t types.Type, via []types.Object) (bound, bool) {
	rows := fieldRows(t)
	if len(rows) == 0 {
		return noBound, false
	}
	var best *provenance.FieldWrite
	var bestRow *catalog.Row
	for _, obj := range via {
		for i, w := range m.vals.FieldSet[obj] {
			for _, r := range rows {
				if w.Field == r.Name && (best == nil || w.Pos > best.Pos) {
					best, bestRow = &m.vals.FieldSet[obj][i], r
				}
			}
		}
	}
	if best == nil {
		return noBound, false
	}
	n, ok := m.constInt(best.Value)
	if !ok {
		return noBound, true
	}
	return attemptsFrom(n, bestRow), true
}

// siteBound evaluates the attempts of a catalogued retry call.
func (m *builder) siteBound(call *ast.CallExpr, row *catalog.Row) bound {
	switch {
	case row.BoundArg == -2:
		return attemptsBound(row.Default)
	case row.BoundArg == -1:
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return noBound
		}
		b := m.boundOf(sel.X)
		if !b.set && row.Default > 0 {
			return attemptsBound(row.Default)
		}
		return b
	case row.Variadic:
		// Do(f, opts...): the options of the slice literal opts holds.
		opts, ok := m.vals.Spread(call, min(row.BoundArg, len(call.Args)))
		if !ok {
			return noBound
		}
		b := attemptsBound(row.Default)
		never := false
		for _, a := range opts {
			// The last RetryIf decides: RetryIf(func(error) bool {
			// return false }) makes one attempt unless another follows.
			if n, ok := m.predicateOption(a); ok {
				never = n
			}
			if ab := m.boundOf(a); ab.set {
				b = ab
			}
		}
		if never {
			return attemptsBound(1)
		}
		return b
	default:
		if row.BoundArg >= len(call.Args) {
			return noBound
		}
		b := m.boundOf(call.Args[row.BoundArg])
		if !b.set && row.Default > 0 {
			return attemptsBound(row.Default)
		}
		return b
	}
}

// executorPolicies returns the retry policies of a failsafe-go executor
// expression, following With(...), Compose(...) and the executor's
// configuration methods.
func (m *builder) executorPolicies(e ast.Expr, depth int) (policies []ast.Expr, known bool) {
	if depth > 10 {
		return nil, false
	}
	known = true
	for _, o := range m.vals.Trace(e) {
		call, ok := analysisutil.Unparen(o.Expr).(*ast.CallExpr)
		if !ok {
			known = false
			continue
		}
		fn := analysisutil.Callee(m.pass.TypesInfo, call)
		row := (*catalog.Row)(nil)
		if fn != nil {
			row = catalogRow(fn)
		}
		if row == nil {
			known = false
			continue
		}
		switch row.Role {
		case catalog.Executor:
			policies = append(policies, call.Args...)
		case catalog.ExecutorWrapper:
			// The executor's policies wrap the ones a wrapper adds
			// (Compose(inner)): outermost first.
			if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				p, k := m.executorPolicies(sel.X, depth+1)
				policies = append(policies, p...)
				known = known && k
			}
			if row.BoundArg >= 0 {
				policies = append(policies, call.Args...)
			}
		default:
			known = false
		}
	}
	return policies, known
}

// isRetryPolicy reports whether e's type is a catalogued retry policy type.
func (m *builder) isRetryPolicy(e ast.Expr) bool {
	t := m.pass.TypesInfo.Types[e].Type
	for i := range catalog.Rows {
		r := &catalog.Rows[i]
		if r.Role == catalog.RetryPolicyType && analysisutil.IsNamedType(t, r.Path, r.Name) {
			return true
		}
	}
	return false
}

// policyFieldRow returns the PolicyField row of the struct type t.
func policyFieldRow(t types.Type) *catalog.Row {
	if rows := structRows(t, catalog.PolicyField); len(rows) > 0 {
		return rows[0]
	}
	return nil
}
