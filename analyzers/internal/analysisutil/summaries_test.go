package analysisutil_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// Summaries computes each summary once, on demand, in any order; a
// function met again while its own summary is computed gets nothing; Done
// lists the summaries in source order.
func TestSummaries(t *testing.T) {
	const src = `package p
func a() { b() }
func b() { a(); c() }
func c() {}
func d()
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	fn := func(name string) *types.Func { return pkg.Scope().Lookup(name).(*types.Func) }
	s := analysisutil.NewSummaries[int](info, []*ast.File{f})
	if len(s.Order) != 3 {
		t.Fatalf("declarations with bodies: %d, want 3 (d has none)", len(s.Order))
	}
	computed := map[string]int{}
	var sum func(fn *types.Func, d *ast.FuncDecl) int
	sum = func(fn *types.Func, d *ast.FuncDecl) int {
		computed[fn.Name()]++
		n := 1
		ast.Inspect(d.Body, func(x ast.Node) bool {
			if call, ok := x.(*ast.CallExpr); ok {
				callee := analysisutil.Callee(info, call)
				if v, ok := s.Get(callee, sum); ok {
					n += v
				}
			}
			return true
		})
		return n
	}
	if v, ok := s.Get(fn("b"), sum); !ok || v != 3 { // b + a (whose call of b, busy, adds nothing) + c
		t.Errorf("b = %d, %v; want 3, true", v, ok)
	}
	if v, ok := s.Get(fn("a"), sum); !ok || v != 1 {
		t.Errorf("a = %d, %v; want 1 (computed while b was busy), true", v, ok)
	}
	if _, ok := s.Get(fn("d"), sum); ok {
		t.Error("d has no body, yet has a summary")
	}
	for name, n := range computed {
		if n != 1 {
			t.Errorf("%s computed %d times", name, n)
		}
	}
	var order []string
	s.Done(func(fn *types.Func, _ int) { order = append(order, fn.Name()) })
	if got := len(order); got != 3 || order[0] != "a" || order[1] != "b" || order[2] != "c" {
		t.Errorf("Done order %v, want [a b c]", order)
	}
}
