package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// StatusFieldsFact is exported for a package that stores the status code
// of an *http.Response in a field of a named struct type — an API error
// built from the response (`&APIError{Status: resp.StatusCode}`, or
// `e.Code = res.StatusCode`). Fields are "path.Type.Field" keys of the
// type that declares the field, so that the fact holds wherever the type
// is used (an alias of it, a package that only tests its errors). A loop
// that compares such a field of an error it picked out (errors.As) tells
// the response's statuses apart as if it compared the response's own.
type StatusFieldsFact struct {
	Fields []string
}

func (*StatusFieldsFact) AFact() {}

func (f *StatusFieldsFact) String() string {
	return "statusfields(" + strings.Join(f.Fields, ", ") + ")"
}

// findStatusFields gathers the status fields that the package's
// dependencies store (their facts) and that it stores itself, and exports
// its own.
func (m *builder) findStatusFields() {
	m.statusFields = map[string]bool{}
	for _, pf := range m.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*StatusFieldsFact); ok {
			for _, k := range f.Fields {
				m.statusFields[k] = true
			}
		}
	}
	info := m.pass.TypesInfo
	var own []string
	add := func(recv types.Type, field string) {
		k := statusFieldKey(recv, field)
		if k == "" || slices.Contains(own, k) {
			return
		}
		own = append(own, k)
		m.statusFields[k] = true
	}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				t := info.TypeOf(x)
				for _, e := range x.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok && isResponseStatus(info, kv.Value) {
						add(t, id.Name)
					}
				}
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) {
					return true
				}
				for i, l := range x.Lhs {
					sel, ok := l.(*ast.SelectorExpr)
					if !ok || !isResponseStatus(info, x.Rhs[i]) {
						continue
					}
					if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
						add(s.Recv(), sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
	if len(own) > 0 {
		slices.Sort(own)
		m.pass.ExportPackageFact(&StatusFieldsFact{Fields: own})
	}
}

// isResponseStatus reports whether e is the StatusCode of an
// http.Response (or a pointer to one).
func isResponseStatus(info *types.Info, e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" {
		return false
	}
	return isHTTPResponse(info.TypeOf(sel.X))
}

// statusFieldKey names field of the named struct type t (or a pointer to it):
// "path.Type.Field"; "" for an unnamed type.
func statusFieldKey(t types.Type, field string) string {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return ""
	}
	n = n.Origin()
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + field
}

// isStatusField reports whether sel reads a status field (StatusFieldsFact)
// of a value.
func (in *interp) isStatusField(sel *ast.SelectorExpr) bool {
	if len(in.statusFields) == 0 {
		return false
	}
	s, ok := in.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return false
	}
	return in.statusFields[statusFieldKey(s.Recv(), sel.Sel.Name)]
}

// findStatusVars finds the local variables that only ever hold a
// response's status: every value given them is `r.StatusCode` of one
// *http.Response variable r, or a constant (`var code int`, `code := 0`,
// for when no response came); none is changed in place (`code++`, `code
// += 1`), by a range clause or through its address. A comparison of such
// a variable tests r's status, as `r.StatusCode >= 500` would (a loop that
// copies the status before testing it: `if err == nil { code =
// resp.StatusCode }; if err != nil || code >= 500 { continue }`).
func findStatusVars(info *types.Info, vals *provenance.Values, files []*ast.File) map[types.Object]types.Object {
	changed := map[types.Object]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.IncDecStmt:
				changed[analysisutil.ReferredObject(info, x.X)] = true
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE && x.Tok != token.ASSIGN {
					for _, l := range x.Lhs {
						changed[analysisutil.ReferredObject(info, l)] = true
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{x.Key, x.Value} {
					if e != nil {
						changed[analysisutil.ReferredObject(info, e)] = true
					}
				}
			}
			return true
		})
	}
	out := map[types.Object]types.Object{}
	for obj, as := range vals.Assigns {
		v, ok := obj.(*types.Var)
		if !ok || !provenance.IsLocal(v) || vals.Elements[v] || changed[v] {
			continue
		}
		if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			continue
		}
		var resp types.Object
		only := true
		for _, a := range as {
			if a.Value == nil {
				only = false
				break
			}
			if id, ok := a.Value.(*ast.Ident); ok && vals.ZeroDecl[id] {
				continue // var code int
			}
			if tv, ok := info.Types[a.Value]; ok && tv.Value != nil {
				continue
			}
			sel, ok := analysisutil.Unparen(a.Value).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "StatusCode" || !isHTTPResponse(info.TypeOf(sel.X)) {
				only = false
				break
			}
			r := analysisutil.ReferredObject(info, sel.X)
			if r == nil || resp != nil && r != resp {
				only = false
				break
			}
			resp = r
		}
		if only && resp != nil {
			out[v] = resp
		}
	}
	return out
}
