package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Config is a finding about how a library retry is configured: its delays
// have no jitter, it has no bound, or it does not wait at all.
type Config struct {
	Category string // "no-jitter", "no-bound", "no-delay"
	Pos, End token.Pos
	What     string // what is configured so: "backoff.NewConstantBackOff", "RandomizationFactor: 0"
	Lib      string // the retry it configures
	Fix      *Fix
}

// Fix is a mechanical, compiling change.
type Fix struct {
	Message string
	Edits   []analysis.TextEdit
}

func (m *builder) addConfig(c *Config) {
	for _, x := range m.result.Configs {
		if x.Pos == c.Pos && x.Category == c.Category {
			return
		}
	}
	m.result.Configs = append(m.result.Configs, c)
}

// libConfigs inspects the delay and bound configuration of a library
// retry site.
func (m *builder) libConfigs(r *Retry, call *ast.CallExpr) {
	row := r.Row
	switch row.Path {
	case catalog.CenkaltiV4:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			m.cenkalti(r, call.Args[row.BoundArg], false, false, true, 0)
		}
	case catalog.CenkaltiV5:
		var elapsed0 *ast.CallExpr
		maxTries := false
		for _, opt := range variadic(call, row.BoundArg) {
			for _, o := range m.vals.trace(opt) {
				c, fn := m.callOf(o.expr)
				switch {
				case fn == nil:
				case fn.Name() == "WithBackOff" && len(c.Args) == 1:
					m.cenkalti(r, c.Args[0], true, false, false, 0)
				case fn.Name() == "WithMaxTries":
					maxTries = true
				case fn.Name() == "WithMaxElapsedTime" && len(c.Args) == 1 && m.isZero(c.Args[0]):
					elapsed0 = c
				}
			}
		}
		if elapsed0 != nil && !maxTries {
			m.addConfig(&Config{Category: "no-bound", Pos: elapsed0.Pos(), End: elapsed0.End(), What: "WithMaxElapsedTime(0) without WithMaxTries", Lib: r.Describe()})
		}
	case catalog.RetryGo:
		for _, opt := range variadic(call, row.BoundArg) {
			for _, o := range m.vals.trace(opt) {
				c, fn := m.callOf(o.expr)
				if fn == nil {
					continue
				}
				switch fn.Name() {
				case "DelayType":
					if len(c.Args) == 1 {
						m.retryGoDelay(r, c.Args[0])
					}
				case "Attempts":
					if len(c.Args) == 1 && m.isZero(c.Args[0]) {
						m.addConfig(&Config{Category: "no-bound", Pos: c.Pos(), End: c.End(), What: "Attempts(0)", Lib: r.Describe()})
					}
				case "UntilSucceeded":
					m.addConfig(&Config{Category: "no-bound", Pos: c.Pos(), End: c.End(), What: "UntilSucceeded()", Lib: r.Describe()})
				}
			}
		}
	case catalog.SethRetry:
		if row.Jitter == catalog.JitterNone {
			m.addConfig(&Config{Category: "no-jitter", Pos: call.Fun.Pos(), End: call.Fun.End(), What: row.Lib, Lib: r.Describe()})
			return
		}
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			m.sethBackoff(r, call.Args[row.BoundArg], false, 0)
		}
	case catalog.RetryableHTTP, catalog.NetHTTP:
		m.retryableClient(r, call)
	case catalog.ResilintRetry:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			m.resilintPolicy(r, call.Args[row.BoundArg])
		}
	case catalog.K8sRetry:
		if row.BoundArg >= 0 && row.BoundArg < len(call.Args) {
			m.jitterField(r, call.Args[row.BoundArg])
		}
	}
}

func variadic(call *ast.CallExpr, from int) []ast.Expr {
	if from < 0 || from > len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	return call.Args[from:]
}

func (m *builder) callOf(e ast.Expr) (*ast.CallExpr, *types.Func) {
	c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return c, analysisutil.Callee(m.pass.TypesInfo, c)
}

