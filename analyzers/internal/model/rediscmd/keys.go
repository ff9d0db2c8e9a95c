package rediscmd

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// keyID identifies a key expression structurally: constants by value,
// variables by object, so that equal IDs in one function are one key.
// Expressions it cannot compare get a unique ID.
func (b *builder) keyID(e ast.Expr) string {
	if s, ok := b.constString(e); ok {
		return "c:" + strconv.Quote(s)
	}
	var sb strings.Builder
	if !b.writeID(&sb, e, 0) {
		return fmt.Sprintf("u:%d", e.Pos())
	}
	return "e:" + sb.String()
}

func (b *builder) objID(obj types.Object) int {
	id, ok := b.objIDs[obj]
	if !ok {
		id = len(b.objIDs) + 1
		b.objIDs[obj] = id
	}
	return id
}

func (b *builder) writeID(sb *strings.Builder, e ast.Expr, depth int) bool {
	if depth > 8 {
		return false
	}
	info := b.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		sb.WriteString(tv.Value.ExactString())
		return true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return b.writeID(sb, e.X, depth+1)
	case *ast.Ident:
		obj := info.ObjectOf(e)
		if obj == nil {
			return false
		}
		fmt.Fprintf(sb, "#%d", b.objID(obj))
		return true
	case *ast.SelectorExpr:
		if obj := info.ObjectOf(e.Sel); obj != nil {
			if _, isPkg := info.ObjectOf(identOf(e.X)).(*types.PkgName); isPkg {
				fmt.Fprintf(sb, "#%d", b.objID(obj))
				return true
			}
		}
		if !b.writeID(sb, e.X, depth+1) {
			return false
		}
		sb.WriteString("." + e.Sel.Name)
		return true
	case *ast.BinaryExpr:
		sb.WriteString("(")
		if !b.writeID(sb, e.X, depth+1) {
			return false
		}
		sb.WriteString(e.Op.String())
		if !b.writeID(sb, e.Y, depth+1) {
			return false
		}
		sb.WriteString(")")
		return true
	case *ast.CallExpr:
		// Only calls of package-level functions (fmt.Sprintf, a key
		// helper): the same arguments give the same key.
		fn := analysisutil.Callee(info, e)
		if fn == nil || recvName(fn) != "" {
			return false
		}
		fmt.Fprintf(sb, "#%d(", b.objID(fn))
		for _, a := range e.Args {
			if !b.writeID(sb, a, depth+1) {
				return false
			}
			sb.WriteString(",")
		}
		sb.WriteString(")")
		return true
	case *ast.IndexExpr:
		if !b.writeID(sb, e.X, depth+1) {
			return false
		}
		sb.WriteString("[")
		if !b.writeID(sb, e.Index, depth+1) {
			return false
		}
		sb.WriteString("]")
		return true
	}
	return false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := analysisutil.Unparen(e).(*ast.Ident)
	if id == nil {
		return &ast.Ident{}
	}
	return id
}

// reply records, for the command calls whose replies an assignment
// stores, the variables they go to: `n, err := rdb.Get(ctx, k).Int64()`
// (through the chain of reply methods), `n, _ := strconv.Atoi(rdb.Get(ctx,
// k).Val())` (one function call around it), `n, _ := count(ctx, rdb, k)`.
func (b *builder) reply(lhs, rhs []ast.Expr) {
	objs := func(list []ast.Expr) []types.Object {
		var out []types.Object
		for _, e := range list {
			if id, ok := e.(*ast.Ident); ok {
				if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
					out = append(out, obj)
				}
			}
		}
		return out
	}
	switch {
	case len(rhs) == 1:
		b.replyTo(rhs[0], objs(lhs))
	case len(lhs) == len(rhs):
		for i := range rhs {
			b.replyTo(rhs[i], objs(lhs[i:i+1]))
		}
	}
}

func (b *builder) replyTo(e ast.Expr, to []types.Object) {
	if len(to) == 0 {
		return
	}
	root := chainRoot(e)
	if root == nil {
		return
	}
	b.replies[root] = append(b.replies[root], to...)
	if sel, ok := analysisutil.Unparen(root.Fun).(*ast.SelectorExpr); ok {
		if _, isCall := analysisutil.Unparen(sel.X).(*ast.CallExpr); isCall {
			return
		}
	}
	for _, a := range root.Args {
		if r := chainRoot(a); r != nil {
			b.replies[r] = append(b.replies[r], to...)
		}
	}
}

// chainRoot returns the first call of a method chain: rdb.Get(ctx, k) in
// rdb.Get(ctx, k).Int64().
func chainRoot(e ast.Expr) *ast.CallExpr {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	for {
		sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return call
		}
		inner, ok := analysisutil.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			return call
		}
		call = inner
	}
}

// uses returns the variables the expressions are computed from, following
// local variables to the values assigned to them.
func (b *builder) uses(list []ast.Expr) []types.Object {
	seen := map[types.Object]bool{}
	var out []types.Object
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || seen[v] {
				return true
			}
			seen[v] = true
			out = append(out, v)
			if depth < maxUseDepth && !v.IsField() && v.Parent() != b.pass.Pkg.Scope() {
				for _, d := range b.defs[v] {
					visit(d, depth+1)
				}
			}
			return true
		})
	}
	for _, e := range list {
		visit(e, 0)
	}
	return out
}

// reply1 returns the variables call's reply is assigned to that are
// assigned nothing else but constants: a variable reused for another
// value (a cache miss filled with a fresh value) does not carry the
// reply; a default for a missing key (`if err == redis.Nil { n = 0 }`)
// leaves it the reply's.
func (b *builder) reply1(call *ast.CallExpr) []types.Object {
	var out []types.Object
	for _, v := range b.replies[call] {
		n := 0
		for _, d := range b.defs[v] {
			if d != nil && b.selfDerived(d, v) {
				continue // tokens--, tokens = tokens - cost: still the reply's
			}
			if d == nil || b.pass.TypesInfo.Types[d].Value == nil {
				n++
			}
		}
		if n == 1 {
			out = append(out, v)
		}
	}
	return out
}

// selfDerived reports whether the value d given to v is computed from v's
// own value (`tokens - cost`, `min(tokens-1, capacity)`, `tokens` of
// tokens-- or tokens += refill): it still carries what v held.
func (b *builder) selfDerived(d ast.Expr, v types.Object) bool {
	found := false
	ast.Inspect(d, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && b.pass.TypesInfo.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}
