package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// RetryHelperFact is exported for a function that retries an operation it
// is given as a parameter — a package's own retry helper:
//
//	func withRetry(attempts int, op func() error) error { for i := 0; i < attempts; i++ { ... op() ... } }
//
// A call of it is then a retry site like a library's: the operation is the
// argument, the attempts the helper's constant bound or the value of its
// bounding parameter.
type RetryHelperFact struct {
	OpParam       int   // the parameter each attempt calls
	Attempts      int64 // constant attempts; 0 when bound by a parameter or unknown
	AttemptsParam int   // the int parameter bounding the attempts, or -1
	AttemptsPlus  int64 // attempts = the parameter's value + AttemptsPlus
	Site          string
	// Blind: the helper takes no context, and its retry waits between
	// attempts without watching one (time.Sleep): a caller's context
	// cannot cut its waits short.
	Blind bool
	// ClientErrors, NotDone: what Retry's fields of those names say of
	// the helper's own retry (it goes round only on client errors; only
	// on failures the server did not act on), for its calls.
	ClientErrors, NotDone bool
	// Spaced: the helper's own retry waits between its attempts (it has
	// waits and no attempt follows a failure at once). A loop that calls
	// the helper again after it gave up starts each round with one
	// attempt at once; its other attempts are spaced.
	Spaced bool
}

func (*RetryHelperFact) AFact() {}

func (f *RetryHelperFact) String() string {
	return fmt.Sprintf("retryhelper(op %d)", f.OpParam)
}

func (m *builder) helperOf(fn *types.Func) *RetryHelperFact {
	fn = fn.Origin()
	if fn.Pkg() == m.pass.Pkg {
		return m.helpers[fn]
	}
	var f RetryHelperFact
	if fn.Pkg() != nil && m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// findHelpers finds the package's functions whose retry runs a parameter.
func (m *builder) findHelpers() {
	info := m.pass.TypesInfo
	for fn, d := range m.vals.Decls {
		if catalogRow(fn) != nil {
			// A catalogued retry or send, analyzed in its own package:
			// its calls are judged by its row, not as a helper's.
			continue
		}
		sig := fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			ps, ok := p.Type().Underlying().(*types.Signature)
			if !ok || ps.Results().Len() == 0 || !analysisutil.IsErrorType(ps.Results().At(ps.Results().Len()-1).Type()) {
				continue
			}
			for _, r := range m.result.Retries {
				if !(d.Body.Pos() <= r.Pos && r.Pos < d.Body.End()) || m.inFuncLit(d.Body, r.Node) || !m.runsParam(r, p) {
					continue
				}
				if r.Kind == LibraryRetry && r.Attempts == 0 {
					// A wrapper of a library retry whose bound the model
					// cannot tell (WithMaxRetries(b, n-1) of a parameter,
					// options the caller may give): a call of it may make
					// one attempt. Not a helper.
					continue
				}
				h := &RetryHelperFact{OpParam: i, Attempts: r.Attempts, AttemptsParam: -1,
					Site: fmt.Sprintf("%s (%s) at %s", r.Describe(), AttemptsText(r.Attempts), analysisutil.ShortPos(m.pass.Fset, r.Pos))}
				if r.Attempts == 0 {
					h.AttemptsParam, h.AttemptsPlus = paramBound(info, sig, r.Node)
				}
				h.Blind = blindRetry(sig, r)
				h.ClientErrors, h.NotDone = r.ClientErrors, r.NotDone
				h.Spaced = r.Kind != LibraryRetry && len(r.Delays) > 0 && !r.Immediate
				m.helpers[fn] = h
				m.pass.ExportObjectFact(fn, h)
			}
		}
	}
}

// blindRetry reports whether r, the retry of a function of signature
// sig, waits between its attempts and never watches a context: the
// function is given none (no context.Context, no *http.Request whose
// Context() it could watch: a retry with one in scope is judged where it
// waits), and none of its waits is cancellable.
func blindRetry(sig *types.Signature, r *Retry) bool {
	if len(r.Delays) == 0 {
		return false
	}
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if analysisutil.IsNamedType(t, "context", "Context") || analysisutil.IsNamedType(t, "net/http", "Request") {
			return false
		}
	}
	for _, d := range r.Delays {
		if d.Cancellable {
			return false
		}
	}
	return true
}

