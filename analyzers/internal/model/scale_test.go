package model

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// Adversarial inputs for the model's cost: each generator writes a package
// whose size grows with n. BenchmarkScale runs the model over each at
// growing n so that the growth shows (linear: the time per unit stays
// flat); the sizes are the largest n of the first six, and
// vm-switch's largest is about nine times go-json's dispatch loop.

const scalePrelude = `package scale

import (
	"errors"
	"time"
)

var errDown = errors.New("down")

func op(int) error { return errDown }

func pick() bool { return time.Now().UnixNano()%2 == 0 }
`

// flatFunc is one function of n statements inside a retry loop: calls,
// error checks and branches.
func flatFunc(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("func flat() error {\n\tvar err error\n\tx := 0\n\tfor attempt := 0; attempt < 3; attempt++ {\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\t\terr = op(%d)\n", i)
		case 1:
			b.WriteString("\t\tif err != nil {\n\t\t\tx++\n\t\t}\n")
		case 2:
			b.WriteString("\t\tif pick() {\n\t\t\tx += 2\n\t\t} else {\n\t\t\tx--\n\t\t}\n")
		case 3:
			b.WriteString("\t\tx *= 3\n")
		}
	}
	b.WriteString("\t\tif err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\t_ = x\n\treturn err\n}\n")
	return b.String()
}

// nestedLoops is n retry loops, each inside the previous one.
func nestedLoops(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("func nested() error {\n\tvar err error\n")
	for i := range n {
		ind := strings.Repeat("\t", i+1)
		fmt.Fprintf(&b, "%sfor a%d := 0; a%d < 3; a%d++ {\n", ind, i, i, i)
		fmt.Fprintf(&b, "%s\tif err = op(%d); err == nil {\n%s\t\tbreak\n%s\t}\n", ind, i, ind, ind)
	}
	for i := n - 1; i >= 0; i-- {
		ind := strings.Repeat("\t", i+1)
		fmt.Fprintf(&b, "%s\ttime.Sleep(time.Second)\n%s}\n", ind, ind)
	}
	b.WriteString("\treturn err\n}\n")
	return b.String()
}

// gotoLabels is one function with n labels, each a retry written with goto.
func gotoLabels(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("func labels() error {\n\tvar err error\n\ttries := 0\n")
	for i := range n {
		fmt.Fprintf(&b, "L%d:\n\tif err = op(%d); err != nil && tries < 3 {\n\t\ttries++\n\t\ttime.Sleep(time.Second)\n\t\tgoto L%d\n\t}\n", i, i, i)
		if i%3 == 2 {
			fmt.Fprintf(&b, "\tif pick() {\n\t\tgoto L%d\n\t}\n", i/2)
		}
	}
	b.WriteString("\treturn err\n}\n")
	return b.String()
}

// branchy is a retry loop whose body has n independent branches in a row:
// 2^n paths through one iteration.
func branchy(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("func branchy() error {\n\tvar err error\n\tfor attempt := 0; attempt < 5; attempt++ {\n\t\terr = op(0)\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tif pick() {\n\t\t\terr = op(%d)\n\t\t}\n", i)
		if i%5 == 4 {
			b.WriteString("\t\tif err != nil && pick() {\n\t\t\tcontinue\n\t\t}\n")
		}
	}
	b.WriteString("\t\tif err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn err\n}\n")
	return b.String()
}

// manyRetries is n small functions, each a retry loop calling the previous
// one: a chain of n nested retries across functions.
func manyRetries(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("func f0() error { return op(0) }\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "func f%d() error {\n\tvar err error\n\tfor a := 0; a < 3; a++ {\n\t\tif err = f%d(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn err\n}\n", i, i-1)
	}
	return b.String()
}

// manyNests is n functions, each a nest of three retry loops: the most
// each function's budget allows, n times.
func manyNests(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	for i := range n {
		fmt.Fprintf(&b, "func nest%d() error {\n\tvar err error\n", i)
		for d := range 3 {
			ind := strings.Repeat("\t", d+1)
			fmt.Fprintf(&b, "%sfor a%d := 0; a%d < 3; a%d++ {\n", ind, d, d, d)
			fmt.Fprintf(&b, "%s\tif err = op(%d); err == nil {\n%s\t\tbreak\n%s\t}\n", ind, d, ind, ind)
		}
		for d := 2; d >= 0; d-- {
			ind := strings.Repeat("\t", d+1)
			fmt.Fprintf(&b, "%s\ttime.Sleep(time.Second)\n%s}\n", ind, ind)
		}
		b.WriteString("\treturn err\n}\n")
	}
	return b.String()
}

// vmSwitch is an interpreter's dispatch loop: one function whose loop
// switches over n instruction cases. The cases write the same few
// registers from each other (x from y, y from x), pass them to fallible
// calls, leave on an error, jump back to labels before the switch or
// forward past it with goto, and some retry an instruction with a goto of
// their own: the shape of a bytecode VM or a generated encoder.
func vmSwitch(n int) string {
	var b strings.Builder
	b.WriteString(scalePrelude)
	b.WriteString("type inst struct{ code, arg, next int }\n\n")
	b.WriteString("func emit(buf []byte, v int) ([]byte, error) {\n\tif v < 0 {\n\t\treturn buf, errDown\n\t}\n\treturn append(buf, byte(v)), nil\n}\n\n")
	b.WriteString("func exec(prog []inst) ([]byte, error) {\n\tvar err error\n\tvar buf []byte\n\tpc, x, y, tries := 0, 0, 0, 0\n\tfor pc < len(prog) {\n\t\tin := prog[pc]\n")
	labels := max(1, min(4, (n+1)/5)) // a few, each jumped to from a case
	for l := range labels {
		fmt.Fprintf(&b, "\tJ%d:\n\t\tx = y + in.arg + %d\n", l, l)
	}
	b.WriteString("\t\tswitch in.code {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\tcase %d:\n", i)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "\t\t\tx = y + in.arg + %d\n\t\t\tout, err := emit(buf, x)\n\t\t\tif err != nil {\n\t\t\t\treturn nil, err\n\t\t\t}\n\t\t\tbuf = out\n\t\t\tpc++\n", i)
		case 1:
			fmt.Fprintf(&b, "\t\t\ty = x * %d\n\t\t\tout, e := emit(buf, y+x)\n\t\t\tif e != nil {\n\t\t\t\terr = e\n\t\t\t\tgoto fail\n\t\t\t}\n\t\t\tbuf = out\n\t\t\tpc = in.next\n\t\t\tcontinue\n", i)
		case 2:
			fmt.Fprintf(&b, "\t\tR%d:\n\t\t\tif err = op(x); err != nil && tries < 3 {\n\t\t\t\ttries++\n\t\t\t\ttime.Sleep(time.Millisecond)\n\t\t\t\tgoto R%d\n\t\t\t}\n\t\t\ttries = 0\n\t\t\tpc++\n", i, i)
		case 3:
			fmt.Fprintf(&b, "\t\t\tif pick() {\n\t\t\t\tgoto J%d\n\t\t\t}\n\t\t\tx, y = y, x+%d\n\t\t\tpc++\n", (i/5)%labels, i)
		case 4:
			fmt.Fprintf(&b, "\t\t\tbuf = append(buf, byte(x+y+%d))\n\t\t\tpc = in.next\n\t\t\tgoto next\n", i)
		}
	}
	b.WriteString("\t\tdefault:\n\t\t\tpc++\n\t\t}\n\t\tcontinue\n\tnext:\n\t\ty += pc\n\t}\n\treturn buf, nil\nfail:\n\treturn nil, err\n}\n")
	return b.String()
}

