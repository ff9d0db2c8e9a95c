package httpstatus

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/textproto"
	"slices"
	"sort"
	"strconv"
	"strings"

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

// UnknownHeader stands for a header whose name the model cannot tell (a
// field a caller may set, a computed string): it may be any header, the
// come-back header among them.
const UnknownHeader = "*"

// setName names the header that a set given e as its key sets: the
// canonical name of a constant; "$N" for the function's parameter N,
// named where the function is called (resolveName); UnknownHeader for
// anything else.
func (b *builder) setName(u *unit, e ast.Expr) string {
	if name, ok := b.headerName(e); ok {
		return name
	}
	if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
		if i, ok := u.params[b.pass.TypesInfo.Uses[id]]; ok {
			return fmt.Sprintf("$%d", i)
		}
	}
	return UnknownHeader
}

// resolveName names, at call, a header that the callee's fact names:
// "$N" is the header its argument N names (setName in the caller); any
// other name is itself.
func (b *builder) resolveName(u *unit, call *ast.CallExpr, name string) string {
	i, ok := paramRef(name)
	if !ok {
		return name
	}
	if i < len(call.Args) {
		return b.setName(u, call.Args[i])
	}
	return UnknownHeader
}

// paramRef parses "$N".
func paramRef(name string) (int, bool) {
	if !strings.HasPrefix(name, "$") {
		return 0, false
	}
	i, err := strconv.Atoi(name[1:])
	return i, err == nil && i >= 0
}

// nonEmptyParam returns the index of the parameter that cond tests for
// a non-empty string (`k != ""`, `"" != k`, `len(k) > 0`), or -1: a
// header set under it, named by that parameter, is set whenever there is
// a header to set.
func (b *builder) nonEmptyParam(u *unit, cond ast.Expr) int {
	be, ok := analysisutil.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return -1
	}
	info := b.pass.TypesInfo
	param := func(e ast.Expr) int {
		if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
			if i, ok := u.params[info.Uses[id]]; ok {
				return i
			}
		}
		return -1
	}
	isConst := func(e ast.Expr, want string) bool {
		tv, ok := info.Types[e]
		return ok && tv.Value != nil && tv.Value.ExactString() == want
	}
	switch {
	case be.Op == token.NEQ && isConst(be.Y, `""`):
		return param(be.X)
	case be.Op == token.NEQ && isConst(be.X, `""`):
		return param(be.Y)
	case be.Op == token.GTR && isConst(be.Y, "0"):
		if c, ok := analysisutil.Unparen(be.X).(*ast.CallExpr); ok && len(c.Args) == 1 {
			if id, ok := analysisutil.Unparen(c.Fun).(*ast.Ident); ok {
				if bi, ok := info.Uses[id].(*types.Builtin); ok && bi.Name() == "len" {
					return param(c.Args[0])
				}
			}
		}
	}
	return -1
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
