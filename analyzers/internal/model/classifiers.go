package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// IdentifyFact is exported for every function with an error parameter and
// a single bool result that returns true only after picking out which
// failure its error is: each `return true` (or any other bool) is guarded
// by such a test, and each other return gives false or such a test
// itself. The tests are the ones the interpreter counts as identifying
// in place: an error's or a value computed from it (its code, its text)
// compared with a constant or a package-level error, errors.Is, errors.As
// and errors.AsType on it, a case of a switch on such a value or on the
// error's type, strings.Contains / HasPrefix / HasSuffix of a value
// computed from it with a constant, and calls of other such functions;
// joined by && (one identifying term suffices) and || (every term must
// identify). A negated test identifies nothing. A loop that goes round
// when `isRetryable(err)` is true then goes round only on the failures it
// picked out, as if it had tested them itself.
type IdentifyFact struct {
	// Param is the index of the error parameter.
	Param int
	// Specific: every failure it picks out is one error value that names
	// a failure of no outage kind (errors.Is(err, ErrConnectionLimit), a
	// sentinel that is none of the catalog's Outage or Unsent rows, or
	// another such function): on its true branch a retry goes round on
	// its request's own state, as on `err == ErrConflict`
	// (Retry.Specific).
	Specific bool
	// Forwards is "Is" or "As" when the function's whole body is `return
	// errors.Is(err, target)` (or As) of its own parameters, Param and
	// Target (a package's errors.Is and errors.As, as github.com/pkg/errors
	// and many SDKs have them): a call of it is read as a call of the
	// standard one, its target as what the standard one's would be. An
	// equality of two errors (comparesErrors: `ErrorEqual(a, b)`, by
	// identity or message) forwards as "Is".
	Forwards string
	Target   int
}

func (*IdentifyFact) AFact() {}

func (f *IdentifyFact) String() string {
	s := "identifies"
	if f.Specific {
		s += " specific"
	}
	if f.Forwards != "" {
		s += fmt.Sprintf(" as errors.%s(%d, %d)", f.Forwards, f.Param, f.Target)
	}
	return s
}

// findClassifiers computes the package's identifying functions (rounds, so
// one may call another; each round is linear in the package) and exports
// their facts.
func (m *builder) findClassifiers() {
	m.classifiers = map[*types.Func]IdentifyFact{}
	for round := 0; round < 8; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if _, done := m.classifiers[fn]; done || d.Body == nil {
				continue
			}
			if f, ok := m.classifies(fn, d); ok {
				m.classifiers[fn] = f
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn, f := range m.classifiers {
		m.pass.ExportObjectFact(fn, &f)
	}
}

// classifier returns the fact of fn when fn is an identifying function
// (of this package, or by its fact).
func (m *builder) classifier(fn *types.Func) (IdentifyFact, bool) {
	if fn == nil {
		return IdentifyFact{}, false
	}
	fn = fn.Origin()
	if row := catalogRow(fn); row != nil && row.Role == catalog.SpecificCheck {
		return IdentifyFact{Param: 0, Specific: true}, true // os.IsNotExist(err)
	}
	if fn.Pkg() == m.pass.Pkg {
		f, ok := m.classifiers[fn]
		return f, ok
	}
	var f IdentifyFact
	if m.pass.ImportObjectFact(fn, &f) {
		return f, true
	}
	return IdentifyFact{}, false
}

// classifies reports whether d is an identifying function, with the index
// of its error parameter and whether what it picks out is specific.
func (m *builder) classifies(fn *types.Func, d *ast.FuncDecl) (IdentifyFact, bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return IdentifyFact{}, false
	}
	if sig.Results().At(0).Name() != "" {
		return IdentifyFact{}, false // named result: bare returns are not followed
	}
	if sig.Recv() != nil && catalog.ProtocolMethod(catalog.MatchMethod, fn.Name()) {
		// An error type's Is(error) bool matches by its receiver:
		// asked of a package-level error it picks out a family of
		// failures (sentinelIs); asked of any other, what it matches is
		// the receiver's to say.
		return IdentifyFact{}, false
	}
	if name, param, target, ok := forwardsErrors(m.pass.TypesInfo, sig, d); ok {
		return IdentifyFact{Param: param, Forwards: name, Target: target}, true
	}
	if param, target, ok := comparesErrors(m.pass.TypesInfo, sig, d); ok {
		return IdentifyFact{Param: param, Forwards: "Is", Target: target}, true
	}
	param := -1
	for i := range sig.Params().Len() {
		if analysisutil.IsErrorType(sig.Params().At(i).Type()) {
			param = i
			break
		}
	}
	if param < 0 {
		return IdentifyFact{}, false
	}
	c := &classify{m: m, info: m.pass.TypesInfo, derived: map[types.Object]bool{sig.Params().At(param): true}, asserted: map[types.Object]bool{}}
	c.derive(d.Body)
	if !c.block(d.Body.List, false) || !c.sawReturn {
		return IdentifyFact{}, false
	}
	return IdentifyFact{Param: param, Specific: !c.general}, true
}

