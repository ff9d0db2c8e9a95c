package respread

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// The statuses a response is tested for: comparisons, switches and
// read-only lists or sets of statuses.

// inSamples keeps the statuses of st that are among Samples.
func inSamples(st []int) []int {
	var out []int
	for _, s := range st {
		if slices.Contains(Samples, s) {
			out = append(out, s)
		}
	}
	return out
}

// statusList returns the statuses a list of constants holds: a slice or
// array literal of them, or a map literal whose keys they are and whose
// values are all true; written in place, or the value of an unexported
// package variable of this package that the package only reads, as the
// list of a slices.Contains or slices.Index, a map indexed, or ranged
// over (`var retryable = []int{429, 503}`). ok is false for anything
// else.
func (b *builder) statusList(e ast.Expr) ([]int, bool) {
	e = analysisutil.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return b.literalStatuses(lit)
	}
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	default:
		return nil, false
	}
	v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	if b.lists == nil {
		b.lists = b.statusLists()
	}
	st, ok := b.lists[v]
	return st, ok
}

func (b *builder) literalStatuses(lit *ast.CompositeLit) ([]int, bool) {
	var st []int
	for _, elt := range lit.Elts {
		e := elt
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if tv := b.pass.TypesInfo.Types[kv.Value]; tv.Value == nil || tv.Value.Kind() != constant.Bool || !constant.BoolVal(tv.Value) {
				return nil, false
			}
			e = kv.Key
		}
		c, ok := b.constInt(e)
		if !ok {
			return nil, false
		}
		st = append(st, int(c))
	}
	return st, true
}

// statusLists finds the unexported package variables of this package
// initialized with a literal list of statuses and only read: each use is
// the list of a slices.Contains or slices.Index, a map indexed for a
// value, or the operand of a range.
func (b *builder) statusLists() map[*types.Var][]int {
	out := map[*types.Var][]int{}
	info := b.pass.TypesInfo
	for _, f := range b.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, name := range vs.Names {
					v, ok := info.Defs[name].(*types.Var)
					lit, isLit := analysisutil.Unparen(vs.Values[i]).(*ast.CompositeLit)
					if !ok || !isLit || v.Exported() {
						continue
					}
					if st, ok := b.literalStatuses(lit); ok && len(st) > 0 {
						out[v] = st
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return out
	}
	for _, f := range b.pass.Files {
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || len(stack) == 0 {
				return true
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || out[v] == nil {
				return true
			}
			read := false
			switch p := stack[len(stack)-1].(type) {
			case *ast.CallExpr:
				fn := analysisutil.Callee(info, p)
				read = len(p.Args) > 0 && p.Args[0] == ast.Expr(id) && (analysisutil.IsFunc(fn, "slices", "Contains") || analysisutil.IsFunc(fn, "slices", "Index"))
			case *ast.IndexExpr:
				read = p.X == ast.Expr(id) && len(stack) >= 2 && !writes(stack[len(stack)-2], p)
			case *ast.RangeStmt:
				read = p.X == ast.Expr(id)
			}
			if !read {
				delete(out, v)
			}
			return true
		})
	}
	return out
}

// compare records the statuses a comparison names: `== 429`, `!= 503`.
// A range (`>= 500`, `<= 499`) names none: it treats 503 as one server
// error among many, with no notion of a server asking for a pause.
func (b *builder) compare(n *ast.BinaryExpr, params map[types.Object]int, paramSt map[int][]int) {
	switch n.Op {
	case token.EQL, token.NEQ:
	default:
		return
	}
	subj, ok := b.subject(n.X, params)
	c, okc := b.constInt(n.Y)
	op := n.Op
	if !ok || !okc {
		subj, ok = b.subject(n.Y, params)
		c, okc = b.constInt(n.X)
		op = flip(op)
		if !ok || !okc {
			return
		}
	}
	var st []int
	for _, s := range Samples {
		if v := eval(op, int64(s), c); v != eval(op, refOK, c) && v != eval(op, refNotFound, c) {
			st = append(st, s)
		}
	}
	b.record(n, subj, st, paramSt)
}

func (b *builder) switchStmt(n *ast.SwitchStmt, params map[types.Object]int, paramSt map[int][]int) {
	if n.Tag == nil {
		return
	}
	subj, ok := b.subject(n.Tag, params)
	if !ok {
		return
	}
	var st []int
	for _, c := range n.Body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		for _, e := range cc.List {
			if v, ok := b.constInt(e); ok && slices.Contains(Samples, int(v)) {
				st = append(st, int(v))
			}
		}
	}
	b.record(n, subj, st, paramSt)
}

func (b *builder) record(n ast.Node, subj int, st []int, paramSt map[int][]int) {
	if len(st) == 0 {
		return
	}
	if subj >= 0 {
		paramSt[subj] = append(paramSt[subj], st...)
		return
	}
	b.test(n, st, nil)
}

func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func eval(op token.Token, x, c int64) bool {
	switch op {
	case token.EQL:
		return x == c
	case token.NEQ:
		return x != c
	case token.LSS:
		return x < c
	case token.LEQ:
		return x <= c
	case token.GTR:
		return x > c
	case token.GEQ:
		return x >= c
	}
	return false
}