// inFuncLit reports whether n is inside a function literal within body.
// The outermost literals of each body are listed once, in source order,
// so that asking for every retry of a long function stays linear.
func (m *builder) inFuncLit(body *ast.BlockStmt, n ast.Node) bool {
	lits, ok := m.litSpans[body]
	if !ok {
		if m.litSpans == nil {
			m.litSpans = map[*ast.BlockStmt][]*ast.FuncLit{}
		}
		ast.Inspect(body, func(x ast.Node) bool {
			if lit, ok := x.(*ast.FuncLit); ok {
				lits = append(lits, lit)
				return false
			}
			return true
		})
		m.litSpans[body] = lits
	}
	// The last literal starting at or before n.
	i := sort.Search(len(lits), func(i int) bool { return lits[i].Pos() > n.Pos() }) - 1
	return i >= 0 && n.End() <= lits[i].End()
}

// runsParam reports whether each attempt of r calls the parameter p (or
// hands it to a library retry as its operation).
func (m *builder) runsParam(r *Retry, p *types.Var) bool {
	info := m.pass.TypesInfo
	if call, ok := r.Node.(*ast.CallExpr); ok && r.Row != nil && r.Row.OpArg < len(call.Args) {
		if id, ok := analysisutil.Unparen(call.Args[r.Row.OpArg]).(*ast.Ident); ok && info.Uses[id] == p {
			return true
		}
	}
	found := false
	for _, op := range r.Ops {
		ast.Inspect(op, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := analysisutil.Unparen(c.Fun).(*ast.Ident); ok && info.Uses[id] == p {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// paramBound finds a loop bounded by an int parameter: for i := 0; i < n;
// i++ (n attempts), i <= n (n+1), for range n (n).
func paramBound(info *types.Info, sig *types.Signature, loop ast.Node) (int, int64) {
	param := func(e ast.Expr) int {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		for i := range sig.Params().Len() {
			if info.Uses[id] == sig.Params().At(i) {
				return i
			}
		}
		return -1
	}
	switch st := loop.(type) {
	case *ast.RangeStmt:
		if i := param(st.X); i >= 0 {
			return i, 0
		}
	case *ast.ForStmt:
		be, ok := st.Cond.(*ast.BinaryExpr)
		if !ok {
			break
		}
		start := int64(-1)
		if as, ok := st.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			if tv := info.Types[as.Rhs[0]]; tv.Value != nil && tv.Value.Kind() == constant.Int {
				start, _ = constant.Int64Val(tv.Value)
			}
		}
		if start < 0 {
			break
		}
		if i := param(be.Y); i >= 0 {
			switch be.Op {
			case token.LSS:
				return i, -start
			case token.LEQ:
				return i, 1 - start
			}
		}
	}
	return -1, 0
}

// helperCall records a call of a retry helper as a retry site.
func (m *builder) helperCall(call *ast.CallExpr, fn *types.Func, h *RetryHelperFact) {
	r := &Retry{Kind: LibraryRetry, Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(),
		Row: &catalog.Row{Role: catalog.Retry, Lib: analysisutil.FuncName(fn, m.pass.Pkg), OpArg: h.OpParam, BoundArg: -2}}
	r.Attempts = h.Attempts
	r.BlindWaits = h.Blind
	r.ClientErrors, r.NotDone = h.ClientErrors, h.NotDone
	if h.AttemptsParam >= 0 && h.AttemptsParam < len(call.Args) {
		if n, ok := m.constInt(call.Args[h.AttemptsParam]); ok && n+h.AttemptsPlus >= 1 {
			r.Attempts = n + h.AttemptsPlus
		}
	}
	if r.Attempts == 1 {
		return
	}
	if h.OpParam < len(call.Args) {
		m.setOp(r, call.Args[h.OpParam])
	}
	m.add(r)
}

// spacedRounds clears Immediate of a loop whose every operation that
// started a pass at once after a failure calls a retry helper whose own
// attempts wait between them (RetryHelperFact.Spaced): each round of
// the loop starts with one attempt at once, and its other attempts wait
// the helper's delays. That is no retry storm. (The helpers of the
// package are known only once its loops are judged.)
func (m *builder) spacedRounds() {
	for _, r := range m.result.Retries {
		if r.Kind != LoopRetry && r.Kind != GotoRetry || !r.Immediate || r.ImmediateIdentified || len(r.immediateOps) == 0 {
			continue
		}
		spaced := func(call *ast.CallExpr) bool {
			fn := analysisutil.Callee(m.pass.TypesInfo, call)
			if fn == nil {
				return false
			}
			h := m.helperOf(fn)
			return h != nil && h.Spaced
		}
		if !slices.ContainsFunc(r.immediateOps, func(c *ast.CallExpr) bool { return !spaced(c) }) {
			r.Immediate, r.ImmediateIdentified = r.immediateKnown, r.immediateKnown
		}
	}
}
