package libconfig

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// cenkalti reads a cenkalti/backoff BackOff value: bounded says an
// attempt bound wraps it, ctx a context; path is its major version's
// import path, v4 or earlier unless it is v5.
func (rd *reader) cenkalti(e ast.Expr, bounded, ctx bool, path string, depth int) {
	if depth > 8 {
		return
	}
	v4 := path != catalog.CenkaltiV5
	// Every setting of the value carries the wrappers around it.
	add := func(s *Setting) {
		s.AttemptBound, s.ContextBound = bounded, ctx
		rd.add(s)
	}
	for _, o := range rd.vals.Trace(e) {
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.CallExpr:
			row := catalogRow(analysisutil.Callee(rd.pass.TypesInfo, x))
			if row == nil {
				continue
			}
			switch row.Name {
			case "WithMaxRetries", "WithMaxTries":
				if len(x.Args) == 2 {
					// Before v4, a bound of 0 is no bound (ZeroMeans).
					rd.cenkalti(x.Args[0], row.ZeroMeans >= 0 || !rd.isZero(x.Args[1]), ctx, path, depth+1)
				}
			case "WithContext":
				if len(x.Args) == 2 {
					rd.cenkalti(x.Args[0], bounded, true, path, depth+1)
				}
			case "NewConstantBackOff":
				add(&Setting{Knob: Delay, Form: Call, Val: row, Node: x, Qual: qualifier(x)})
				if v4 {
					// v4 bounds time in the BackOff: a constant one has no bound.
					add(&Setting{Knob: Elapsed, Form: Absent, Val: row, Node: x})
				}
			case "NewExponentialBackOff":
				jitterSet, elapsedSet := false, false
				for _, opt := range x.Args {
					c, ofn := rd.callOf(opt)
					orow := catalogRow(ofn)
					if orow == nil || len(c.Args) != 1 {
						continue
					}
					switch orow.Name {
					case "WithRandomizationFactor":
						jitterSet = true
						add(&Setting{Knob: Jitter, Form: Call, Row: orow, Zero: rd.isZero(c.Args[0]), Node: c, Value: c.Args[0]})
					case "WithMaxElapsedTime":
						elapsedSet = true
						if v4 {
							add(&Setting{Knob: Elapsed, Form: Call, Row: orow, Zero: rd.isZero(c.Args[0]), Node: c, Value: c.Args[0]})
						}
					}
				}
				if !jitterSet {
					rd.fieldWrite(Jitter, o.Via, path, "ExponentialBackOff", "RandomizationFactor", bounded, ctx)
				}
				if !elapsedSet && v4 {
					rd.fieldWrite(Elapsed, o.Via, path, "ExponentialBackOff", "MaxElapsedTime", bounded, ctx)
				}
			}
		case *ast.CompositeLit:
			t := rd.pass.TypesInfo.TypeOf(x)
			switch {
			case analysisutil.IsNamedType(t, path, "ExponentialBackOff"):
				jrow := catalog.Lookup(path, "ExponentialBackOff", "RandomizationFactor")
				if w := rd.vals.LastWrite(o.Via, "RandomizationFactor"); w != nil {
					rd.fieldWrite(Jitter, o.Via, path, "ExponentialBackOff", "RandomizationFactor", bounded, ctx)
				} else if v, ok := litField(x, "RandomizationFactor"); !ok {
					add(&Setting{Knob: Jitter, Form: Absent, Row: jrow, Field: "RandomizationFactor", Node: x, Lit: x, Qual: qualifier(x.Type)})
				} else {
					add(&Setting{Knob: Jitter, Form: Field, Row: jrow, Field: "RandomizationFactor", Zero: rd.isZero(v), Node: v, Value: v, Lit: x})
				}
				if v4 {
					erow := catalog.Lookup(path, "ExponentialBackOff", "MaxElapsedTime")
					if w := rd.vals.LastWrite(o.Via, "MaxElapsedTime"); w != nil {
						rd.fieldWrite(Elapsed, o.Via, path, "ExponentialBackOff", "MaxElapsedTime", bounded, ctx)
					} else if v, ok := litField(x, "MaxElapsedTime"); !ok {
						add(&Setting{Knob: Elapsed, Form: Absent, Row: erow, Field: "MaxElapsedTime", Node: x, Lit: x})
					} else {
						add(&Setting{Knob: Elapsed, Form: Field, Row: erow, Field: "MaxElapsedTime", Zero: rd.isZero(v), Node: v, Value: v, Lit: x})
					}
				}
			case analysisutil.IsNamedType(t, path, "ZeroBackOff"):
				zrow := catalog.Lookup(path, "", "ZeroBackOff")
				add(&Setting{Knob: Delay, Form: Literal, Val: zrow, Node: x, Lit: x})
				if v4 {
					add(&Setting{Knob: Elapsed, Form: Absent, Val: zrow, Node: x})
				}
			}
		}
	}
}