func (m *builder) isZero(e ast.Expr) bool {
	tv := m.pass.TypesInfo.Types[e]
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
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

// lastWrite returns the last `v.field = x` write among the variables a
// value passed through.
func (m *builder) lastWrite(via []types.Object, field string) *fieldWrite {
	var best *fieldWrite
	for _, obj := range via {
		ws := m.vals.fieldSet[obj]
		for i := range ws {
			if ws[i].field == field && (best == nil || ws[i].pos > best.pos) {
				best = &ws[i]
			}
		}
	}
	return best
}

func replaceFix(msg string, e ast.Expr, text string) *Fix {
	return &Fix{Message: msg, Edits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(text)}}}
}

func insertFieldFix(msg string, lit *ast.CompositeLit, field, value string) *Fix {
	return &Fix{Message: msg, Edits: []analysis.TextEdit{{Pos: lit.Lbrace + 1, End: lit.Lbrace + 1, NewText: []byte(field + ": " + value + ", ")}}}
}

// qualifier returns the name by which the expression's package is written
// at e (the X of a selector), or "".
func qualifier(e ast.Expr) string {
	if sel, ok := analysisutil.Unparen(e).(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok {
		return qualifier(c.Fun)
	}
	if idx, ok := analysisutil.Unparen(e).(*ast.IndexExpr); ok {
		return qualifier(idx.X)
	}
	return ""
}

// cenkalti inspects a cenkalti/backoff BackOff value.
func (m *builder) cenkalti(r *Retry, e ast.Expr, bounded, ctx, v4 bool, depth int) {
	if depth > 8 {
		return
	}
	for _, o := range m.vals.trace(e) {
		switch x := analysisutil.Unparen(o.expr).(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(m.pass.TypesInfo, x)
			if fn == nil {
				continue
			}
			row := catalogRow(fn)
			if row == nil {
				continue
			}
			switch fn.Name() {
			case "WithMaxRetries":
				if len(x.Args) == 2 {
					m.cenkalti(r, x.Args[0], true, ctx, v4, depth+1)
				}
			case "WithContext":
				if len(x.Args) == 2 {
					m.cenkalti(r, x.Args[0], bounded, true, v4, depth+1)
				}
			case "NewConstantBackOff":
				m.addConfig(&Config{Category: "no-jitter", Pos: x.Pos(), End: x.End(), What: qualifier(x) + ".NewConstantBackOff", Lib: r.Describe()})
				if v4 && !bounded && !ctx {
					m.addConfig(&Config{Category: "no-bound", Pos: x.Pos(), End: x.End(), What: "a ConstantBackOff without WithMaxRetries", Lib: r.Describe()})
				}
			case "NewExponentialBackOff":
				jitterSet, elapsedSet := false, false
				for _, opt := range x.Args {
					c, ofn := m.callOf(opt)
					if ofn == nil || len(c.Args) != 1 {
						continue
					}
					switch ofn.Name() {
					case "WithRandomizationFactor":
						jitterSet = true
						if m.isZero(c.Args[0]) {
							m.addConfig(&Config{Category: "no-jitter", Pos: c.Pos(), End: c.End(), What: "WithRandomizationFactor(0)", Lib: r.Describe(),
								Fix: replaceFix("Set the randomization factor to 0.5", c.Args[0], "0.5")})
						}
					case "WithMaxElapsedTime":
						elapsedSet = true
						if m.isZero(c.Args[0]) && v4 && !bounded && !ctx {
							m.addConfig(&Config{Category: "no-bound", Pos: c.Pos(), End: c.End(), What: "WithMaxElapsedTime(0) without WithMaxRetries", Lib: r.Describe()})
						}
					}
				}
				if !jitterSet {
					m.jitterWrite(r, o.via, "RandomizationFactor")
				}
				if !elapsedSet && v4 && !bounded && !ctx {
					m.elapsedWrite(r, o.via)
				}
			}
		case *ast.CompositeLit:
			t := m.pass.TypesInfo.TypeOf(x)
			path := catalog.CenkaltiV5
			if v4 {
				path = catalog.CenkaltiV4
			}
			switch {
			case analysisutil.IsNamedType(t, path, "ExponentialBackOff"):
				if w := m.lastWrite(o.via, "RandomizationFactor"); w != nil {
					m.jitterWrite(r, o.via, "RandomizationFactor")
				} else if v, ok := litField(x, "RandomizationFactor"); !ok {
					m.addConfig(&Config{Category: "no-jitter", Pos: x.Pos(), End: x.End(), What: "an ExponentialBackOff without RandomizationFactor", Lib: r.Describe(),
						Fix: insertFieldFix("Set RandomizationFactor to 0.5", x, "RandomizationFactor", "0.5")})
				} else if m.isZero(v) {
					m.addConfig(&Config{Category: "no-jitter", Pos: v.Pos(), End: v.End(), What: "RandomizationFactor: 0", Lib: r.Describe(),
						Fix: replaceFix("Set RandomizationFactor to 0.5", v, "0.5")})
				}
				if v4 && !bounded && !ctx {
					if w := m.lastWrite(o.via, "MaxElapsedTime"); w != nil {
						m.elapsedWrite(r, o.via)
					} else if v, ok := litField(x, "MaxElapsedTime"); !ok || m.isZero(v) {
						m.addConfig(&Config{Category: "no-bound", Pos: x.Pos(), End: x.End(), What: "an ExponentialBackOff with MaxElapsedTime 0 and no WithMaxRetries", Lib: r.Describe()})
					}
				}
			case analysisutil.IsNamedType(t, path, "ZeroBackOff"):
				m.addConfig(&Config{Category: "no-delay", Pos: x.Pos(), End: x.End(), What: "ZeroBackOff", Lib: r.Describe()})
				if v4 && !bounded && !ctx {
					m.addConfig(&Config{Category: "no-bound", Pos: x.Pos(), End: x.End(), What: "a ZeroBackOff without WithMaxRetries", Lib: r.Describe()})
				}
			}
		}
	}
}

func (m *builder) jitterWrite(r *Retry, via []types.Object, field string) {
	if w := m.lastWrite(via, field); w != nil && m.isZero(w.value) {
		m.addConfig(&Config{Category: "no-jitter", Pos: w.pos, End: w.value.End(), What: field + " = 0", Lib: r.Describe(),
			Fix: replaceFix("Set "+field+" to 0.5", w.value, "0.5")})
	}
}

func (m *builder) elapsedWrite(r *Retry, via []types.Object) {
	if w := m.lastWrite(via, "MaxElapsedTime"); w != nil && m.isZero(w.value) {
		m.addConfig(&Config{Category: "no-bound", Pos: w.pos, End: w.value.End(), What: "MaxElapsedTime = 0 without WithMaxRetries", Lib: r.Describe()})
	}
}

// retryGoDelay inspects retry-go's DelayType argument.
func (m *builder) retryGoDelay(r *Retry, e ast.Expr) {
	info := m.pass.TypesInfo
	var fn *types.Func
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ = info.Uses[x].(*types.Func)
	case *ast.SelectorExpr:
		fn, _ = info.Uses[x.Sel].(*types.Func)
	}
	if fn == nil {
		return
	}
	row := catalogRow(fn)
	if row == nil || row.Jitter != catalog.JitterNone {
		return
	}
	q := qualifier(e)
	var fix *Fix
	if q != "" {
		fix = replaceFix("Combine the delay with "+q+".RandomDelay", e, fmt.Sprintf("%s.CombineDelay(%s.%s, %s.RandomDelay)", q, q, fn.Name(), q))
	}
	m.addConfig(&Config{Category: "no-jitter", Pos: e.Pos(), End: e.End(), What: "DelayType(" + fn.Name() + ") without RandomDelay", Lib: r.Describe(), Fix: fix})
}

