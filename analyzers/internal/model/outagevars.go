package model

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// OutageFact is exported for a package-level error variable made as a
// failure that an outage or an overload gives every client: a gRPC
// status of code Unavailable, ResourceExhausted or DeadlineExceeded
// (`status.Error(codes.Unavailable, "no leader")`, `status.New(code,
// msg).Err()`), or a value made from one such variable alone
// (`ErrNoLeader = toClientError(ErrGRPCNoLeader)`, `fmt.Errorf("...: %w",
// ErrGRPCNoLeader)`: a call whose only error argument it is, with
// constants besides). A retry that goes round only on such an error is
// no retry of its request's own state, as one on a catalog Outage row is
// not (Retry.Specific).
type OutageFact struct{}

func (*OutageFact) AFact() {}

func (*OutageFact) String() string { return "outage" }

// outageCodes are the gRPC codes of failures every client meets in an
// outage or an overload.
var outageCodes = map[int64]bool{4: true, 8: true, 14: true} // DeadlineExceeded, ResourceExhausted, Unavailable

// findOutageVars computes the package's outage variables, in rounds (one
// may be made from another declared later), and exports their facts.
func (m *builder) findOutageVars() {
	m.outageVars = map[*types.Var]bool{}
	info := m.pass.TypesInfo
	var specs []*ast.ValueSpec
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
						specs = append(specs, vs)
					}
				}
			}
		}
	}
	for round := 0; round < 4; round++ {
		changed := false
		for _, vs := range specs {
			for i, id := range vs.Names {
				v, ok := info.Defs[id].(*types.Var)
				if !ok || m.outageVars[v] || !analysisutil.IsErrorType(v.Type()) && !types.Implements(v.Type(), errorIface) {
					continue
				}
				if m.outageValue(vs.Values[i]) {
					m.outageVars[v] = true
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for v := range m.outageVars {
		m.pass.ExportObjectFact(v, &OutageFact{})
	}
}

// outageValue reports whether e makes an outage error (see OutageFact).
func (m *builder) outageValue(e ast.Expr) bool {
	info := m.pass.TypesInfo
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return false
	}
	const status = "google.golang.org/grpc/status"
	// status.Status is an alias of the internal package's type, whose
	// method Err is.
	if analysisutil.IsMethod(fn, status, "Status", "Err") || analysisutil.IsMethod(fn, "google.golang.org/grpc/internal/status", "Status", "Err") {
		// status.New(codes.Unavailable, msg).Err()
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		inner, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		in := analysisutil.Callee(info, inner)
		return (analysisutil.IsFunc(in, status, "New") || analysisutil.IsFunc(in, status, "Newf")) && m.outageCode(inner)
	}
	if analysisutil.IsFunc(fn, status, "Error") || analysisutil.IsFunc(fn, status, "Errorf") {
		return m.outageCode(call)
	}
	// A value made from one outage variable alone.
	from := false
	for _, a := range call.Args {
		tv, ok := info.Types[a]
		if !ok {
			return false
		}
		if tv.Value != nil {
			continue
		}
		if !analysisutil.IsErrorType(tv.Type) && !types.Implements(tv.Type, errorIface) || from || !m.isOutageVar(analysisutil.ReferredObject(info, a)) {
			return false
		}
		from = true
	}
	return from
}

// outageCode reports whether call's first argument is a constant gRPC
// code of an outage.
func (m *builder) outageCode(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	tv, ok := m.pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value == nil || !analysisutil.IsNamedType(tv.Type, "google.golang.org/grpc/codes", "Code") {
		return false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return exact && outageCodes[n]
}

// isOutageVar reports whether obj is an outage variable: a catalog Outage
// row, one of this package's, or one with an OutageFact.
func (m *builder) isOutageVar(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || v.Pkg() == nil || v.IsField() || v.Parent() != v.Pkg().Scope() {
		return false
	}
	if row := catalog.Lookup(v.Pkg().Path(), "", v.Name()); row != nil && row.Role == catalog.Outage {
		return true
	}
	if v.Pkg() == m.pass.Pkg {
		return m.outageVars[v]
	}
	return m.pass.ImportObjectFact(v, new(OutageFact))
}
