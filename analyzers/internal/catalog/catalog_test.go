package catalog_test

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/testutil"
	"github.com/resilint/resilint/runtime/retry"
)

// TestRowsResolve loads every catalogued package from its stub under
// testdata/src and checks that each row names something that exists there,
// of the right kind: a misspelt row would otherwise be silently ignored.
func TestRowsResolve(t *testing.T) {
	dir := testutil.TestData()
	cfg := &packages.Config{
		Mode: packages.NeedTypes | packages.NeedName | packages.NeedSyntax, // from source: unexported types too (OpenMethod rows)
		Dir:  filepath.Join(dir, "src"),
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	var paths []string
	for _, p := range catalog.Paths() {
		if p != catalog.NetHTTP && p != catalog.IO {
			paths = append(paths, p)
		}
	}
	paths = append(paths, catalog.NetHTTP, catalog.IO)
	for _, r := range slices.Concat(catalog.ContextRows, catalog.AdmissionRows, catalog.CountRows) {
		if r.Path == catalog.ResilintBulkhead || r.Path == catalog.ResilintRateLimit {
			continue // TestRuntimeRowsResolve: the real packages
		}
		if !slices.Contains(paths, r.Path) {
			paths = append(paths, r.Path)
		}
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		byPath[p.PkgPath] = p.Types
	}
	for _, r := range slices.Concat(catalog.Rows, catalog.ContextRows, catalog.AdmissionRows, catalog.CountRows) {
		if r.Path == catalog.ResilintBulkhead || r.Path == catalog.ResilintRateLimit {
			continue
		}
		pkg := byPath[r.Path]
		if pkg == nil {
			t.Errorf("row %s.%s.%s: package not loaded", r.Path, r.Recv, r.Name)
			continue
		}
		if err := resolve(pkg, r); err != nil {
			t.Errorf("row %s %s.%s: %v", r.Path, r.Recv, r.Name, err)
		}
	}
}

// TestRuntimeRowsResolve checks the rows of resilint's own runtime
// packages against the real packages, so the stubs cannot drift from them.
func TestRuntimeRowsResolve(t *testing.T) {
	for _, path := range []string{catalog.ResilintRetry, catalog.ResilintBreaker, catalog.ResilintIdempotency, catalog.ResilintCallpath, catalog.ResilintBulkhead, catalog.ResilintRateLimit} {
		cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName | packages.NeedSyntax}
		pkgs, err := packages.Load(cfg, path)
		if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil {
			t.Fatalf("loading %s: %v", path, err)
		}
		n := 0
		for _, r := range slices.Concat(catalog.Rows, catalog.AdmissionRows) {
			if r.Path != path {
				continue
			}
			n++
			if err := resolve(pkgs[0].Types, r); err != nil {
				t.Errorf("row %s %s.%s: %v", path, r.Recv, r.Name, err)
			}
		}
		if n == 0 {
			t.Fatalf("no rows for %s", path)
		}
	}
	if catalog.DefaultResilintAttempts != retry.DefaultMaxAttempts {
		t.Errorf("catalog.DefaultResilintAttempts = %d, runtime/retry.DefaultMaxAttempts = %d", catalog.DefaultResilintAttempts, retry.DefaultMaxAttempts)
	}
}

