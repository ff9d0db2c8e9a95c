package httpstatus

import (
	"go/ast"
	"go/constant"
	"go/types"
	"net/textproto"
	"slices"
	"sort"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

func (b *builder) status(u *unit, w *Write, e ast.Expr) {
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			w.Status = int(v)
		}
		return
	}
	if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
		if i, ok := u.params[b.pass.TypesInfo.ObjectOf(id)]; ok {
			w.StatusParam = i
		}
	}
}

func (b *builder) writer(u *unit, w *Write, e ast.Expr, s state, before []string) {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	var set []string
	if ok {
		if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
			w.Writer = obj
			if i, ok := u.params[obj]; ok {
				w.WriterParam = i
			}
			for k := range s {
				if k.owner == obj {
					set = append(set, k.header)
				}
			}
		}
	}
	set = append(set, before...)
	sort.Strings(set)
	w.Before = slices.Compact(set)
}

// headerOwner returns the variable whose headers e denotes: w for
// w.Header(), h for a header variable h (or the writer it was taken
// from), or w itself for a ResponseWriter w (a helper given w).
func (b *builder) headerOwner(u *unit, e ast.Expr) types.Object {
	info := b.pass.TypesInfo
	e = analysisutil.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		fn := analysisutil.Callee(info, call)
		if fn == nil || analysisutil.PkgPath(fn) != catalog.NetHTTP {
			return nil
		}
		row := catalog.LookupHTTP(catalog.NetHTTP, analysisutil.RecvTypeName(fn), fn.Name())
		if row == nil || row.Role != catalog.HTTPHeaderOf {
			return nil
		}
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		return b.headerOwner(u, sel.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	obj := info.ObjectOf(id)
	if obj == nil {
		return nil
	}
	if a, ok := u.alias[obj]; ok {
		return a
	}
	if isWriter(obj.Type()) || isHeader(obj.Type()) {
		return obj
	}
	return nil
}

func (b *builder) headerName(e ast.Expr) (string, bool) {
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value)), true
}

// factOf summarizes what u does to its ResponseWriter and Header
// parameters; nil when nothing.
func (b *builder) factOf(u *unit, sig *types.Signature) *RespFact {
	f := &RespFact{Sets: b.paramHeaders(u, u.exit, sig)}
	if !u.handler {
		for _, w := range u.writes {
			if w.WriterParam < 0 || len(f.Writes) >= maxFactEntries || (w.Status == 0 && w.StatusParam < 0) {
				continue
			}
			site := w.Site
			if site == "" {
				site = analysisutil.ShortPos(b.pass.Fset, w.Call.Pos())
			}
			f.Writes = append(f.Writes, FactWrite{Param: w.WriterParam, Status: w.Status, StatusParam: w.StatusParam, Before: w.Before, Site: site})
		}
	}
	f.SetsIfTrue = b.paramHeaders(u, u.exitTrue, sig)
	if len(f.Sets) == 0 && len(f.Writes) == 0 && len(f.SetsIfTrue) == 0 {
		return nil
	}
	return f
}

// paramHeaders lists, by parameter, the headers s holds set on u's
// ResponseWriter and Header parameters.
func (b *builder) paramHeaders(u *unit, s state, sig *types.Signature) []ParamHeaders {
	byParam := map[int][]string{}
	for k := range s {
		if i, ok := u.params[k.owner]; ok {
			byParam[i] = append(byParam[i], k.header)
		}
	}
	var out []ParamHeaders
	for i := range sig.Params().Len() {
		if hs := byParam[i]; len(hs) > 0 && len(out) < maxFactEntries {
			sort.Strings(hs)
			out = append(out, ParamHeaders{Param: i, Headers: hs})
		}
	}
	return out
}