// fieldWrite adds the last write of a catalogued field among the
// variables a value passed through.
func (rd *reader) fieldWrite(k Knob, via []types.Object, path, recv, field string, bounded, ctx bool) {
	w := rd.vals.LastWrite(via, field)
	if w == nil {
		return
	}
	rd.add(&Setting{Knob: k, Form: Write, Row: catalog.Lookup(path, recv, field), Field: field, Zero: rd.isZero(w.Value),
		Node: w.Value, Pos: w.Pos, End: w.Value.End(), Value: w.Value, AttemptBound: bounded, ContextBound: ctx})
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

// delayValue reads a delay function given to the option opt
// (retry-go's DelayType(retry.FixedDelay)).
func (rd *reader) delayValue(opt *catalog.Row, e ast.Expr) {
	switch analysisutil.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr:
	default:
		return
	}
	row := rd.objRow(e)
	if row == nil {
		return
	}
	rd.add(&Setting{Knob: Delay, Form: Value, Row: opt, Val: row, Node: e, Value: e, Qual: qualifier(e)})
}

// sethBackoff reads a sethvargo/go-retry Backoff value; jittered says a
// jitter wrapper is around it.
func (rd *reader) sethBackoff(e ast.Expr, jittered bool, depth int) {
	if depth > 8 {
		return
	}
	for _, o := range rd.vals.Trace(e) {
		c, fn := rd.callOf(o.Expr)
		row := catalogRow(fn)
		if row == nil {
			continue
		}
		j := jittered || row.Jitter == catalog.JitterAdds
		switch {
		case row.Role == catalog.Wrapper || row.Role == catalog.AttemptOption:
			if row.Inner >= 0 && row.Inner < len(c.Args) {
				rd.sethBackoff(c.Args[row.Inner], j, depth+1)
			}
		case row.Role == catalog.Constructor:
			rd.add(&Setting{Knob: Delay, Form: Call, Val: row, Node: c, Qual: qualifier(c), Jittered: j})
		}
	}
}

// retryableClient reads the Backoff of the go-retryablehttp client behind
// a retrying send.
func (rd *reader) retryableClient(call *ast.CallExpr) {
	field := catalog.Lookup(catalog.RetryableHTTP, "Client", "Backoff")
	def := catalog.Lookup(catalog.RetryableHTTP, "", "DefaultBackoff")
	if rd.r.Row.BoundArg == -2 {
		// Package-level Get/Post: the default client waits DefaultBackoff.
		rd.add(&Setting{Knob: Delay, Form: Implicit, Row: field, Field: "Backoff", Val: def, Node: call.Fun})
		return
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if rd.r.Through != "" {
		// net/http send of a StandardClient: read the retryablehttp client.
		for _, o := range rd.vals.Trace(sel.X) {
			c, fn := rd.callOf(o.Expr)
			if row := catalogRow(fn); row != nil && row.Role == catalog.RetryingClient {
				if s, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					rd.clientBackoff(s.X, field, def)
				}
			}
		}
		return
	}
	rd.clientBackoff(sel.X, field, def)
}