var scaleInputs = []struct {
	name  string
	gen   func(int) string
	sizes []int
}{
	{"flat-statements", flatFunc, []int{2500, 5000, 10000, 20000}},
	{"nested-loops", nestedLoops, []int{8, 16, 32, 64}},
	{"goto-labels", gotoLabels, []int{50, 100, 200, 400}},
	{"branches", branchy, []int{10, 20, 40, 80}},
	{"retry-chain", manyRetries, []int{50, 100, 200, 400}},
	{"many-nests", manyNests, []int{10, 20, 40, 80}},
	{"vm-switch", vmSwitch, []int{400, 800, 1600, 3200}},
}

// checkScale type-checks src and returns a pass for the model.
func scalePass(tb testing.TB, src string) *analysis.Pass {
	tb.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "scale.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		tb.Fatal(err)
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("scale", fset, []*ast.File{f}, info)
	if err != nil {
		tb.Fatal(err)
	}
	return &analysis.Pass{
		Analyzer:          Analyzer,
		Fset:              fset,
		Files:             []*ast.File{f},
		Pkg:               pkg,
		TypesInfo:         info,
		TypesSizes:        types.SizesFor("gc", "amd64"),
		ResultOf:          map[*analysis.Analyzer]any{},
		Report:            func(analysis.Diagnostic) {},
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ExportObjectFact:  func(types.Object, analysis.Fact) {},
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		ExportPackageFact: func(analysis.Fact) {},
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
		AllPackageFacts:   func() []analysis.PackageFact { return nil },
	}
}

// BenchmarkScale reports the model's cost on each adversarial input at
// growing sizes; ns/op divided by the size should stay flat.
//
//	go test -run '^$' -bench Scale -benchtime 1x ./analyzers/internal/model
func BenchmarkScale(b *testing.B) {
	for _, in := range scaleInputs {
		for _, n := range in.sizes {
			b.Run(fmt.Sprintf("%s/n=%d", in.name, n), func(b *testing.B) {
				src := in.gen(n)
				b.ReportAllocs()
				retries := 0
				for b.Loop() {
					b.StopTimer()
					pass := scalePass(b, src)
					b.StartTimer()
					retries = len(buildAll(pass).Retries)
				}
				// The retries recognized: fewer than the input holds
				// when a budget cut the work short.
				b.ReportMetric(float64(retries), "retries")
			})
		}
	}
}

// The generated inputs are well-typed and the model recognizes their
// retries (otherwise the benchmark measures nothing), at a small size.
func TestScaleInputs(t *testing.T) {
	for _, in := range scaleInputs {
		t.Run(in.name, func(t *testing.T) {
			res := buildAll(scalePass(t, in.gen(in.sizes[0]/8+2)))
			if len(res.Retries) == 0 {
				t.Errorf("no retry recognized in %s", in.name)
			}
		})
	}
}

// Budgets do not cut realistic code short: every loop of a nest of three
// retries in one function, and twenty functions that retry around each
// other, are still recognized.
func TestScaleBudgetKeepsRealisticCode(t *testing.T) {
	if got := len(buildAll(scalePass(t, nestedLoops(3))).Retries); got != 3 {
		t.Errorf("3 nested retry loops: %d retries recognized, want 3", got)
	}
	if got := len(buildAll(scalePass(t, manyRetries(20))).Retries); got != 20 {
		t.Errorf("20 chained retry functions: %d retries recognized, want 20", got)
	}
}