// sethBackoff inspects a sethvargo/go-retry Backoff value.
func (m *builder) sethBackoff(r *Retry, e ast.Expr, jittered bool, depth int) {
	if depth > 8 {
		return
	}
	for _, o := range m.vals.trace(e) {
		c, fn := m.callOf(o.expr)
		if fn == nil {
			continue
		}
		row := catalogRow(fn)
		if row == nil {
			continue
		}
		j := jittered || row.Jitter == catalog.JitterAdds
		switch {
		case row.Role == catalog.Wrapper || row.Role == catalog.AttemptOption:
			if row.Inner >= 0 && row.Inner < len(c.Args) {
				m.sethBackoff(r, c.Args[row.Inner], j, depth+1)
			}
		case row.Role == catalog.Constructor && row.Jitter == catalog.JitterNone && !j:
			q := qualifier(c)
			var fix *Fix
			if q != "" && row.JitterFix != "" {
				fix = &Fix{Message: "Wrap the backoff in " + q + "." + row.JitterFix, Edits: []analysis.TextEdit{
					{Pos: c.Pos(), End: c.Pos(), NewText: []byte(q + "." + row.JitterFix + "(")},
					{Pos: c.End(), End: c.End(), NewText: []byte(")")},
				}}
			}
			m.addConfig(&Config{Category: "no-jitter", Pos: c.Pos(), End: c.End(), What: q + "." + fn.Name() + " without a jitter wrapper", Lib: r.Describe(), Fix: fix})
		}
	}
}

