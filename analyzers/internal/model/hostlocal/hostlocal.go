package hostlocal

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// Analyzer is the host-local pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilhostlocal",
	Doc:        "find the functions whose every call stays on this host (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{provenance.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*LocalFact)(nil), (*DialsParamFact)(nil), (*StreamParamFact)(nil)},
}

// LocalFact is exported for every function of the package whose every
// call, in its own body and in the closures it holds, stays on this host.
// Binds: it binds a listener or dials a Unix socket on some path (through
// its callees too), so that an attempt that calls it reaches this host
// and no other; a function that binds nothing (a port parser, a buffer
// sizer) only keeps an attempt local.
//
// Memory: it binds nothing and touches only this process's memory (no
// goroutine, channel or wait for other goroutines; memory.go); Syncs: it
// locks, or reads or swaps atomically, memory other goroutines share.
type LocalFact struct {
	Binds  bool
	Memory bool
	Syncs  bool
	// Runs: the parameters, of function type, that it calls: a call of
	// it is local only given local functions there (funcparams.go).
	Runs []int
}

func (*LocalFact) AFact() {}

func (f *LocalFact) String() string {
	switch {
	case f.Binds:
		return "hostlocal"
	case f.Memory && f.Syncs:
		return "hostlocal(in memory, syncs)"
	}
	return "hostlocal(binds nothing)"
}

// DialsParamFact is exported for a function whose every call stays on
// this host but its dials to the address its string parameter Param
// holds (`func inUse(addr string) error { c, err := net.DialTimeout("tcp",
// addr, d); ... }`): given an address the same attempt binds, it dials
// this host.
type DialsParamFact struct {
	Param int
}

func (*DialsParamFact) AFact() {}

func (f *DialsParamFact) String() string { return fmt.Sprintf("dials(%d)", f.Param) }

// Result is the host-local layer of one package.
type Result struct {
	pass       *analysis.Pass
	local      map[*types.Func]bool // the package's functions whose every call stays on this host
	binds      map[*types.Func]bool // those of them that bind or dial on this host (LocalFact)
	memory     map[*types.Func]bool // those that touch only this process's memory (memory.go)
	syncs      map[*types.Func]bool // those of them that synchronize with other goroutines
	dialsParam map[*types.Func]int  // the package's functions with a DialsParamFact
	// streamParam: the package's functions with a StreamParamFact;
	// assumed: the parameter findStreamParams takes for this host's.
	streamParam map[*types.Func]int
	runParams   map[*types.Func][]int // the local functions that call parameters of theirs (LocalFact.Runs)
	assumed     *types.Var
	vals        *provenance.Values
	inClosure   map[*ast.FuncLit]bool // the closures localClosure is in
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{pass: pass, local: map[*types.Func]bool{}, binds: map[*types.Func]bool{}, dialsParam: map[*types.Func]int{}, streamParam: map[*types.Func]int{}}
	if analysisutil.IsStd(pass.Pkg.Path()) {
		return r, nil // judged by catalog rows
	}
	vals := pass.ResultOf[provenance.Analyzer].(*provenance.Values)
	r.vals = vals
	// Rounds: the local functions given the stream-parameter functions
	// known so far, then the stream-parameter functions given the local
	// ones, until neither grows (a parser of a reader becomes local where
	// a file is given to it, and its callers with it).
	for round := 0; round < maxStreamRounds; round++ {
		r.findLocal()
		if !r.findStreamParams() {
			break
		}
	}
	r.findMemory()
	for fn := range r.local {
		pass.ExportObjectFact(fn, &LocalFact{Binds: r.binds[fn], Memory: r.memory[fn], Syncs: r.syncs[fn], Runs: r.runParams[fn]})
	}
	for fn, d := range vals.Decls {
		if r.local[fn] || d.Body == nil {
			continue
		}
		if p, ok := r.dialsOnlyParam(fn, d.Body); ok {
			r.dialsParam[fn] = p
			pass.ExportObjectFact(fn, &DialsParamFact{Param: p})
		}
	}
	return r, nil
}

// maxStreamRounds bounds the rounds of run.
const maxStreamRounds = 4