func resolve(pkg *types.Package, r catalog.Row) error {
	switch r.Role {
	case catalog.DelayOption:
		if r.Recv == "" {
			if pkg.Scope().Lookup(r.Name) == nil {
				return errf("no %s", r.Name)
			}
			return nil
		}
	case catalog.AttemptField, catalog.JitterField, catalog.ElapsedField, catalog.PolicyField, catalog.PredicateField:
		tn, ok := pkg.Scope().Lookup(r.Recv).(*types.TypeName)
		if !ok {
			return errf("type %s not found", r.Recv)
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			return errf("%s is not a struct", r.Recv)
		}
		for i := range st.NumFields() {
			if st.Field(i).Name() == r.Name {
				if r.Role == catalog.PredicateField {
					// A predicate: a function whose first result is a bool.
					sig, ok := st.Field(i).Type().Underlying().(*types.Signature)
					if !ok || sig.Results().Len() == 0 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
						return errf("%s.%s is not a predicate", r.Recv, r.Name)
					}
				}
				return nil
			}
		}
		return errf("no field %s", r.Name)
	case catalog.BreakerPolicyType, catalog.KeyTransport:
		if _, ok := pkg.Scope().Lookup(r.Name).(*types.TypeName); !ok {
			return errf("no type %s", r.Name)
		}
		return nil
	case catalog.OpenState:
		if _, ok := pkg.Scope().Lookup(r.Name).(*types.Const); !ok {
			return errf("no constant %s", r.Name)
		}
		return nil
	case catalog.Terminal:
		switch pkg.Scope().Lookup(r.Name).(type) {
		case *types.Func, *types.Var:
			return nil
		}
		return errf("no function or variable %s", r.Name)
	case catalog.KnownVar, catalog.OpenError, catalog.EndSentinel:
		if _, ok := pkg.Scope().Lookup(r.Name).(*types.Var); !ok {
			return errf("no variable %s", r.Name)
		}
		return nil
	case catalog.Outage, catalog.Unsent, catalog.Interrupted:
		// An error value: a variable (io.ErrUnexpectedEOF) or a
		// constant (syscall.ECONNREFUSED).
		switch pkg.Scope().Lookup(r.Name).(type) {
		case *types.Var, *types.Const:
			return nil
		}
		return errf("no variable or constant %s", r.Name)
	case catalog.Conflict:
		switch pkg.Scope().Lookup(r.Name).(type) {
		case *types.Func, *types.Var, *types.Const:
			return nil
		}
		return errf("no function, variable or constant %s", r.Name)
	case catalog.RetryPolicyType:
		if _, ok := pkg.Scope().Lookup(r.Name).(*types.TypeName); !ok {
			return errf("no type %s", r.Name)
		}
		return nil
	}
	var fn *types.Func
	if r.Recv == "" {
		f, ok := pkg.Scope().Lookup(r.Name).(*types.Func)
		if !ok {
			return errf("no function %s", r.Name)
		}
		fn = f
	} else {
		tn, ok := pkg.Scope().Lookup(r.Recv).(*types.TypeName)
		if !ok {
			return errf("type %s not found", r.Recv)
		}
		var recv types.Type = types.NewPointer(tn.Type())
		if types.IsInterface(tn.Type()) {
			recv = tn.Type()
		}
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, r.Name)
		f, ok := obj.(*types.Func)
		if !ok {
			return errf("no method %s", r.Name)
		}
		fn = f
	}
	// A ContextLess row's sibling takes a context first, then the row's
	// own arguments: the fix calls it with the same ones after it.
	if r.Role == catalog.ContextLess && r.WithCtx != "" {
		var sib types.Object
		if r.Via != "" {
			v, ok := pkg.Scope().Lookup(r.Via).(*types.Var)
			if !ok {
				return errf("no package variable %s", r.Via)
			}
			sib, _, _ = types.LookupFieldOrMethod(v.Type(), true, pkg, r.WithCtx)
		} else if r.Recv == "" {
			sib = pkg.Scope().Lookup(r.WithCtx)
		} else {
			sib, _, _ = types.LookupFieldOrMethod(fn.Type().(*types.Signature).Recv().Type(), true, pkg, r.WithCtx)
		}
		sf, ok := sib.(*types.Func)
		if !ok {
			return errf("no sibling %s", r.WithCtx)
		}
		want, got := fn.Type().(*types.Signature).Params(), sf.Type().(*types.Signature).Params()
		if got.Len() != want.Len()+1 || got.At(0).Type().String() != "context.Context" {
			return errf("%s does not take a context and then the arguments of %s", r.WithCtx, r.Name)
		}
		for i := range want.Len() {
			if !types.Identical(want.At(i).Type(), got.At(i+1).Type()) {
				return errf("%s's argument %d is not %s's", r.WithCtx, i+1, r.Name)
			}
		}
	}
	// A Reconnect row's argument is a struct with the backoff field.
	if r.Role == catalog.Reconnect {
		params := fn.Type().(*types.Signature).Params()
		if r.ValueArg >= params.Len() {
			return errf("%s has no argument %d", r.Name, r.ValueArg)
		}
		st, ok := params.At(r.ValueArg).Type().Underlying().(*types.Struct)
		if !ok {
			return errf("argument %d of %s is no struct", r.ValueArg, r.Name)
		}
		found := false
		for i := range st.NumFields() {
			found = found || st.Field(i).Name() == r.Field
		}
		if !found {
			return errf("argument %d of %s has no field %s", r.ValueArg, r.Name, r.Field)
		}
	}
	// The argument a context row names is a context (a carrier) or a
	// request (a reader).
	want := map[catalog.Role]string{catalog.ContextCarrier: "context.Context", catalog.RequestReader: "*net/http.Request"}[r.Role]
	if want != "" {
		params := fn.Type().(*types.Signature).Params()
		if r.ValueArg >= params.Len() || params.At(r.ValueArg).Type().String() != want {
			return errf("argument %d of %s is not a %s", r.ValueArg, r.Name, want)
		}
	}
	return nil
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func TestTestSupportPath(t *testing.T) {
	for path, want := range map[string]bool{
		"net/http/httptest": true,
		"golang.org/x/crypto/acme/autocert/internal/acmetest": true,
		"example.com/shop/test/e2e/framework":                 true,
		"example.com/shop/internal/testutil":                  true,
		"example.com/shop/e2e":                                true,
		"example.com/shop/payments":                           false,
		"example.com/shop/latest":                             false,
		"example.com/contest/attest":                          false,
		"example.com/shop/test":                               true,
		"example.com/shop/cachetest":                          false, // no package cache above it
		"example.com/shop/cache/cachetest":                    true,
		"example.com/sdk/internal/mock/emulation":             true,
		"example.com/shop/fakes":                              true,
		"example.com/shop/mockery":                            false,
		"example.com/db/test_helpers":                         true,
		"example.com/db/test-utils":                           true,
		"example.com/db/contest_entries":                      false,
		"example.com/db/mongo/integration/unified":            true,
		"example.com/s3/manager/internal/integration":         true,
		"example.com/bot/integrations/slack":                  false,
		"example.com/chat/cmd/chat-upgrade-tests":             true,
		"example.com/chat/smoke_test":                         true,
		"example.com/chat/cmd/load-testing":                   true,
		"example.com/chat/slack-integration":                  false,
		"example.com/chat/cmd/contest-results":                false,
	} {
		if got := catalog.TestSupportPath(path); got != want {
			t.Errorf("TestSupportPath(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestRowsUnique checks that no two rows name the same function, method
// or variable: Lookup holds one row per name, and a later row would hide
// an earlier one's role without a word.
func TestRowsUnique(t *testing.T) {
	seen := map[[3]string]catalog.Role{}
	for _, r := range catalog.Rows {
		k := [3]string{r.Path, r.Recv, r.Name}
		if prev, ok := seen[k]; ok {
			t.Errorf("%s.%s.%s: two rows (roles %d and %d)", r.Path, r.Recv, r.Name, prev, r.Role)
		}
		seen[k] = r.Role
	}
}

// TestOutageCode checks the outage codes: matched without regard to case,
// and an HTTP status written as a string counts when it is one an outage
// gives.
func TestOutageCode(t *testing.T) {
	for code, want := range map[string]bool{
		"ThrottlingException":    true,
		"throttlingexception":    true,
		"SERVICEUNAVAILABLE":     true,
		"RequestTimeout":         true,
		"503":                    true,
		"429":                    true,
		"404":                    false,
		"InvalidGroup.Duplicate": false,
		"VolumeInUse":            false,
		"":                       false,
	} {
		if got := catalog.OutageCode(code); got != want {
			t.Errorf("OutageCode(%q) = %v, want %v", code, got, want)
		}
	}
}