func (rd *reader) clientBackoff(recv ast.Expr, field, def *catalog.Row) {
	for _, o := range rd.vals.Trace(recv) {
		if rd.model.OneAttempt(o) {
			// One of the clients a field may hold that does not retry
			// (RetryMax 0, a CheckRetry that never returns true): it
			// waits no delay.
			continue
		}
		switch x := analysisutil.Unparen(o.Expr).(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(rd.pass.TypesInfo, x)
			if fn == nil || !analysisutil.IsFunc(fn, catalog.RetryableHTTP, "NewClient") {
				continue
			}
			w, unless := rd.defaultWrite(o.Via, "Backoff")
			if w != nil {
				rd.fieldValue(Delay, Write, field, "Backoff", w.Value)
			} else {
				rd.add(&Setting{Knob: Delay, Form: Absent, Row: field, Field: "Backoff", Val: def, Node: x, Qual: qualifier(x), Unless: unless})
			}
		case *ast.CompositeLit:
			if !analysisutil.IsNamedType(rd.pass.TypesInfo.TypeOf(x), catalog.RetryableHTTP, "Client") {
				continue
			}
			w, unless := rd.defaultWrite(o.Via, "Backoff")
			if w != nil {
				rd.fieldValue(Delay, Write, field, "Backoff", w.Value)
			} else if v, ok := litField(x, "Backoff"); ok {
				rd.fieldValue(Delay, Field, field, "Backoff", v)
			} else {
				rd.add(&Setting{Knob: Delay, Form: Absent, Row: field, Field: "Backoff", Val: def, Node: x, Lit: x, Qual: qualifier(x.Type), Unless: unless})
			}
		}
	}
}

// defaultWrite returns the last write of field among the variables via
// that holds when the caller sets nothing: writes made only when the
// value they write is not nil (nilGuarded) are passed over, and unless is
// the value of the last of them (nil when there is none). w is nil when
// no other write comes before: the literal's field or the default holds.
func (rd *reader) defaultWrite(via []types.Object, field string) (w *provenance.FieldWrite, unless ast.Expr) {
	w = rd.vals.LastWrite(via, field)
	for w != nil {
		g := rd.nilGuarded(w)
		if g == nil {
			return w, unless
		}
		if unless == nil {
			unless = g
		}
		w = rd.vals.LastWriteBefore(via, field, w.Pos)
	}
	return nil, unless
}

// nilGuarded returns, for a field write made only when the value it
// writes is not nil (`if cfg.Backoff != nil { c.Backoff = cfg.Backoff }`,
// with no else), that value: a caller that sets nothing leaves the
// field's default. nil otherwise.
func (rd *reader) nilGuarded(w *provenance.FieldWrite) ast.Expr {
	if w == nil || w.Value == nil {
		return nil
	}
	file := analysisutil.FileOf(rd.pass, w.Pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, w.Pos, w.Pos)
	for _, n := range path {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		if ifs.Else != nil || !(ifs.Body.Pos() <= w.Pos && w.Pos < ifs.Body.End()) {
			return nil
		}
		be, ok := analysisutil.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ {
			return nil
		}
		info := rd.pass.TypesInfo
		x := be.X
		if info.Types[x].IsNil() {
			x = be.Y
		} else if !info.Types[be.Y].IsNil() {
			return nil
		}
		if types.ExprString(analysisutil.Unparen(x)) != types.ExprString(analysisutil.Unparen(w.Value)) {
			return nil
		}
		return w.Value
	}
	return nil
}

// fieldValue adds a field set (Field or Write) to a catalogued function
// or constant value. The range is the value's.
func (rd *reader) fieldValue(k Knob, f Form, row *catalog.Row, field string, v ast.Expr) {
	val := rd.objRow(v)
	var via *types.Func
	if val == nil && k == Delay {
		val, via = rd.fallback(v)
	}
	if val == nil {
		if k == Delay {
			if own := rd.ownDelay(v); own != nil {
				rd.add(&Setting{Knob: k, Form: f, Row: row, Field: field, Node: v, Value: v, Qual: qualifier(v), Own: own})
			}
		}
		return
	}
	rd.add(&Setting{Knob: k, Form: f, Row: row, Field: field, Val: val, Node: v, Value: v, Qual: qualifier(v), Via: via})
}

