package hostlocal

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// StreamParamFact is exported for functions whose every call stays on
// this host when the reader or writer their parameter Param holds is this
// host's (`func parse(r io.Reader)` that scans r with bufio): a call
// given a file (a buffer, a reader built on one) is local.
type StreamParamFact struct {
	Param int
}

func (*StreamParamFact) AFact() {}

func (f *StreamParamFact) String() string { return fmt.Sprintf("streams(%d)", f.Param) }

// findStreamParams finds the package's functions that are not local but
// whose every call stays on this host when their reader or writer
// parameter is this host's (`func parse(r io.Reader)` that scans r), and
// reports whether it found new ones.
func (r *Result) findStreamParams() bool {
	grew := false
	for fn, d := range r.vals.Decls {
		if r.local[fn] || d.Body == nil {
			continue
		}
		if _, done := r.streamParam[fn]; done {
			continue
		}
		params := fn.Signature().Params()
		for i := range params.Len() {
			p := params.At(i)
			if _, isIface := p.Type().Underlying().(*types.Interface); !isIface || analysisutil.IsErrorType(p.Type()) {
				continue
			}
			r.assumed = p
			ok := everyCall(d.Body, func(c *ast.CallExpr) bool {
				if callee := analysisutil.Callee(r.pass.TypesInfo, c); callee != nil && r.vals.Decls[callee] != nil {
					return r.local[callee] || r.streamArgLocal(callee, c)
				}
				local, _ := r.localCall(c)
				return local
			})
			r.assumed = nil
			if ok {
				r.streamParam[fn] = i
				r.pass.ExportObjectFact(fn, &StreamParamFact{Param: i})
				grew = true
				break
			}
		}
	}
	return grew
}

// streamArgLocal reports whether call calls a stream-parameter function
// (of this package, or of another by its StreamParamFact) with a stream
// of this host at that parameter.
func (r *Result) streamArgLocal(fn *types.Func, call *ast.CallExpr) bool {
	i, ok := r.streamParam[fn.Origin()]
	if !ok && fn.Pkg() != r.pass.Pkg {
		var f StreamParamFact
		if r.pass.ImportObjectFact(fn.Origin(), &f) {
			i, ok = f.Param, true
		}
	}
	return ok && i < len(call.Args) && r.localStreamValue(call.Args[i], 0)
}

// maxStreamDepth bounds how far localStream follows readers built from
// readers (bufio.NewReader(io.LimitReader(f, n))).
const maxStreamDepth = 8

// localStream reports whether a call of a package of
// catalog.StreamPackages (bufio, io: readers, writers and scanners that
// wrap another one) stays on this host: every reader or writer it is
// given, and for a method the value it is called on, is one of this
// host's (localStreamValue).
func (r *Result) localStream(call *ast.CallExpr, fn *types.Func, depth int) bool {
	if depth > maxStreamDepth {
		return false
	}
	info := r.pass.TypesInfo
	sig := fn.Signature()
	if sig.Recv() != nil {
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !r.localStreamValue(sel.X, depth+1) {
			return false
		}
	}
	for i, a := range call.Args {
		if call.Ellipsis.IsValid() && i == len(call.Args)-1 {
			continue // a slice of bytes, not a stream
		}
		pt := paramType(sig, i)
		if pt == nil {
			return false
		}
		if it, isIface := pt.Underlying().(*types.Interface); !isIface || it.Empty() {
			continue // bytes, a size, a split function; a value to decode into (any)
		}
		if tv, ok := info.Types[a]; ok && tv.IsNil() {
			continue
		}
		if !r.localStreamValue(a, depth+1) {
			return false
		}
	}
	return true
}

// localStreamValue reports whether the reader or writer e is this host's:
// of a concrete type of a package that stays on this host (an *os.File,
// a *bytes.Buffer, a *strings.Reader), or a stream built by a local
// stream call (bufio.NewScanner(f)), directly or through a local variable
// every value of which is one.
func (r *Result) localStreamValue(e ast.Expr, depth int) bool {
	if depth > maxStreamDepth {
		return false
	}
	info := r.pass.TypesInfo
	e = analysisutil.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if fn := analysisutil.Callee(info, call); fn != nil && catalog.StreamPackages[analysisutil.PkgPath(fn)] {
			return r.localStream(call, fn, depth)
		}
	}
	if id, ok := e.(*ast.Ident); ok && r.assumed != nil && info.Uses[id] == r.assumed {
		return true // the parameter findStreamParams takes for this host's
	}
	if id, ok := e.(*ast.Ident); ok && r.vals != nil {
		if v, ok := info.Uses[id].(*types.Var); ok && provenance.IsLocal(v) && !r.vals.Elements[v] {
			if as := r.vals.Assigns[v]; len(as) > 0 && streamType(v.Type()) {
				for _, a := range as {
					if a.Value == nil || !r.localStreamValue(a.Value, depth+1) {
						return false
					}
				}
				return true
			}
		}
	}
	t := info.TypeOf(e)
	if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
		t = tup.At(0).Type() // f of f, err := os.Open(name)
	}
	if t == nil {
		return false
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return false // any implementation, a connection among them
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return catalog.HostLocalPackages[path] || catalog.HostStatePackages[path]
}

// paramType is the type of the parameter the i'th argument of a call of
// sig is given to (the element type for a variadic tail), nil if none.
func paramType(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	switch {
	case sig.Variadic() && i >= n-1:
		if s, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	case i < n:
		return sig.Params().At(i).Type()
	}
	return nil
}

// streamType reports whether t is (a pointer to) a type of a package of
// catalog.StreamPackages (*bufio.Scanner, *io.SectionReader).
func streamType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && catalog.StreamPackages[n.Obj().Pkg().Path()]
}
