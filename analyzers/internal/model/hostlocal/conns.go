package hostlocal

// Calls an attempt makes through a closure it holds, and on a connection
// it dialed to this host.

import (
	"go/ast"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
)

// heldClosure returns the function literal call runs when it calls a
// local variable that is given that literal and nothing else
// (`signal := func() error {...}; err = signal()`), nil otherwise.
func (r *Result) heldClosure(call *ast.CallExpr) *ast.FuncLit {
	id, ok := analysisutil.Unparen(call.Fun).(*ast.Ident)
	if !ok || r.vals == nil {
		return nil
	}
	v, ok := r.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !provenance.IsLocal(v) || len(r.vals.Assigns[v]) != 1 {
		return nil
	}
	lit, _ := analysisutil.Unparen(r.vals.Assigns[v][0].Value).(*ast.FuncLit)
	return lit
}

// localClosure reports whether every call in the body of lit, a closure
// an attempt calls, stays on this host, and whether one binds or dials
// here. A closure that calls itself (through a variable it is given
// later) is not known to.
func (r *Result) localClosure(lit *ast.FuncLit) (local, binds bool) {
	if r.inClosure[lit] {
		return false, false
	}
	if r.inClosure == nil {
		r.inClosure = map[*ast.FuncLit]bool{}
	}
	r.inClosure[lit] = true
	defer delete(r.inClosure, lit)
	local = everyCall(lit.Body, func(c *ast.CallExpr) bool {
		l, b := r.localCall(c)
		binds = binds || b
		return l
	})
	return local, binds
}

// localConn reports whether e, the receiver of a method of package net
// (a net.Conn's Write, a *net.UnixConn's File), is a connection to this
// host: a local variable every value of which is a dial of a Unix socket
// or a loopback address (`conn, err := net.Dial("unix", socket)`), or
// such a connection asserted to its type (`uc := conn.(*net.UnixConn)`).
func (r *Result) localConn(e ast.Expr, depth int) bool {
	info := r.pass.TypesInfo
	if ta, ok := analysisutil.Unparen(e).(*ast.TypeAssertExpr); ok {
		e = ta.X // conn.(*net.UnixConn).WriteMsgUnix(...)
	}
	if _, ok := analysisutil.Unparen(e).(*ast.Ident); !ok || r.vals == nil || depth > maxStreamDepth {
		return false
	}
	return r.vals.Every(info, e, func(x ast.Expr) bool {
		switch x := analysisutil.Unparen(x).(type) {
		case *ast.TypeAssertExpr:
			return r.localConn(x.X, depth+1)
		case *ast.CallExpr:
			return r.DialsHere(x)
		}
		return false
	})
}

// loopbackAddr reports whether e is an address of this host's loopback
// interface (analysisutil.LoopbackAddr), itself or as every value of a
// local variable (`addr := fmt.Sprintf("127.0.0.1:%d", port)`).
func (r *Result) loopbackAddr(e ast.Expr) bool {
	info := r.pass.TypesInfo
	if r.vals == nil {
		return analysisutil.LoopbackAddr(info, e)
	}
	return r.vals.Every(info, e, func(x ast.Expr) bool { return analysisutil.LoopbackAddr(info, x) })
}

// DialsHere reports whether call, a dial with a catalog HostLocalDial row
// (net.Dial, DialTimeout, DialUnix), dials this host (dialsHere).
func (r *Result) DialsHere(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(r.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	row := catalog.Lookup(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name())
	return row != nil && row.Role == catalog.HostLocalDial && r.dialsHere(call, row)
}

// dialsHere reports whether call, a dial of row, reaches this host: a
// Unix-domain socket (a "unix..." network, a *net.UnixAddr's Network(),
// DialUnix) or an address of the loopback interface (loopbackAddr: a
// child process, a local agent).
func (r *Result) dialsHere(call *ast.CallExpr, row *catalog.Row) bool {
	info := r.pass.TypesInfo
	if row.ValueArg < 0 {
		return true
	}
	if row.ValueArg < len(call.Args) && analysisutil.UnixNetwork(info, call.Args[row.ValueArg]) {
		return true
	}
	return row.ValueArg+1 < len(call.Args) && r.loopbackAddr(call.Args[row.ValueArg+1])
}