// forwardsErrors reports whether d's whole body is `return errors.Is(p,
// t)` or `return errors.As(p, t)` with p and t two of its parameters,
// whose indexes it returns.
func forwardsErrors(info *types.Info, sig *types.Signature, d *ast.FuncDecl) (name string, param, target int, ok bool) {
	if len(d.Body.List) != 1 {
		return "", 0, 0, false
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return "", 0, 0, false
	}
	call, ok := analysisutil.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return "", 0, 0, false
	}
	fn := analysisutil.Callee(info, call)
	if !analysisutil.IsFunc(fn, "errors", "Is") && !analysisutil.IsFunc(fn, "errors", "As") {
		return "", 0, 0, false
	}
	paramIndex := func(e ast.Expr) int {
		if id, ok := analysisutil.Unparen(e).(*ast.Ident); ok {
			for i := range sig.Params().Len() {
				if info.Uses[id] == sig.Params().At(i) {
					return i
				}
			}
		}
		return -1
	}
	param, target = paramIndex(call.Args[0]), paramIndex(call.Args[1])
	if param < 0 || target < 0 || param == target {
		return "", 0, 0, false
	}
	return fn.Name(), param, target, true
}

// errorsCall returns, for a call of the standard errors.Is, errors.As or
// errors.AsType, or of a function forwarding to Is or As (IdentifyFact's
// Forwards), the standard function's name and the call's arguments in its
// order. classifier may be nil.
func errorsCall(info *types.Info, classifier func(*types.Func) (IdentifyFact, bool), call *ast.CallExpr) (string, []ast.Expr, bool) {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return "", nil, false
	}
	if analysisutil.PkgPath(fn) == "errors" {
		switch fn.Name() {
		case "Is", "As":
			return fn.Name(), call.Args, len(call.Args) == 2
		case "AsType":
			return fn.Name(), call.Args, len(call.Args) == 1
		}
		return "", nil, false
	}
	if classifier == nil {
		return "", nil, false
	}
	if f, ok := classifier(fn); ok && f.Forwards != "" && f.Param < len(call.Args) && f.Target < len(call.Args) {
		return f.Forwards, []ast.Expr{call.Args[f.Param], call.Args[f.Target]}, true
	}
	return "", nil, false
}

// classify judges one candidate function's body.
type classify struct {
	m       *builder
	info    *types.Info
	derived map[types.Object]bool // the error parameter and the locals computed from it
	// asserted are the ok bools of type assertions of the error (`e, ok
	// := err.(apiError)`): true, the error is of that type.
	asserted  map[types.Object]bool
	sawReturn bool // some return can give true
	general   bool // some identification is not of one specific error value
}

// derive marks the locals computed from the error (`code := errCode(err)`,
// `pgErr` in `errors.As(err, &pgErr)`), to a fixed point.
func (c *classify) derive(body *ast.BlockStmt) {
	for changed := true; changed; {
		changed = false
		mark := func(id *ast.Ident) {
			if obj := c.info.ObjectOf(id); obj != nil && !c.derived[obj] {
				c.derived[obj] = true
				changed = true
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i, r := range x.Rhs {
						if id, ok := x.Lhs[i].(*ast.Ident); ok && c.mentions(r) {
							mark(id)
						}
					}
				} else if len(x.Rhs) == 1 && c.mentions(x.Rhs[0]) {
					for _, l := range x.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							mark(id)
						}
					}
					if ta, ok := analysisutil.Unparen(x.Rhs[0]).(*ast.TypeAssertExpr); ok && ta.Type != nil && len(x.Lhs) == 2 && c.mentions(ta.X) {
						if id, ok := x.Lhs[1].(*ast.Ident); ok {
							if obj := c.info.ObjectOf(id); obj != nil {
								c.asserted[obj] = true
							}
						}
					}
				}
			case *ast.ValueSpec:
				for i, v := range x.Values {
					if i < len(x.Names) && c.mentions(v) {
						mark(x.Names[i])
					}
				}
			case *ast.CallExpr:
				if name, args, ok := errorsCall(c.info, c.m.classifier, x); ok && name == "As" && c.mentions(args[0]) {
					if u, ok := analysisutil.Unparen(args[1]).(*ast.UnaryExpr); ok && u.Op == token.AND {
						if id, ok := analysisutil.Unparen(u.X).(*ast.Ident); ok {
							mark(id)
						}
					}
				}
			}
			return true
		})
	}
}