// retryableClient inspects the Backoff of the go-retryablehttp client
// behind a retrying send.
func (m *builder) retryableClient(r *Retry, call *ast.CallExpr) {
	if r.Row.BoundArg == -2 {
		// Package-level Get/Post: the default client waits DefaultBackoff.
		m.addConfig(&Config{Category: "no-jitter", Pos: call.Fun.Pos(), End: call.Fun.End(), What: "the default client's DefaultBackoff", Lib: r.Describe()})
		return
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	recv := sel.X
	if r.Through != "" {
		// net/http send of a StandardClient: look at the retryablehttp client.
		for _, o := range m.vals.trace(sel.X) {
			if c, fn := m.callOf(o.expr); fn != nil && fn.Name() == "StandardClient" {
				if s, ok := analysisutil.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					m.clientBackoff(r, s.X)
				}
			}
		}
		return
	}
	m.clientBackoff(r, recv)
}

func (m *builder) clientBackoff(r *Retry, recv ast.Expr) {
	for _, o := range m.vals.trace(recv) {
		var value ast.Expr
		var at ast.Node
		switch x := analysisutil.Unparen(o.expr).(type) {
		case *ast.CallExpr:
			fn := analysisutil.Callee(m.pass.TypesInfo, x)
			if fn == nil || !analysisutil.IsFunc(fn, catalog.RetryableHTTP, "NewClient") {
				continue
			}
			if w := m.lastWrite(o.via, "Backoff"); w != nil {
				value = w.value
			} else {
				at = x
			}
		case *ast.CompositeLit:
			if !analysisutil.IsNamedType(m.pass.TypesInfo.TypeOf(x), catalog.RetryableHTTP, "Client") {
				continue
			}
			if w := m.lastWrite(o.via, "Backoff"); w != nil {
				value = w.value
			} else if v, ok := litField(x, "Backoff"); ok {
				value = v
			} else {
				q := qualifier(x.Type)
				m.addConfig(&Config{Category: "no-jitter", Pos: x.Pos(), End: x.End(), What: "a client without Backoff (DefaultBackoff)", Lib: r.Describe(),
					Fix: insertFieldFix("Use "+q+".LinearJitterBackoff", x, "Backoff", q+".LinearJitterBackoff")})
				continue
			}
		default:
			continue
		}
		if at != nil {
			m.addConfig(&Config{Category: "no-jitter", Pos: at.Pos(), End: at.End(), What: "a client left on DefaultBackoff", Lib: r.Describe(), Fix: m.newClientFix(at.(*ast.CallExpr))})
			continue
		}
		if value != nil {
			if fn := funcValue(m.pass.TypesInfo, value); fn != nil {
				if row := catalogRow(fn); row != nil && row.Jitter == catalog.JitterNone {
					q := qualifier(value)
					var fix *Fix
					if q != "" {
						fix = replaceFix("Use "+q+".LinearJitterBackoff", value, q+".LinearJitterBackoff")
					}
					m.addConfig(&Config{Category: "no-jitter", Pos: value.Pos(), End: value.End(), What: "Backoff: " + fn.Name(), Lib: r.Describe(), Fix: fix})
				}
			}
		}
	}
}

