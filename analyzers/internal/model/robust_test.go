package model

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// TestNoPanicOnRealCode runs the model (which otherwise treats the
// standard library as opaque) over large, varied standard packages: a
// panic in the recognizer on any well-typed code is a bug.
func TestNoPanicOnRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard packages from source")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Tests: false}
	pkgs, err := packages.Load(cfg,
		"net/http", "encoding/json", "os", "os/exec", "text/template", "go/types",
		"archive/zip", "crypto/tls", "database/sql", "encoding/csv", "net", "bufio", "compress/flate")
	if err != nil {
		t.Fatal(err)
	}
	retries := 0
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		pass := &analysis.Pass{
			Analyzer:          Analyzer,
			Fset:              p.Fset,
			Files:             p.Syntax,
			Pkg:               p.Types,
			TypesInfo:         p.TypesInfo,
			TypesSizes:        p.TypesSizes,
			ResultOf:          map[*analysis.Analyzer]any{},
			Report:            func(analysis.Diagnostic) {},
			ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
			ExportObjectFact:  func(types.Object, analysis.Fact) {},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportPackageFact: func(analysis.Fact) {},
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
		}
		res := buildAll(pass)
		retries += len(res.Retries)
	}
	// The standard library does retry in places (EINTR aside): the DNS
	// resolver, HTTP/2 connection reuse, the transport's request retry.
	if retries == 0 {
		t.Errorf("no retries recognized in the standard packages")
	}
	t.Logf("%d retry sites", retries)
}