// mentions reports whether e refers to the error or a local computed from it.
func (c *classify) mentions(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.derived[c.info.ObjectOf(id)] {
			found = true
		}
		return !found
	})
	return found
}

// block reports whether every return in stmts is allowed; guarded says
// the statements run only after an identifying test held.
func (c *classify) block(stmts []ast.Stmt, guarded bool) bool {
	// if !errors.As(err, &ce) { return false }; if ce.Resp.StatusCode !=
	// 400 { return false }: what follows runs only once every negated
	// test held, a conjunction, specific when one of its tests is.
	chain, chainSpecific := false, false
	for _, st := range stmts {
		if !c.stmt(st, guarded) {
			return false
		}
		if neg := c.refusal(st); neg != nil && c.identifies(neg) && (!guarded || chain) {
			chain, guarded = true, true
			chainSpecific = chainSpecific || c.specific(neg)
		}
	}
	if chain && !chainSpecific {
		c.general = true
	}
	return true
}

// refusal returns, for `if C { return false }` (no init, no else), the
// negation of C: X for `!X`, `a == b` for `a != b`. nil otherwise.
func (c *classify) refusal(st ast.Stmt) ast.Expr {
	ifs, ok := st.(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return nil
	}
	ret, ok := ifs.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	if tv := c.info.Types[ret.Results[0]]; tv.Value == nil || tv.Value.Kind() != constant.Bool || constant.BoolVal(tv.Value) {
		return nil
	}
	switch x := analysisutil.Unparen(ifs.Cond).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return x.X
		}
	case *ast.BinaryExpr:
		if x.Op == token.NEQ {
			return &ast.BinaryExpr{X: x.X, OpPos: x.OpPos, Op: token.EQL, Y: x.Y}
		}
	}
	return nil
}

func (c *classify) stmt(st ast.Stmt, guarded bool) bool {
	switch x := st.(type) {
	case *ast.ReturnStmt:
		if len(x.Results) != 1 {
			return false
		}
		r := x.Results[0]
		if tv, ok := c.info.Types[r]; ok && tv.Value != nil {
			if tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value) {
				return true
			}
			if guarded {
				c.sawReturn = true
				return true
			}
			return false
		}
		if guarded || c.identifies(r) {
			if !guarded {
				c.note(r)
			}
			c.sawReturn = true
			return true
		}
		return false
	case *ast.BlockStmt:
		return c.block(x.List, guarded)
	case *ast.LabeledStmt:
		return c.stmt(x.Stmt, guarded)
	case *ast.IfStmt:
		if x.Init != nil && !c.stmt(x.Init, guarded) {
			return false
		}
		id := c.identifies(x.Cond)
		if id && !guarded {
			c.note(x.Cond)
		}
		if !c.block(x.Body.List, guarded || id) {
			return false
		}
		if x.Else != nil {
			return c.stmt(x.Else, guarded)
		}
		return true
	case *ast.SwitchStmt:
		if x.Init != nil && !c.stmt(x.Init, guarded) {
			return false
		}
		for _, cl := range x.Body.List {
			cc := cl.(*ast.CaseClause)
			g := guarded
			if cc.List != nil {
				all := true
				for _, e := range cc.List {
					if x.Tag != nil {
						all = all && c.mentions(x.Tag) && c.constOrSentinel(e)
					} else {
						all = all && c.identifies(e)
					}
				}
				if all && !g {
					for _, e := range cc.List {
						if x.Tag != nil && !c.specificValue(e) || x.Tag == nil && !c.specific(e) {
							c.general = true
						}
					}
				}
				g = g || all
			}
			if !c.block(cc.Body, g) {
				return false
			}
		}
		return true
	case *ast.TypeSwitchStmt:
		var subject ast.Expr
		switch a := x.Assign.(type) {
		case *ast.AssignStmt:
			subject = a.Rhs[0].(*ast.TypeAssertExpr).X
		case *ast.ExprStmt:
			subject = a.X.(*ast.TypeAssertExpr).X
		}
		for _, cl := range x.Body.List {
			cc := cl.(*ast.CaseClause)
			g := guarded || cc.List != nil && c.mentions(subject) && !hasNilCase(c.info, cc)
			if g && !guarded {
				c.general = true // a type: a family of failures
			}
			if !c.block(cc.Body, g) {
				return false
			}
		}
		return true
	case *ast.ForStmt:
		return c.block(x.Body.List, guarded)
	case *ast.RangeStmt:
		return c.block(x.Body.List, guarded)
	case *ast.SelectStmt, *ast.GoStmt:
		return false // not a classifier's shape
	}
	return true // assignments, declarations, expressions: no return
}