// findLocal computes the greatest set of functions whose calls are all
// local, those of the package included (so mutually recursive helpers
// stay local): every function starts local, and one that makes a call
// that is not local, or calls a function of the package that is not,
// drops out. Each function drops at most once, over its reverse call
// edges; the functions that bind are found the same way from those that
// bind directly. Linear in the package. A call of a stream-parameter
// function given a stream of this host is local in itself.
func (r *Result) findLocal() {
	pass, vals := r.pass, r.vals
	r.local, r.binds, r.runParams = map[*types.Func]bool{}, map[*types.Func]bool{}, map[*types.Func][]int{}
	callers := map[*types.Func][]*types.Func{}
	var dropped, binding []*types.Func
	for fn, d := range vals.Decls {
		r.local[fn] = true
		if d.Body == nil {
			dropped = append(dropped, fn) // assembly: unknown
			continue
		}
		if runs := paramCalls(pass.TypesInfo, fn, d.Body); len(runs) > 0 {
			r.runParams[fn] = runs
		}
	}
	for fn, d := range vals.Decls {
		if d.Body == nil {
			continue
		}
		binds := false
		ok := everyCall(d.Body, func(c *ast.CallExpr) bool {
			if paramCall(pass.TypesInfo, fn, c) >= 0 {
				return true // judged where fn is called (funcparams.go)
			}
			if callee := analysisutil.Callee(pass.TypesInfo, c); callee != nil && vals.Decls[callee] != nil {
				if r.streamArgLocal(callee, c) {
					return true
				}
				named, ok := r.givenFuncs(callee, c)
				if !ok {
					return false
				}
				for _, g := range append(named, callee) {
					if vals.Decls[g.Origin()] != nil {
						callers[g.Origin()] = append(callers[g.Origin()], fn)
						continue
					}
					local, b := r.localFunc(g) // of another package
					if !local {
						return false
					}
					binds = binds || b
				}
				return true
			}
			local, b := r.localCall(c)
			binds = binds || b
			return local
		})
		if !ok {
			dropped = append(dropped, fn)
		} else if binds {
			binding = append(binding, fn)
		}
	}
	for len(dropped) > 0 {
		fn := dropped[len(dropped)-1]
		dropped = dropped[:len(dropped)-1]
		if r.local[fn] {
			delete(r.local, fn)
			dropped = append(dropped, callers[fn]...)
		}
	}
	for len(binding) > 0 {
		fn := binding[len(binding)-1]
		binding = binding[:len(binding)-1]
		if r.local[fn] && !r.binds[fn] {
			r.binds[fn] = true
			binding = append(binding, callers[fn]...)
		}
	}
}

// dialsOnlyParam reports whether every call of body stays on this host
// but dials whose address is one string parameter of fn, and which.
func (r *Result) dialsOnlyParam(fn *types.Func, body *ast.BlockStmt) (int, bool) {
	info := r.pass.TypesInfo
	params := fn.Type().(*types.Signature).Params()
	param := -1
	ok := everyCall(body, func(c *ast.CallExpr) bool {
		if local, _ := r.localCall(c); local {
			return true
		}
		addr := dialAddr(info, c)
		if addr == nil {
			return false
		}
		id, isID := analysisutil.Unparen(addr).(*ast.Ident)
		if !isID {
			return false
		}
		for i := range params.Len() {
			if info.Uses[id] == params.At(i) && (param < 0 || param == i) {
				param = i
				return true
			}
		}
		return false
	})
	return param, ok && param >= 0
}

// dialAddr returns the address argument of a catalog HostLocalDial call
// that names it, or nil.
func dialAddr(info *types.Info, call *ast.CallExpr) ast.Expr {
	return addrArg(info, call, catalog.HostLocalDial)
}

// addrArg returns the address argument of a standard-library call whose
// catalog row has the role (HostLocalDial, HostBind: the network at
// ValueArg, the address after it), or nil.
func addrArg(info *types.Info, call *ast.CallExpr, role catalog.Role) ast.Expr {
	fn := analysisutil.Callee(info, call)
	if fn == nil || !analysisutil.IsStd(analysisutil.PkgPath(fn)) {
		return nil
	}
	row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	if row == nil || row.Role != role || row.ValueArg < 0 || row.ValueArg+1 >= len(call.Args) {
		return nil
	}
	return call.Args[row.ValueArg+1]
}

// boundAddrs returns the variables the calls in nodes give a catalog
// HostBind as the address to bind (`net.Listen("tcp", addr)`): whatever
// they hold is an address of this host.
func (r *Result) boundAddrs(nodes []ast.Node) map[types.Object]bool {
	info := r.pass.TypesInfo
	out := map[types.Object]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := analysisutil.Unparen(addrArg(info, call, catalog.HostBind)).(*ast.Ident); ok {
				if obj := info.Uses[id]; obj != nil && !r.reassigned(obj, call.Pos(), nodes) {
					out[obj] = true
				}
			}
			return true
		})
	}
	return out
}

// reassigned reports whether obj is given a value in nodes other than
// one before pos (`a := pick(); net.Listen("tcp", a)` keeps a the bound
// address; `a = peer` later does not).
func (r *Result) reassigned(obj types.Object, pos token.Pos, nodes []ast.Node) bool {
	if r.vals == nil {
		return true
	}
	for _, a := range r.vals.Assigns[obj] {
		for _, n := range nodes {
			if n.Pos() <= a.Pos && a.Pos < n.End() && a.Pos > pos {
				return true
			}
		}
	}
	return false
}

// dialsBound reports whether call dials an address in bound: a catalog
// dial given it, or a function with a DialsParamFact given it there.
func (r *Result) dialsBound(call *ast.CallExpr, bound map[types.Object]bool) bool {
	info := r.pass.TypesInfo
	isBound := func(e ast.Expr) bool {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		return ok && bound[info.Uses[id]]
	}
	if addr := dialAddr(info, call); addr != nil {
		return isBound(addr)
	}
	fn := analysisutil.Callee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	p, ok := r.dialsParam[fn.Origin()]
	if fn.Pkg() != r.pass.Pkg {
		var f DialsParamFact
		ok = r.pass.ImportObjectFact(fn.Origin(), &f)
		p = f.Param
	}
	return ok && p < len(call.Args) && isBound(call.Args[p])
}