// ownDelay returns the function that v, a delay function set as a
// field's value, is — a function literal, or a function of the package —
// when it computes every delay it returns with no random part: each
// return's shape (waits.Result.ShapeCounting, its parameters counted as
// the library's inputs: the bounds it is configured with, the attempt
// number, the response) has no jitter, and none is of a shape the model
// cannot see into. nil otherwise.
func (rd *reader) ownDelay(v ast.Expr) ast.Node {
	var fn ast.Node
	var typ *ast.FuncType
	var body *ast.BlockStmt
	switch x := analysisutil.Unparen(v).(type) {
	case *ast.FuncLit:
		fn, typ, body = x, x.Type, x.Body
	case *ast.Ident:
		f, ok := rd.pass.TypesInfo.Uses[x].(*types.Func)
		if !ok || f.Pkg() != rd.pass.Pkg {
			return nil
		}
		d := rd.vals.Decls[f]
		if d == nil || d.Body == nil {
			return nil
		}
		fn, typ, body = d, d.Type, d.Body
	default:
		return nil
	}
	params := map[types.Object]bool{}
	for _, fld := range typ.Params.List {
		for _, n := range fld.Names {
			if obj := rd.pass.TypesInfo.Defs[n]; obj != nil {
				params[obj] = true
			}
		}
	}
	w := rd.pass.ResultOf[waits.Analyzer].(*waits.Result)
	returns, fixed := 0, true
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) != 1 {
				fixed = false
				return false
			}
			returns++
			if w.ShapeCounting(x.Results[0], body, params).Jitter != waits.JitterNone {
				fixed = false
			}
		}
		return fixed
	})
	if returns == 0 || !fixed {
		return nil
	}
	return fn
}

// fallback reads a delay function of the package set as a field's value
// (`c.Backoff = backoffPolicy`): when some return of its body returns a
// call of a catalogued delay function with no jitter
// (`return retryablehttp.DefaultBackoff(min, max, n, resp)` after a
// Retry-After branch) and nothing in it draws a random number or calls a
// catalogued delay function that jitters, it waits that function's delay
// on that path. Its row, and the function.
func (rd *reader) fallback(v ast.Expr) (*catalog.Row, *types.Func) {
	info := rd.pass.TypesInfo
	id, ok := analysisutil.Unparen(v).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() != rd.pass.Pkg {
		return nil, nil
	}
	d := rd.vals.Decls[fn]
	if d == nil || d.Body == nil {
		return nil, nil
	}
	w := rd.pass.ResultOf[waits.Analyzer].(*waits.Result)
	var found *catalog.Row
	random := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			callee := analysisutil.Callee(info, x)
			if callee == nil {
				return true
			}
			if w.IsRandomCall(x, callee) {
				random = true
			}
			if row := catalogRow(callee); row != nil && row.Role == catalog.DelayOption && row.Jitter != catalog.JitterNone {
				random = true
			}
		case *ast.ReturnStmt:
			if len(x.Results) != 1 {
				return true
			}
			if c, ok := analysisutil.Unparen(x.Results[0]).(*ast.CallExpr); ok {
				if row := catalogRow(analysisutil.Callee(info, c)); row != nil && row.Role == catalog.DelayOption && row.Jitter == catalog.JitterNone && found == nil {
					found = row
				}
			}
		}
		return !random
	})
	if random || found == nil {
		return nil, nil
	}
	return found, fn
}

// resilintPolicy reads the Jitter of a runtime/retry Policy.
func (rd *reader) resilintPolicy(e ast.Expr) {
	for _, o := range rd.vals.Trace(e) {
		if w := rd.vals.LastWrite(o.Via, "Jitter"); w != nil {
			rd.fieldValue(Jitter, Write, nil, "Jitter", w.Value)
		} else if lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit); ok {
			if v, ok := litField(lit, "Jitter"); ok {
				rd.fieldValue(Jitter, Field, nil, "Jitter", v)
			}
		}
	}
}

// jitterField reads the JitterField rows of a struct literal
// (wait.Backoff's Jitter).
func (rd *reader) jitterField(e ast.Expr) {
	for _, o := range rd.vals.Trace(e) {
		lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, row := range structRows(rd.pass.TypesInfo.TypeOf(lit), catalog.JitterField) {
			if w := rd.vals.LastWrite(o.Via, row.Name); w != nil {
				rd.add(&Setting{Knob: Jitter, Form: Write, Row: row, Field: row.Name, Zero: rd.isZero(w.Value), Node: w.Value, Pos: w.Pos, End: w.Value.End(), Value: w.Value})
				continue
			}
			v, ok := litField(lit, row.Name)
			if !ok {
				rd.add(&Setting{Knob: Jitter, Form: Absent, Row: row, Field: row.Name, Node: lit, Lit: lit, Qual: qualifier(lit.Type)})
				continue
			}
			rd.add(&Setting{Knob: Jitter, Form: Field, Row: row, Field: row.Name, Zero: rd.isZero(v), Node: v, Value: v, Lit: lit})
		}
	}
}
