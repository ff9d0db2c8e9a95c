package waits

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// LibDelay says where a delay that is a backoff value's next wait
// (catalog NextDelay: jpillora/backoff's b.Duration(), cenkalti's
// b.NextBackOff(), wait.Backoff's Step()) gets its randomness: the
// value's jitter field, left out of the literal that made the value or
// written zero. It is set on a DelayShape only when the value has one
// origin, for the checks to word the finding and fix the field.
type LibDelay struct {
	Call  *ast.CallExpr     // the call of the method (b.Duration())
	Next  *catalog.Row      // the method that returns the wait
	Field *catalog.Row      // the value's JitterField row
	Lit   *ast.CompositeLit // the literal that leaves Field out (Value nil)
	Value ast.Expr          // Field's zero value, in the literal or a later write
}

// nextDelay returns the NextDelay row of the method call calls, and the
// receiver it is called on. A call through an interface (cenkalti's
// BackOff.NextBackOff) takes the row of the concrete type every origin
// of the receiver has, when they agree.
func (m *Result) nextDelay(call *ast.CallExpr) (*catalog.Row, ast.Expr) {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	s := m.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil, nil
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil, nil
	}
	if row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil && row.Role == catalog.NextDelay {
		return row, sel.X
	}

	if !types.IsInterface(m.pass.TypesInfo.TypeOf(sel.X)) {
		return nil, nil
	}
	var row *catalog.Row
	for _, o := range m.vals.Trace(sel.X) {
		n := namedOf(m.pass.TypesInfo.TypeOf(o.Expr))
		if n == nil || types.IsInterface(n) {
			return nil, nil
		}
		r := catalog.Lookup(analysisutil.PkgPath(n.Obj()), n.Obj().Name(), fn.Name())
		if r == nil || r.Role != catalog.NextDelay || row != nil && r != row {
			return nil, nil
		}
		row = r
	}
	return row, sel.X
}

// libJitter decides the randomness of the waits the NextDelay method row
// returns for the value recv: the row's own (a constant backoff), or the
// value's jitter field wherever every origin of recv sets it — a literal
// that leaves it out or gives a constant, a write after it, a
// constructor whose row says it waits no random delay. Anything else (a
// parameter, a value from another package, a field set from a
// variable) is JitterUnknown.
func (m *Result) libJitter(row *catalog.Row, recv ast.Expr) (Jitter, *LibDelay) {
	switch row.Jitter {
	case catalog.JitterNone, catalog.JitterZero:
		return JitterNone, nil
	case catalog.JitterHas, catalog.JitterAdds:
		return JitterFull, nil
	}
	var field *catalog.Row
	for i := range catalog.Rows {
		if r := &catalog.Rows[i]; r.Role == catalog.JitterField && r.Path == row.Path && r.Recv == row.Recv {
			field = r
		}
	}
	if field == nil {
		return JitterUnknown, nil
	}
	origins := m.vals.Trace(recv)
	if len(origins) == 0 {
		return JitterUnknown, nil
	}
	random, fixed := false, false
	var lib *LibDelay
	for _, o := range origins {
		var value ast.Expr
		var lit *ast.CompositeLit
		if w := m.vals.LastWrite(o.Via, field.Name); w != nil {
			value = w.Value
		} else {
			switch x := analysisutil.Unparen(o.Expr).(type) {
			case *ast.CompositeLit:
				if n := namedOf(m.pass.TypesInfo.TypeOf(x)); n == nil || n.Obj().Name() != row.Recv || analysisutil.PkgPath(n.Obj()) != row.Path {
					return JitterUnknown, nil
				}
				lit = x
				for _, e := range x.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						return JitterUnknown, nil // unkeyed: not read
					}
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field.Name {
						value = kv.Value
					}
				}
			case *ast.CallExpr:
				c := analysisutil.Callee(m.pass.TypesInfo, x)
				if c == nil {
					return JitterUnknown, nil
				}
				cr := catalog.Lookup(analysisutil.PkgPath(c), analysisutil.RecvTypeName(c), c.Name())
				switch {
				case cr == nil || cr.Role != catalog.Constructor:
					return JitterUnknown, nil
				case cr.Jitter == catalog.JitterNone:
					fixed = true
				case len(x.Args) == 0:
					random = true // the library's default randomizes
				default:
					return JitterUnknown, nil
				}
				continue
			default:
				return JitterUnknown, nil
			}
		}
		if value != nil {
			tv, ok := m.pass.TypesInfo.Types[value]
			if !ok || tv.Value == nil {
				return JitterUnknown, nil
			}
			if !zeroConst(tv.Value) {
				random = true
				continue
			}
		}
		fixed = true
		if len(origins) == 1 {
			lib = &LibDelay{Next: row, Field: field, Lit: lit, Value: value}
		}
	}
	switch {
	case random && fixed:
		return JitterUnknown, nil
	case random:
		return JitterFull, nil
	}
	return JitterNone, lib
}

// BackoffShape is the shape of the waits that the NextDelay method row
// returns for the backoff value v: a caller's argument for the backoff
// parameter of a retry (model.DelayParamFact.Next).
func (m *Result) BackoffShape(row *catalog.Row, v ast.Expr) DelayShape {
	sh := DelayShape{Next: row, NextRecv: v, Exponential: row.Grows, Capped: row.Capped}
	sh.Jitter, sh.Lib = m.libJitter(row, v)
	return sh
}

// zeroConst reports whether v is false or a numeric zero.
func zeroConst(v constant.Value) bool {
	switch v.Kind() {
	case constant.Bool:
		return !constant.BoolVal(v)
	case constant.Int, constant.Float:
		return constant.Sign(v) == 0
	}
	return false
}

// namedOf returns the named type of t or of what t points to.
func namedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}