func funcValue(info *types.Info, e ast.Expr) *types.Func {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[x.Sel].(*types.Func)
		return fn
	}
	return nil
}

// newClientFix inserts `c.Backoff = retryablehttp.LinearJitterBackoff`
// after `c := retryablehttp.NewClient()`.
func (m *builder) newClientFix(call *ast.CallExpr) *Fix {
	q := qualifier(call)
	for _, f := range m.pass.Files {
		if !(f.FileStart <= call.Pos() && call.Pos() < f.FileEnd) {
			continue
		}
		var fix *Fix
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || fix != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call {
				return fix == nil
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return false
			}
			col := m.pass.Fset.Position(as.Pos()).Column
			indent := strings.Repeat("\t", max(col-1, 0))
			fix = &Fix{Message: "Use " + q + ".LinearJitterBackoff", Edits: []analysis.TextEdit{{
				Pos: as.End(), End: as.End(), NewText: []byte("\n" + indent + id.Name + ".Backoff = " + q + ".LinearJitterBackoff"),
			}}}
			return false
		})
		return fix
	}
	return nil
}

// resilintPolicy inspects a runtime/retry Policy.
func (m *builder) resilintPolicy(r *Retry, e ast.Expr) {
	for _, o := range m.vals.trace(e) {
		var value ast.Expr
		if w := m.lastWrite(o.via, "Jitter"); w != nil {
			value = w.value
		} else if lit, ok := analysisutil.Unparen(o.expr).(*ast.CompositeLit); ok {
			value, _ = litField(lit, "Jitter")
		}
		if value == nil {
			continue
		}
		var obj types.Object
		switch x := analysisutil.Unparen(value).(type) {
		case *ast.Ident:
			obj = m.pass.TypesInfo.Uses[x]
		case *ast.SelectorExpr:
			obj = m.pass.TypesInfo.Uses[x.Sel]
		}
		if obj == nil || analysisutil.PkgPath(obj) != catalog.ResilintRetry {
			continue
		}
		if row := catalog.Lookup(catalog.ResilintRetry, "", obj.Name()); row != nil && row.Jitter == catalog.JitterNone {
			q := qualifier(value)
			var fix *Fix
			if q != "" {
				fix = replaceFix("Use "+q+".JitterFull", value, q+".JitterFull")
			}
			m.addConfig(&Config{Category: "no-jitter", Pos: value.Pos(), End: value.End(), What: "Jitter: JitterNone", Lib: r.Describe(), Fix: fix})
		}
	}
}

// jitterField inspects a struct literal whose JitterField row says its
// zero value means no jitter (wait.Backoff's Jitter).
func (m *builder) jitterField(r *Retry, e ast.Expr) {
	for _, o := range m.vals.trace(e) {
		lit, ok := analysisutil.Unparen(o.expr).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, row := range structRows(m.pass.TypesInfo.TypeOf(lit), catalog.JitterField) {
			if w := m.lastWrite(o.via, row.Name); w != nil {
				if m.isZero(w.value) {
					m.addConfig(&Config{Category: "no-jitter", Pos: w.pos, End: w.value.End(), What: row.Name + " = 0", Lib: r.Describe(),
						Fix: replaceFix("Set "+row.Name+" to "+row.FixValue, w.value, row.FixValue)})
				}
				continue
			}
			v, ok := litField(lit, row.Name)
			switch {
			case !ok:
				m.addConfig(&Config{Category: "no-jitter", Pos: lit.Pos(), End: lit.End(), What: "a " + qualifier(lit.Type) + "." + row.Recv + " without " + row.Name, Lib: r.Describe(),
					Fix: insertFieldFix("Set "+row.Name+" to "+row.FixValue, lit, row.Name, row.FixValue)})
			case m.isZero(v):
				m.addConfig(&Config{Category: "no-jitter", Pos: v.Pos(), End: v.End(), What: row.Name + ": 0", Lib: r.Describe(),
					Fix: replaceFix("Set "+row.Name+" to "+row.FixValue, v, row.FixValue)})
			}
		}
	}
}
