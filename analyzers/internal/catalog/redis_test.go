package catalog_test

import (
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	// The real go-redis, required by the module so that
	// TestRedisRowsResolveReal can load it.
	_ "github.com/redis/go-redis/v9"

	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// TestRedisAndHTTPRowsResolve checks every Redis row against its stub
// under testdata/src and every HTTP row against net/http: a method of the
// named receiver with the key, status, writer and callback arguments where
// the row says, or (RedisQueued) a type.
func TestRedisAndHTTPRowsResolve(t *testing.T) {
	dir := testutil.TestData()
	cfg := &packages.Config{
		Mode: packages.NeedTypes | packages.NeedName,
		Dir:  filepath.Join(dir, "src"),
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	checkRedisHTTPRows(t, cfg, catalog.RedisPaths())
}

// TestRedisRowsResolveReal checks the go-redis rows against the real
// go-redis the module requires, so the stub cannot drift from it.
func TestRedisRowsResolveReal(t *testing.T) {
	checkRedisHTTPRows(t, &packages.Config{Mode: packages.NeedTypes | packages.NeedName}, []string{catalog.GoRedisV9})
}

func checkRedisHTTPRows(t *testing.T, cfg *packages.Config, paths []string) {
	pkgs, err := packages.Load(cfg, append(paths, catalog.NetHTTP)...)
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
	if len(catalog.RedisRows) == 0 || len(catalog.HTTPRows) == 0 {
		t.Fatal("no rows")
	}
	for _, name := range []string{"GET", "INCR", "EXPIRE", "ZCARD", "DEL"} {
		if _, _, _, ok := catalog.RedisCommand(name); !ok {
			t.Errorf("RedisCommand(%q) unknown", name)
		}
	}
	for _, r := range catalog.RedisRows {
		pkg := byPath[r.Path]
		if pkg == nil {
			if !slices.Contains(paths, r.Path) {
				continue
			}
			t.Fatalf("%s not loaded", r.Path)
		}
		if r.Kind == catalog.RedisQueued {
			if _, ok := pkg.Scope().Lookup(r.Name).(*types.TypeName); !ok {
				t.Errorf("row %s %s: no type", r.Path, r.Name)
			}
			continue
		}
		sig, err := method(pkg, r.Recv, r.Name)
		if err != nil {
			t.Errorf("row %s %s.%s: %v", r.Path, r.Recv, r.Name, err)
			continue
		}
		if r.Kind == catalog.RedisDynamic {
			if r.CmdArg >= sig.Params().Len() || sig.Params().At(r.CmdArg).Type().String() != "string" || r.KeyArg != r.CmdArg+1 || !sig.Variadic() {
				t.Errorf("row %s.%s: argument %d is not the command name followed by its arguments (%s)", r.Recv, r.Name, r.CmdArg, sig)
			}
			continue
		}
		if r.KeyArg >= 0 {
			want := "string"
			switch {
			case r.Kind == catalog.RedisScript:
				want = "[]string"
			case r.Keys:
				want = "[]string" // variadic ...string
			}
			if r.KeyArg >= sig.Params().Len() || sig.Params().At(r.KeyArg).Type().String() != want {
				t.Errorf("row %s.%s: argument %d is not the key (%s)", r.Recv, r.Name, r.KeyArg, sig)
			}
		}
		if r.Kind == catalog.RedisTx || r.Kind == catalog.RedisPipeline {
			if r.FnArg >= sig.Params().Len() {
				t.Errorf("row %s.%s: no callback argument %d", r.Recv, r.Name, r.FnArg)
			} else if _, ok := sig.Params().At(r.FnArg).Type().Underlying().(*types.Signature); !ok {
				t.Errorf("row %s.%s: argument %d is not a callback (%s)", r.Recv, r.Name, r.FnArg, sig)
			}
		}
	}
	for _, r := range catalog.HTTPRows {
		pkg := byPath[r.Path]
		var sig *types.Signature
		if r.Recv == "" {
			fn, ok := pkg.Scope().Lookup(r.Name).(*types.Func)
			if !ok {
				t.Errorf("row %s.%s: no function", r.Path, r.Name)
				continue
			}
			sig = fn.Type().(*types.Signature)
		} else {
			var err error
			if sig, err = method(pkg, r.Recv, r.Name); err != nil {
				t.Errorf("row %s %s.%s: %v", r.Path, r.Recv, r.Name, err)
				continue
			}
		}
		switch r.Role {
		case catalog.HTTPWriteStatus:
			if r.StatusArg >= sig.Params().Len() || sig.Params().At(r.StatusArg).Type().String() != "int" {
				t.Errorf("row %s: argument %d is not the status (%s)", r.Name, r.StatusArg, sig)
			}
			if r.WriterArg >= 0 && (r.WriterArg >= sig.Params().Len() || sig.Params().At(r.WriterArg).Type().String() != "net/http.ResponseWriter") {
				t.Errorf("row %s: argument %d is not the writer (%s)", r.Name, r.WriterArg, sig)
			}
		case catalog.HTTPHeaderSet, catalog.HTTPHeaderGet:
			if r.KeyArg >= sig.Params().Len() || sig.Params().At(r.KeyArg).Type().String() != "string" {
				t.Errorf("row %s.%s: argument %d is not the header name (%s)", r.Recv, r.Name, r.KeyArg, sig)
			}
		}
	}
}

func method(pkg *types.Package, recv, name string) (*types.Signature, error) {
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return nil, errf("type %s not found", recv)
	}
	var t types.Type = types.NewPointer(tn.Type())
	if types.IsInterface(tn.Type()) {
		t = tn.Type()
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, errf("no method %s", name)
	}
	return fn.Type().(*types.Signature), nil
}
