package suppress

import (
	"flag"
	"go/token"
	"strconv"
	"strings"
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
const TestsFlagUsage = "also report findings in _test.go files (off by default: tests wait fixed delays and retry at once on purpose)"

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
