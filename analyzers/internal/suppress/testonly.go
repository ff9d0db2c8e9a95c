package suppress

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// testSpans are the stretches of a package's source that are test code
// outside _test.go files: the functions and function literals with a
// parameter from package testing or of a test reporter interface, the
// methods of a type that keeps such a value in a field, and the
// bodies of the package's unexported functions that only test code calls
// (a suite's `publishWithRetry`, called by its test functions alone, is
// test infrastructure as much as they are). Computed once per pass.
type testSpans struct {
	spans []span // sorted, disjoint
}

type span struct{ pos, end token.Pos }

func (t *testSpans) contains(pos token.Pos) bool {
	i := sort.Search(len(t.spans), func(i int) bool { return t.spans[i].end >= pos })
	return i < len(t.spans) && t.spans[i].pos <= pos
}

// newTestSpans finds the test code of the package of pass.
//
// A package-level unexported function (no receiver: a method may be
// reached through an interface, which no use names) is test-only when it
// is used at least once and every use lies in test code: a _test.go file,
// a function with a testing parameter, or the body of another test-only
// function. The fixed point is found with a worklist, each use visited
// once.
func newTestSpans(pass *analysis.Pass) *testSpans {
	info := pass.TypesInfo
	var roots []span
	type decl struct {
		fn   *types.Func
		body span
	}
	var decls []decl // in source order
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			var ft *ast.FuncType
			switch x := n.(type) {
			case *ast.FuncDecl:
				ft = x.Type
				if fn, ok := info.Defs[x.Name].(*types.Func); ok && x.Body != nil {
					decls = append(decls, decl{fn, span{x.Pos(), x.End()}})
				}
			case *ast.FuncLit:
				ft = x.Type
			default:
				return true
			}
			if fd, ok := n.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && holdsTest(info.TypeOf(fd.Recv.List[0].Type)) {
				roots = append(roots, span{n.Pos(), n.End()})
				return false
			}
			if ft.Params != nil {
				for _, fld := range ft.Params.List {
					if t := info.TypeOf(fld.Type); fromTesting(t) || testReporter(t) {
						roots = append(roots, span{n.Pos(), n.End()})
						return false // what it holds is test code too
					}
				}
			}
			return true
		})
	}
	sort.Slice(decls, func(i, j int) bool { return decls[i].body.pos < decls[j].body.pos })
	declAt := func(pos token.Pos) *types.Func {
		i := sort.Search(len(decls), func(i int) bool { return decls[i].body.end >= pos })
		if i < len(decls) && decls[i].body.pos <= pos {
			return decls[i].fn
		}
		return nil
	}
	rootSpans := &testSpans{spans: disjoint(roots)}
	inTest := func(pos token.Pos) bool {
		return inTestFile(pass.Fset, pos) || rootSpans.contains(pos)
	}
	candidate := func(fn *types.Func) bool {
		sig, ok := fn.Type().(*types.Signature)
		return ok && sig.Recv() == nil && !fn.Exported() && fn.Name() != "init" && fn.Name() != "main"
	}
	// pending[f]: the functions, not (yet) test code, that use f.
	pending := map[*types.Func]map[*types.Func]bool{}
	never := map[*types.Func]bool{}
	usedBy := map[*types.Func][]*types.Func{} // g -> the candidates g uses
	for id, obj := range info.Uses {
		f, ok := obj.(*types.Func)
		if !ok || f.Pkg() != pass.Pkg || !candidate(f) || never[f] {
			continue
		}
		g := declAt(id.Pos())
		if g == f && !inTestFile(pass.Fset, id.Pos()) {
			// A recursive call says nothing about who calls f: it is
			// no use (a function only itself calls is not test code).
			continue
		}
		if pending[f] == nil {
			pending[f] = map[*types.Func]bool{}
		}
		if inTest(id.Pos()) {
			continue
		}
		switch {
		case g == nil:
			never[f] = true // a package-level use: a variable's initializer
		case !pending[f][g]:
			pending[f][g] = true
			usedBy[g] = append(usedBy[g], f)
		}
	}
	var work []*types.Func
	testOnly := map[*types.Func]bool{}
	for f, users := range pending {
		if !never[f] && len(users) == 0 {
			testOnly[f] = true
			work = append(work, f)
		}
	}
	for len(work) > 0 {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		for _, f := range usedBy[g] {
			if never[f] || testOnly[f] {
				continue
			}
			delete(pending[f], g)
			if len(pending[f]) == 0 {
				testOnly[f] = true
				work = append(work, f)
			}
		}
	}
	spans := roots
	for _, d := range decls {
		if testOnly[d.fn] {
			spans = append(spans, d.body)
		}
	}
	return &testSpans{spans: disjoint(spans)}
}

// holdsTest reports whether recv, a method's receiver type, is a struct
// (or a pointer to one) with a field from package testing or of a test
// reporter interface: a fake or a fixture that keeps the test it serves
// (`type fakeCA struct{ t *testing.T }`), whose methods run in that test.
func holdsTest(recv types.Type) bool {
	if recv == nil {
		return false
	}
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	st, ok := recv.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if t := f.Type(); fromTesting(t) || testReporter(t) {
			return true
		}
	}
	return false
}

// disjoint sorts spans and merges those that overlap.
func disjoint(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].pos < spans[j].pos })
	var out []span
	for _, s := range spans {
		if n := len(out); n > 0 && s.pos <= out[n-1].end {
			if s.end > out[n-1].end {
				out[n-1].end = s.end
			}
			continue
		}
		out = append(out, s)
	}
	return out
}
