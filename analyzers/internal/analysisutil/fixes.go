package analysisutil

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// EnclosingSig returns the signature of the innermost function (declared
// or literal) of pass whose body contains pos, or nil.
func EnclosingSig(pass *analysis.Pass, pos token.Pos) *types.Signature {
	file := FileOf(pass, pos)
	if file == nil {
		return nil
	}
	var sig *types.Signature
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Body != nil && x.Body.Pos() <= pos && pos < x.Body.End() {
				if fn, ok := pass.TypesInfo.Defs[x.Name].(*types.Func); ok {
					sig, _ = fn.Type().(*types.Signature)
				}
			}
		case *ast.FuncLit:
			if x.Body.Pos() <= pos && pos < x.Body.End() {
				sig, _ = pass.TypesInfo.TypeOf(x).(*types.Signature)
			}
		}
		return true
	})
	return sig
}

// ReturnError returns the text of a return statement, in the function
// whose signature is sig, that returns err and the zero value of every
// other result: "return err", "return 0, err", "return nil, \"\", err". ok
// is false when the last result is not an error or a zero value cannot be
// written in file (a type of a package the file does not import).
func ReturnError(pass *analysis.Pass, file *ast.File, sig *types.Signature, err string) (string, bool) {
	if sig == nil || sig.Results().Len() == 0 || !IsErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return "", false
	}
	names := map[*types.Package]string{}
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		for _, q := range pass.Pkg.Imports() {
			if q.Path() == p {
				name := q.Name()
				if imp.Name != nil {
					name = imp.Name.Name
				}
				names[q] = name
			}
		}
	}
	ok := true
	qual := func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		name, found := names[p]
		if !found || name == "_" || name == "." {
			ok = false
		}
		return name
	}
	var vals []string
	for i := 0; i < sig.Results().Len()-1; i++ {
		vals = append(vals, zeroValue(sig.Results().At(i).Type(), qual))
	}
	vals = append(vals, err)
	return "return " + strings.Join(vals, ", "), ok
}

func zeroValue(t types.Type, qual types.Qualifier) string {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return "*new(" + types.TypeString(t, qual) + ")"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		}
		return "nil"
	case *types.Struct, *types.Array:
		return types.TypeString(t, qual) + "{}"
	}
	return "nil"
}

// CallAt returns the call expression of root that starts at pos, or nil.
func CallAt(root ast.Node, pos token.Pos) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(root, func(n ast.Node) bool {
		if found != nil || n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() == pos {
			found = c
		}
		return found == nil
	})
	return found
}
