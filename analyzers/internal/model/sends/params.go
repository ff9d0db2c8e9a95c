package sends

// Headers and retries a helper takes from its caller's arguments.

import (
	"go/ast"
	"go/types"
	"net/http"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// givenHeaders returns the headers a call gives a function that sets its
// caller's headers on the request it sends (f's HeaderSets, HeaderNames),
// read from the arguments: known ones by name, the rest open.
func (m *layer) givenHeaders(f *SendFact, call *ast.CallExpr) []HeaderWrite {
	var out []HeaderWrite
	for _, i := range f.HeaderSets {
		if i < len(call.Args) {
			out = append(out, m.headerSet(call.Args[i], call.Pos(), 0)...)
		}
	}
	for _, h := range f.HeaderNames {
		if h.Name >= len(call.Args) {
			continue
		}
		var v ast.Expr
		if h.Value >= 0 && h.Value < len(call.Args) {
			v = call.Args[h.Value]
		}
		if name, ok := m.constString(call.Args[h.Name]); ok {
			out = append(out, HeaderWrite{Name: http.CanonicalHeaderKey(name), Value: v, Pos: call.Pos()})
		} else {
			out = append(out, HeaderWrite{NameExpr: call.Args[h.Name], Value: v, Pos: call.Pos()})
		}
	}
	if f.HeadersUnknown {
		out = append(out, HeaderWrite{From: call, Pos: call.Pos()})
	}
	return out
}

// openHeaders records in f where the open headers of a request fn sends
// come from: parameters of fn, or somewhere the model cannot read.
func (m *layer) openHeaders(f *SendFact, fn *types.Func, hs []HeaderWrite) {
	info := m.pass.TypesInfo
	params := fn.Type().(*types.Signature).Params()
	seenSet := map[int]bool{}
	seenName := map[HeaderName]bool{}
	for _, h := range hs {
		switch {
		case h.Name != "":
		case h.From != nil:
			if i := analysisutil.ParamIndex(info, fn, h.From); i >= 0 && isHeaderSet(params.At(i).Type()) {
				if !seenSet[i] {
					seenSet[i] = true
					f.HeaderSets = append(f.HeaderSets, i)
				}
				continue
			}
			f.HeadersUnknown = true
		case h.NameExpr != nil:
			if i := analysisutil.ParamIndex(info, fn, h.NameExpr); i >= 0 {
				hn := HeaderName{Name: i, Value: -1}
				if h.Value != nil {
					hn.Value = analysisutil.ParamIndex(info, fn, h.Value)
				}
				if !seenName[hn] {
					seenName[hn] = true
					f.HeaderNames = append(f.HeaderNames, hn)
				}
				continue
			}
			f.HeadersUnknown = true
		default:
			f.HeadersUnknown = true
		}
	}
}

// ownRetry returns the retry of the function declared by d whose attempts
// send s again, or nil.
func (m *layer) ownRetry(d *ast.FuncDecl, s *Send) *model.Retry {
	if s.Call == nil {
		return nil
	}
	for _, r := range m.res.Retries {
		if r.ClientErrors || r.NotDone || r.Node.Pos() < d.Body.Pos() || r.Node.End() > d.Body.End() {
			continue
		}
		if r.Kind == model.ClientRetry {
			if r.Node == ast.Node(s.Call) {
				return r
			}
			continue
		}
		for _, op := range r.Ops {
			if op.Pos() <= s.Call.Pos() && s.Call.End() <= op.End() {
				if r.Kind == model.LoopRetry && model.SentOnce(m.pass.TypesInfo, r, s.Call) {
					continue
				}
				return r
			}
		}
	}
	return nil
}
