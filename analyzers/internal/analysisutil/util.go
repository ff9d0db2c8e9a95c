// Package analysisutil holds small helpers shared by resilint's passes:
// recognising functions by package path and name (never by spelling),
// extracting an analyzer's documentation from its doc.go, and formatting
// positions for facts that cross process boundaries.
package analysisutil

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// ReferredObject returns the object that e, an identifier or a selector
// (pkg.Name, x.field), refers to; nil for any other expression or an
// identifier that declares rather than uses.
func ReferredObject(info *types.Info, e ast.Expr) types.Object {
	switch x := Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	}
	return nil
}

// IsInterfaceMethod reports whether fn is a method of an interface (or of
// a type parameter's constraint): a call of it may run any implementation.
func IsInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// PkgPath returns the import path of obj's package with any vendor
// prefix removed, or "" for universe objects.
func PkgPath(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	return TrimVendor(obj.Pkg().Path())
}

// TrimVendor removes a leading ".../vendor/" from an import path.
func TrimVendor(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	return strings.TrimPrefix(path, "vendor/")
}

// Callee returns the function or method called by call, resolved through
// generic instantiation to its origin, or nil for calls of function values,
// builtins and conversions.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// RecvTypeName returns the name of the named type that declares method fn
// (looking through pointers), or "" if fn is not a method. For interface
// methods it is the interface's name.
func RecvTypeName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Origin().Obj().Name()
	case *types.Interface:
		// A method of an interface literal or an embedded interface: look for
		// the named type through the method's position is not possible here.
		return ""
	}
	return ""
}

// IsFunc reports whether fn is the package-level function path.name.
func IsFunc(fn *types.Func, path, name string) bool {
	return fn != nil && fn.Name() == name && PkgPath(fn) == path && RecvTypeName(fn) == "" && !isMethod(fn)
}

// IsMethod reports whether fn is the method recv.name declared in package path
// (recv is the receiver's type name, pointer or not).
func IsMethod(fn *types.Func, path, recv, name string) bool {
	return fn != nil && fn.Name() == name && PkgPath(fn) == path && isMethod(fn) && RecvTypeName(fn) == recv
}

func isMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil
}