func hasNilCase(info *types.Info, cc *ast.CaseClause) bool {
	for _, e := range cc.List {
		if tv, ok := info.Types[e]; ok && tv.IsNil() {
			return true
		}
	}
	return false
}

// identifies reports whether e, true, says which failure the error is.
func (c *classify) identifies(e ast.Expr) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.Ident:
		// ok of `e, ok := err.(apiError)`: the error's type, as a case
		// of a type switch on it picks out.
		return c.asserted[c.info.ObjectOf(x)]
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return c.identifies(x.X) || c.identifies(x.Y)
		case token.LOR:
			return c.identifies(x.X) && c.identifies(x.Y)
		case token.EQL:
			return c.mentions(x.X) && c.constOrSentinel(x.Y) || c.mentions(x.Y) && c.constOrSentinel(x.X)
		}
	case *ast.CallExpr:
		fn := analysisutil.Callee(c.info, x)
		if fn == nil {
			return false
		}
		switch analysisutil.PkgPath(fn) {
		case "errors":
			switch fn.Name() {
			case "Is", "As", "AsType":
				return len(x.Args) >= 1 && c.mentions(x.Args[0])
			}
			return false
		case "strings":
			switch fn.Name() {
			case "Contains", "HasPrefix", "HasSuffix", "EqualFold":
				return len(x.Args) == 2 && c.mentions(x.Args[0]) && c.constOrSentinel(x.Args[1])
			}
			return false
		}
		if f, ok := c.m.classifier(fn); ok && f.Param < len(x.Args) {
			return c.mentions(x.Args[f.Param])
		}
	}
	return false
}

// note records that the identification e makes is not of one specific
// error value, when it is not.
func (c *classify) note(e ast.Expr) {
	if !c.specific(e) {
		c.general = true
	}
}

// specific reports whether e, an identifying test, picks out only
// specific error values: errors.Is(err, S) or err == S with S a sentinel
// of no outage kind, or a specific identifying function; conjunctions
// where the identifying part is, disjunctions where both are.
func (c *classify) specific(e ast.Expr) bool {
	switch x := analysisutil.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return c.identifies(x.X) && c.specific(x.X) || c.identifies(x.Y) && c.specific(x.Y)
		case token.LOR:
			return c.specific(x.X) && c.specific(x.Y)
		case token.EQL:
			return c.mentions(x.X) && (c.specificValue(x.Y) || c.clientStatus(x.X, x.Y)) ||
				c.mentions(x.Y) && (c.specificValue(x.X) || c.clientStatus(x.Y, x.X))
		}
	case *ast.CallExpr:
		fn := analysisutil.Callee(c.info, x)
		if fn == nil {
			return false
		}
		if name, args, ok := errorsCall(c.info, c.m.classifier, x); ok && name == "Is" {
			return c.specificValue(args[1])
		}
		if f, ok := c.m.classifier(fn); ok {
			return f.Specific
		}
	}
	return false
}

// clientStatus reports whether field is the StatusCode of an
// *http.Response (one the error carries: `ce.Resp.StatusCode`) and code a
// constant client error, 4xx but 408, 425 and 429: the request itself
// was refused, which no outage causes.
func (c *classify) clientStatus(field, code ast.Expr) bool {
	sel, ok := analysisutil.Unparen(field).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" || !isHTTPResponse(c.info.TypeOf(sel.X)) {
		return false
	}
	tv := c.info.Types[code]
	if tv.Value == nil {
		return false
	}
	n, ok := constant.Int64Val(constant.ToInt(tv.Value))
	return ok && n >= 400 && n < 500 && !httpRetryable(n)
}

// specificValue reports whether e is an error sentinel (of the package or
// local) that names a failure of no outage kind.
func (c *classify) specificValue(e ast.Expr) bool {
	if !isSentinel(c.info, e) && !isLocalSentinel(c.info, c.m.localSentinels, e) {
		return false
	}
	tv, ok := c.info.Types[e]
	if !ok || tv.Value != nil || !analysisutil.IsErrorType(tv.Type) && !types.Implements(tv.Type, errorIface) {
		return false
	}
	role := errorRole(c.info, e)
	return role != catalog.Outage && role != catalog.Unsent && !c.m.isOutageVar(analysisutil.ReferredObject(c.info, e))
}

// constOrSentinel reports whether e is a constant other than nil, or a
// sentinel (isSentinel: a package-level variable, a constant-like value).
func (c *classify) constOrSentinel(e ast.Expr) bool {
	tv, ok := c.info.Types[e]
	if !ok || tv.IsNil() {
		return false
	}
	return tv.Value != nil || isSentinel(c.info, e) || isLocalSentinel(c.info, c.m.localSentinels, e)
}