// Within reports whether an attempt made of nodes and funcs reaches this
// host and no other: every call in them stays on this host, and one of
// them binds a listener or dials a Unix socket, or the attempt contends
// only for this process's memory (InMemory). An attempt that calls
// nothing of either kind is not known to reach anything.
func (r *Result) Within(nodes []ast.Node, funcs []*types.Func) bool {
	binds := false
	for _, fn := range funcs {
		local, b := r.localFunc(fn)
		if !local {
			return false
		}
		binds = binds || b
	}
	// A dial to an address the attempt binds (`if _, err :=
	// net.Listen("tcp", addr); err != nil { inUse(addr) }`: is the port
	// taken?) dials this host.
	bound := r.boundAddrs(nodes)
	for _, n := range nodes {
		ok := everyRepeatedCall(n, func(c *ast.CallExpr) bool {
			local, b := r.localCall(c)
			if !local && len(bound) > 0 && r.dialsBound(c, bound) {
				local = true
			}
			binds = binds || b
			return local
		})
		if !ok {
			return false
		}
	}
	return binds || r.InMemory(nodes, funcs)
}

// localFunc reports whether fn stays on this host, and whether it binds.
// Functions of other packages are known by their LocalFact.
func (r *Result) localFunc(fn *types.Func) (local, binds bool) {
	if fn.Pkg() == r.pass.Pkg {
		return r.local[fn], r.binds[fn]
	}
	var f LocalFact
	if !r.pass.ImportObjectFact(fn.Origin(), &f) {
		return false, false
	}
	return true, f.Binds
}

// localCall reports whether call stays on this host, and whether it binds
// a listener or dials a Unix socket.
func (r *Result) localCall(call *ast.CallExpr) (local, binds bool) {
	info := r.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true, false // a conversion
	}
	switch fun := analysisutil.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return true, false // its body is inspected where it stands
	case *ast.Ident:
		if _, ok := info.Uses[fun].(*types.Builtin); ok {
			return true, false
		}
	}
	fn := analysisutil.Callee(info, call)
	if analysisutil.ReturnsNothing(info, call) && (fn != nil && analysisutil.IsInterfaceMethod(fn) || fn == nil && formats(info.TypeOf(call.Fun)) ||
		fn != nil && fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg && formats(fn.Type())) {
		// An interface method that returns nothing (a logging
		// facade's Warnf), or a function value or a function of
		// another package of a printf's shape that returns nothing (a
		// logf field, a leveled logger's V(3).Infof, whose sink the
		// model cannot see): it cannot fail the attempt, so what it
		// reaches is not what is retried. (Any other hook in a
		// function value stays unknown: it is the caller's code, run
		// on every pass.)
		return true, false
	}
	if fn == nil {
		if lit := r.heldClosure(call); lit != nil {
			return r.localClosure(lit)
		}
		return false, false // a function value: it may be anything
	}
	if fn.Pkg() == nil {
		return true, false // error's Error
	}
	path := analysisutil.PkgPath(fn)
	if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok && path == "net" && fn.Signature().Recv() != nil && r.localConn(sel.X, 0) {
		return true, false // conn.Write on a Unix socket this attempt dialed
	}
	if catalog.HostState(path, analysisutil.RecvTypeName(fn), fn.Name()) {
		return true, true // files, locks, processes of this host
	}
	if catalog.HostLocalPackages[path] {
		return true, false
	}
	if catalog.StreamPackages[path] {
		return r.localStream(call, fn, 0), false
	}
	if analysisutil.IsStd(path) {
		row := catalog.Lookup(path, analysisutil.RecvTypeName(fn), fn.Name())
		if row == nil {
			return false, false
		}
		switch row.Role {
		case catalog.HostLocal, catalog.Pure:
			return true, false
		case catalog.HostBind:
			return true, true
		case catalog.HostLocalDial:
			here := r.dialsHere(call, row)
			return here, here
		}
		return false, false
	}
	if analysisutil.IsInterfaceMethod(fn) {
		return false, false // an interface method: any implementation
	}
	if local, binds := r.localFunc(fn); local {
		named, ok := r.givenFuncs(fn, call)
		if !ok {
			return false, false
		}
		for _, g := range named {
			l, b := r.localFunc(g)
			if !l {
				return false, false
			}
			binds = binds || b
		}
		return true, binds
	}
	return r.streamArgLocal(fn, call), false
}

// formats reports whether t is a function type that ends in a format and
// its arguments (`func(level int, format string, args ...any)`): a
// printf's shape.
func formats(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || !sig.Variadic() || sig.Params().Len() < 2 {
		return false
	}
	n := sig.Params().Len()
	if b, ok := sig.Params().At(n - 2).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return false
	}
	s, ok := sig.Params().At(n - 1).Type().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := s.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}