// IsPkgVar reports whether obj is the package-level variable name of the
// package path (`context.Canceled`).
func IsPkgVar(obj types.Object, path, name string) bool {
	v, ok := obj.(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && PkgPath(v) == path && v.Name() == name
}

// IsBool reports whether t's underlying type is a boolean.
func IsBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// IsNamedType reports whether t (looking through pointers and aliases) is
// the named type path.name.
func IsNamedType(t types.Type, path, name string) bool {
	if t == nil {
		return false
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Name() == name && PkgPath(obj) == path
}

// Imports reports whether pkg imports path, directly.
func Imports(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if TrimVendor(imp.Path()) == path {
			return true
		}
	}
	return false
}

// ImportsAny reports whether pkg (directly) imports any of paths.
func ImportsAny(pkg *types.Package, paths ...string) bool {
	for _, p := range paths {
		if Imports(pkg, p) {
			return true
		}
	}
	return false
}

// Unparen strips parentheses.
func Unparen(e ast.Expr) ast.Expr { return astutil.Unparen(e) }

// FuncIdent returns the identifier that names a call's function (`f` in
// `f(x)`, `Sel` in `x.Sel(y)`), or nil for any other function
// expression (a literal, a call's result, an index).
func FuncIdent(fun ast.Expr) *ast.Ident {
	switch f := Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// ShortPos formats pos as "file.go:line" (base name only), the form facts
// carry across processes.
func ShortPos(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return "?"
	}
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// FuncName returns a short, readable name for fn: "pkg.F" or "pkg.(*T).M",
// with the package's last path element. If from is fn's own package the
// package qualifier is dropped.
func FuncName(fn *types.Func, from *types.Package) string {
	qual := func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		recv := sig.Recv().Type()
		ptr := ""
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
			ptr = "*"
		}
		name := types.TypeString(recv, qual)
		if i := strings.IndexByte(name, '['); i >= 0 {
			name = name[:i]
		}
		if ptr != "" {
			return "(" + ptr + name + ")." + fn.Name()
		}
		return name + "." + fn.Name()
	}
	if fn.Pkg() == nil || fn.Pkg() == from {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// ErrorType is the universe error type.
var ErrorType = types.Universe.Lookup("error").Type()

// IsErrorType reports whether t is the error interface.
func IsErrorType(t types.Type) bool {
	return t != nil && types.Identical(t, ErrorType)
}

// ReturnsNothing reports whether call's function, static, an interface
// method or a function value (of a named func type too), has no results.
// A conversion is no call.
func ReturnsNothing(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return false
	}
	t := info.TypeOf(call.Fun)
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 0
}

// GoEvaluated returns what the go statement g evaluates in the calling
// goroutine: the receiver of a method value it starts, and the call's
// arguments. The called function itself runs beside the caller.
func GoEvaluated(g *ast.GoStmt) []ast.Expr {
	var in []ast.Expr
	if sel, ok := Unparen(g.Call.Fun).(*ast.SelectorExpr); ok {
		in = append(in, sel.X)
	}
	return append(in, g.Call.Args...)
}

// UnixNetwork reports whether e names a Unix-domain socket network: a
// constant "unix...", or the Network() of a *net.UnixAddr.
func UnixNetwork(info *types.Info, e ast.Expr) bool {
	if c, ok := Unparen(e).(*ast.CallExpr); ok {
		return IsMethod(Callee(info, c), "net", "UnixAddr", "Network")
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	return strings.HasPrefix(constant.StringVal(tv.Value), "unix")
}

// LoopbackAddr reports whether e is a "host:port" address of this host's
// loopback interface ("127.0.0.1:7070", "localhost:7070", "[::1]:7070"):
// a constant, a fmt.Sprintf whose constant format names such a host
// before the port's verb (`fmt.Sprintf("127.0.0.1:%d", port)`), or
// net.JoinHostPort given such a host as a constant.
func LoopbackAddr(info *types.Info, e ast.Expr) bool {
	if c, ok := Unparen(e).(*ast.CallExpr); ok && len(c.Args) > 0 {
		fn := Callee(info, c)
		switch {
		case IsFunc(fn, "fmt", "Sprintf"):
			return loopbackHostPort(info, c.Args[0], true)
		case IsFunc(fn, "net", "JoinHostPort") && len(c.Args) == 2:
			tv := info.Types[c.Args[0]]
			return tv.Value != nil && tv.Value.Kind() == constant.String && loopbackHost(constant.StringVal(tv.Value))
		}
		return false
	}
	return loopbackHostPort(info, e, false)
}

// loopbackHostPort reports whether e is a constant "host:port" whose host
// is the loopback's; format: the port may be a verb, the host may not.
func loopbackHostPort(info *types.Info, e ast.Expr, format bool) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	host, _, err := net.SplitHostPort(constant.StringVal(tv.Value))
	if err != nil || format && strings.Contains(host, "%") {
		return false
	}
	return loopbackHost(host)
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Implementers returns the types of pkg that implement iface: each
// named type of its scope that is neither an interface nor generic, or a
// pointer to it when only the pointer does.
func Implementers(pkg *types.Package, iface *types.Interface) []types.Type {
	var out []types.Type
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		t, ok := tn.Type().(*types.Named)
		if !ok || t.TypeParams().Len() > 0 || types.IsInterface(t) {
			continue
		}
		if types.Implements(t, iface) {
			out = append(out, t)
		} else if p := types.NewPointer(t); types.Implements(p, iface) {
			out = append(out, p)
		}
	}
	return out
}

// Interfaces returns the named types of pkg's scope (no aliases) that
// are interfaces with methods.
func Interfaces(pkg *types.Package) []*types.TypeName {
	var out []*types.TypeName
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if iface, ok := tn.Type().Underlying().(*types.Interface); ok && iface.NumMethods() > 0 {
			out = append(out, tn)
		}
	}
	return out
}

// Implementations returns the methods by which the types of pkg
// (Implementers) implement fn, a method of an interface of pkg; nil for
// another package's interface. A type that embeds the interface hands
// the call on to the value it wraps, another implementation, and adds
// nothing.
func Implementations(pkg *types.Package, fn *types.Func) []*types.Func {
	iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok || fn.Pkg() != pkg {
		return nil
	}
	var out []*types.Func
	for _, t := range Implementers(pkg, iface) {
		if sel := types.NewMethodSet(t).Lookup(pkg, fn.Name()); sel != nil {
			if f, ok := sel.Obj().(*types.Func); ok && !IsInterfaceMethod(f) {
				out = append(out, f)
			}
		}
	}
	return out
}
