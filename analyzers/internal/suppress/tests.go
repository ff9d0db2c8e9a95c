package suppress

import (
	"flag"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// includeTests is the suite's switch for findings in _test.go files, off by
// default: tests wait fixed delays and retry at once on purpose. Drivers set
// it once from their own flag or setting (resilint -tests, the golangci-lint
// plugin's tests: true, resilint lsp -tests) before any analysis runs; the
// analyzers made by [Wrap] read it.
var includeTests bool

// SetIncludeTests switches findings in _test.go files on or off for every
// analyzer made by [Wrap]. Call it before analysis starts.
func SetIncludeTests(on bool) { includeTests = on }

// IncludeTests reports whether findings in _test.go files are reported.
func IncludeTests() bool { return includeTests }

// TestsFlagUsage is the usage text of the drivers' -tests flag.
const TestsFlagUsage = "also report findings in test code: _test.go files, test-support packages (e2e, testutil, httptest-like), functions with a testing parameter, methods of fakes that keep one, and the helpers only they call (off by default: tests wait fixed delays and retry at once on purpose)"

// inTestCode reports whether pos lies in test code: a _test.go file, a
// package of test support (an e2e harness, a testutil package: see
// catalog.TestSupportPath), a function (or function literal) with a parameter from package testing
// (a test helper kept in a non-test file: *testing.T, testing.TB, ...) or
// of a test reporter interface (see testReporter), or an unexported
// function only test code calls (see newTestSpans). spans is computed on
// first need and kept by the caller for the pass.
func inTestCode(pass *analysis.Pass, pos token.Pos, spans **testSpans) bool {
	if inTestFile(pass.Fset, pos) || catalog.TestSupportPath(pass.Pkg.Path()) {
		return true
	}
	if !pos.IsValid() {
		return false
	}
	if *spans == nil {
		*spans = newTestSpans(pass)
	}
	return (*spans).contains(pos)
}

// fromTesting reports whether t is a type of package testing, or a
// pointer to one.
func fromTesting(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// testReporter reports whether t is an interface through which a test
// reports (a mock's `TestReporter`, a helper's own `T` interface): every
// method is one of testing.TB's, with its signature, so *testing.T
// satisfies it, and one of them fails or skips the test (Fatal, FailNow,
// Skip...), which no logger or production interface needs.
func testReporter(t types.Type) bool {
	if t == nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	ends := false
	for m := range iface.Methods() {
		want, ok := tbMethods[m.Name()]
		if !ok || !types.Identical(m.Type(), want) {
			return false
		}
		ends = ends || catalog.TestEnds[m.Name()]
	}
	return ends
}

// tbMethods are testing.TB's methods that report or end a test, with
// their signatures (parameter names aside).
var tbMethods = func() map[string]*types.Signature {
	str := types.Typ[types.String]
	args := types.NewSlice(types.NewInterfaceType(nil, nil))
	sig := func(variadic bool, results []types.Type, params ...types.Type) *types.Signature {
		var ps, rs []*types.Var
		for _, p := range params {
			ps = append(ps, types.NewParam(0, nil, "", p))
		}
		for _, r := range results {
			rs = append(rs, types.NewParam(0, nil, "", r))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), variadic)
	}
	none := sig(false, nil)
	printf := sig(true, nil, str, args)
	println := sig(true, nil, args)
	boolean := sig(false, []types.Type{types.Typ[types.Bool]})
	name := sig(false, []types.Type{str})
	return map[string]*types.Signature{
		"Error": println, "Errorf": printf, "Fail": none, "FailNow": none, "Failed": boolean,
		"Fatal": println, "Fatalf": printf, "Helper": none, "Log": println, "Logf": printf,
		"Name": name, "Skip": println, "Skipf": printf, "SkipNow": none, "Skipped": boolean,
		"Cleanup": sig(false, nil, none), "TempDir": name,
	}
}()

// inTestFile reports whether pos lies in a _test.go file.
func inTestFile(fset *token.FileSet, pos token.Pos) bool {
	if !pos.IsValid() {
		return false
	}
	return strings.HasSuffix(fset.PositionFor(pos, false).Filename, "_test.go")
}

// TestsFlag returns a boolean [flag.Value] that sets the switch; drivers
// register it as -tests.
func TestsFlag() flag.Value { return testsFlag{} }

type testsFlag struct{}

func (testsFlag) String() string   { return strconv.FormatBool(includeTests) }
func (testsFlag) IsBoolFlag() bool { return true }
func (testsFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	includeTests = v
	return nil
}
