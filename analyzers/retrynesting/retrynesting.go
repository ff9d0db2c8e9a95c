package retrynesting

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/mesh/routes"
)

//go:embed doc.go
var doc string

// Analyzer reports retries nested inside retries.
var Analyzer = &analysis.Analyzer{
	Name:     "retrynesting",
	Doc:      analysisutil.MustExtractDoc(doc, "retrynesting"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/retrynesting.md",
	Requires: []*analysis.Analyzer{model.Analyzer, sends.Analyzer},
	Run:      run,
}

// meshRoutes are the service mesh's routes, set by resilint -mesh (empty
// otherwise: no finding then depends on the mesh).
var meshRoutes routes.Table

func init() {
	Analyzer.Flags.Var(&meshRoutes, "mesh", "the service mesh's routes, as JSON (set by resilint -mesh DIR): retries whose requests the mesh retries again count the mesh's attempts")
}

// maxRelated bounds the related locations of one diagnostic.
const maxRelated = 8

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	for _, r := range res.Retries {
		if len(r.Inner) == 0 {
			if d, ok := meshDiagnostic(r, pass.ResultOf[sends.Analyzer].(*sends.Result)); ok {
				pass.Report(d)
			}
			continue
		}
		if r.Kind == model.RecursiveRetry && r.CountParam >= 0 {
			// Its bound is the caller's argument: the finding is made at
			// the call that gives it, where the number is known.
			continue
		}
		if r.Amp == 0 && r.Attempts > 0 {
			// An inner retry whose bound the model cannot tell (a
			// configured field, a client built never to retry): no
			// finding rather than a guess.
			continue
		}
		if r.Identified || r.ClientErrors {
			// The outer retry goes round only after a failure it picked
			// out (an error value or type, its text, the operation's own
			// verdict): a repair and one more try on a definitive reply,
			// such as an account the server no longer has. Whether the
			// inner retries give up with that very failure is not in the
			// code: no finding rather than a guess. The same holds
			// for a loop that goes round only on client-error
			// responses (a 401 after a token refresh).
			continue
		}
		if r.Attempts == 0 && (r.CountBounded || r.TimeBounded) {
			// The outer retry is bounded by a number or a deadline the
			// model cannot read (a configured count, the caller's
			// context): how many calls it makes is a guess.
			continue
		}
		pass.Report(diagnostic(pass, r))
	}
	reportCounted(pass, res)
	return nil, nil
}

// reportCounted reports the nesting of recursive retries of this package
// bounded by their caller's argument (skipped above) at the calls that
// give them a constant count: `charge(ctx, 3)` of a recursion whose every
// attempt reaches a retry. The same guards apply as to a retry whose
// bound is known. No fix: the edit belongs in the recursion.
func reportCounted(pass *analysis.Pass, res *model.Result) {
	for _, c := range res.CountedCalls {
		r := c.Retry
		if r == nil || len(r.Inner) == 0 || r.Identified || r.ClientErrors {
			continue // another package's recursion: its guards are not known here
		}
		var b strings.Builder
		fmt.Fprintf(&b, "nested retry: %s makes %s (the count given here), each %s", r.Describe(), model.AttemptsText(c.Attempts), reaching(pass, r.Inner, false))
		fmt.Fprintf(&b, ": up to %d downstream calls per request", c.Attempts*c.Fact.PerAttempt)
		related := []analysis.RelatedInformation{{Pos: r.Pos, Message: "the recursive retry whose count this call gives"}}
		for i, in := range r.Inner {
			if i == maxRelated {
				break
			}
			related = append(related, analysis.RelatedInformation{Pos: in.Pos, Message: "inner retry: " + describe(pass, in)})
		}
		pass.Report(analysis.Diagnostic{Pos: c.Call.Pos(), End: c.Call.End(), Category: "nested", Message: b.String(), Related: related})
	}
}

// reaching words what each attempt reaches: the one inner retry, or how
// many (with how many attempts or calls each, when detailed).
func reaching(pass *analysis.Pass, inner []*model.Reach, detailed bool) string {
	if len(inner) == 1 {
		return "reaching " + describe(pass, inner[0])
	}
	s := fmt.Sprintf("reaching %d retrying calls", len(inner))
	if !detailed {
		return s
	}
	if same, n := uniform(inner); same && n > 0 {
		return s + fmt.Sprintf(" (%s each)", model.AttemptsText(n))
	}
	if per := perAttempt(inner); per > 0 {
		return s + fmt.Sprintf(" (up to %d calls per attempt)", per)
	}
	return s
}

func diagnostic(pass *analysis.Pass, r *model.Retry) analysis.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "nested retry: %s makes %s, each %s", r.Describe(), model.AttemptsText(r.Attempts), reaching(pass, r.Inner, true))
	switch {
	case r.Amp > 0:
		fmt.Fprintf(&b, ": up to %d downstream calls per request", r.Amp)
	case r.Attempts == 0:
		b.WriteString(": downstream calls per request are unbounded (no constant attempt bound here)")
	}
	if hint := disableHint(r.Inner); hint != "" {
		fmt.Fprintf(&b, "; retry at one layer only (%s)", hint)
	}

	res := pass.ResultOf[model.Analyzer].(*model.Result)
	var related []analysis.RelatedInformation
	for i, in := range r.Inner {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{
			Pos:     in.Pos,
			Message: "inner retry: " + describe(pass, in),
		})
		// The inner retry itself, when it is in this package.
		if in.Callee != nil {
			if p, ok := res.SitePos[in.Callee.Origin()]; ok {
				related = append(related, analysis.RelatedInformation{Pos: p, Message: "the inner retry: " + in.Fact.Site})
			}
		}
	}
	d := analysis.Diagnostic{
		Pos:      r.Pos,
		End:      r.End,
		Category: "nested",
		Message:  b.String(),
		Related:  related,
	}
	if !othersRetry(pass, r) {
		return d
	}
	fix := oneAttemptFix(pass, r)
	if fix == nil {
		fix = loopOnceFix(pass, r)
	}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	return d
}

const onceMsg = "Make the outer retry a single attempt: the calls it makes retry by themselves"

// othersRetry reports whether every fallible call one attempt of r makes
// is (or is inside) one of the retries it reaches: only then does making
// r a single attempt keep every operation retried, at one layer. Not
// operations: the waits between attempts, error constructors (packages
// errors and fmt) and a context's Err.
func othersRetry(pass *analysis.Pass, r *model.Retry) bool {
	inReach := func(call *ast.CallExpr) bool {
		for _, in := range r.Inner {
			if in.Retry != nil && in.Retry.Node != nil && in.Retry.Node.Pos() <= call.Pos() && call.End() <= in.Retry.Node.End() {
				return true
			}
			if in.Callee != nil && in.Pos == call.Pos() {
				return true
			}
		}
		return false
	}
	isWait := func(call *ast.CallExpr) bool {
		for _, d := range r.Delays {
			if d.Call == call {
				return true
			}
		}
		return false
	}
	ok := true
	for _, op := range r.Ops {
		ast.Inspect(op, func(n ast.Node) bool {
			call, isCall := n.(*ast.CallExpr)
			if !ok || !isCall {
				return ok
			}
			if inReach(call) {
				return false
			}
			sig, _ := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
			if sig == nil || sig.Results().Len() == 0 || !analysisutil.IsErrorType(sig.Results().At(sig.Results().Len()-1).Type()) || isWait(call) {
				return true
			}
			if fn := analysisutil.Callee(pass.TypesInfo, call); fn != nil {
				switch {
				case analysisutil.PkgPath(fn) == "errors", analysisutil.IsFunc(fn, "fmt", "Errorf"),
					analysisutil.IsMethod(fn, "context", "Context", "Err"):
					return true
				}
			}
			ok = false
			return false
		})
	}
	return ok
}

// loopOnceFix keeps a single retrying layer by making a hand-written outer
// retry loop a single attempt, when its attempt count is its header's
// constant bound: `for i := c; i < n; i++` becomes `i < c+1` (`i <= n`:
// `i <= c`), `for range n` becomes `range 1`. A bound that is an
// unexported constant used nowhere else, declared in the same file, is
// set to the new value where it is declared, so that its name still
// says what it bounds.
func loopOnceFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	if r.Kind != model.LoopRetry || r.Attempts < 2 {
		return nil
	}
	info := pass.TypesInfo
	constInt := func(e ast.Expr) (int64, bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(tv.Value)
	}
	var bound ast.Expr
	var once int64
	switch st := r.Node.(type) {
	case *ast.ForStmt:
		init, ok := st.Init.(*ast.AssignStmt)
		if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
			return nil
		}
		id, ok := init.Lhs[0].(*ast.Ident)
		if !ok {
			return nil
		}
		counter, ok := info.Defs[id].(*types.Var)
		if !ok {
			return nil
		}
		start, ok := constInt(init.Rhs[0])
		if !ok {
			return nil
		}
		post, ok := st.Post.(*ast.IncDecStmt)
		if !ok || post.Tok != token.INC || !isVar(info, post.X, counter) {
			return nil
		}
		cond, ok := analysisutil.Unparen(st.Cond).(*ast.BinaryExpr)
		if !ok {
			return nil
		}
		op := cond.Op
		switch {
		case isVar(info, cond.X, counter):
			bound = cond.Y
		case isVar(info, cond.Y, counter):
			bound = cond.X
			op = map[token.Token]token.Token{token.GTR: token.LSS, token.GEQ: token.LEQ}[op]
		default:
			return nil
		}
		n, ok := constInt(bound)
		if !ok || writes(info, st.Body, counter) {
			return nil
		}
		switch op {
		case token.LSS:
			if n-start != r.Attempts {
				return nil
			}
			once = start + 1
		case token.LEQ:
			if n-start+1 != r.Attempts {
				return nil
			}
			once = start
		default:
			return nil
		}
	case *ast.RangeStmt:
		if st.X == nil {
			return nil
		}
		if b, ok := info.TypeOf(st.X).Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return nil
		}
		if n, ok := constInt(st.X); !ok || n != r.Attempts {
			return nil
		}
		bound, once = st.X, 1
	default:
		return nil
	}
	text := []byte(strconv.FormatInt(once, 10))
	if v := soleConst(pass, bound); v != nil {
		return &analysis.SuggestedFix{Message: onceMsg, TextEdits: []analysis.TextEdit{{Pos: v.Pos(), End: v.End(), NewText: text}}}
	}
	return &analysis.SuggestedFix{Message: onceMsg, TextEdits: []analysis.TextEdit{{Pos: bound.Pos(), End: bound.End(), NewText: text}}}
}

// isVar reports whether e is the variable v.
func isVar(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := analysisutil.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// writes reports whether n assigns v, increments it or takes its address.
func writes(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				found = found || isVar(info, l, v)
			}
		case *ast.IncDecStmt:
			found = found || isVar(info, x.X, v)
		case *ast.UnaryExpr:
			found = found || x.Op == token.AND && isVar(info, x.X, v)
		}
		return !found
	})
	return found
}

// soleConst returns the value expression of the constant bound names,
// when it is unexported, declared with an explicit value in the same file
// and used only there; otherwise nil.
func soleConst(pass *analysis.Pass, bound ast.Expr) ast.Expr {
	id, ok := analysisutil.Unparen(bound).(*ast.Ident)
	if !ok {
		return nil
	}
	c, ok := pass.TypesInfo.Uses[id].(*types.Const)
	if !ok || c.Pkg() != pass.Pkg || c.Exported() {
		return nil
	}
	for use, obj := range pass.TypesInfo.Uses {
		if obj == c && use != id {
			return nil
		}
	}
	file := analysisutil.FileOf(pass, id.Pos())
	if file == nil || !(file.Pos() <= c.Pos() && c.Pos() < file.End()) {
		return nil
	}
	var value ast.Expr
	ast.Inspect(file, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return value == nil
		}
		for i, name := range vs.Names {
			if pass.TypesInfo.Defs[name] == c && len(vs.Values) == len(vs.Names) {
				value = vs.Values[i]
			}
		}
		return false
	})
	return value
}

// oneAttemptFix keeps a single retrying layer by making the outer retry,
// when it is a library's whose attempt option the catalog knows, a single
// attempt; the calls it wraps keep their own retries. An option already
// given is set to one attempt (retry-go's Attempts(1), cenkalti/backoff
// v5's WithMaxTries(1), v4's WithMaxRetries(b, 0)); otherwise one is added
// to the options, or, for cenkalti/backoff v4, wrapped around the BackOff.
func oneAttemptFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	call, ok := r.Node.(*ast.CallExpr)
	if !ok || r.Kind != model.LibraryRetry || r.Row == nil || call.Ellipsis.IsValid() || r.Row.BoundArg < 0 {
		return nil
	}
	var opt *catalog.Row
	for i := range catalog.Rows {
		if row := &catalog.Rows[i]; row.Path == r.Row.Path && row.Role == catalog.AttemptOption && row.Recv == "" {
			opt = row
		}
	}
	if opt == nil {
		return nil
	}
	one := fmt.Sprint(1 - opt.Plus) // the option's value for one attempt
	isOpt := func(e ast.Expr) *ast.CallExpr {
		c, ok := analysisutil.Unparen(e).(*ast.CallExpr)
		if ok && opt.ValueArg < len(c.Args) && analysisutil.IsFunc(analysisutil.Callee(pass.TypesInfo, c), opt.Path, opt.Name) {
			return c
		}
		return nil
	}
	const msg = onceMsg
	if r.Row.Variadic {
		if r.Row.BoundArg > len(call.Args) || opt.ValueArg != 0 {
			return nil
		}
		for _, a := range call.Args[r.Row.BoundArg:] {
			if c := isOpt(a); c != nil {
				return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: c.Args[0].Pos(), End: c.Args[0].End(), NewText: []byte(one)}}}
			}
		}
		file := analysisutil.FileOf(pass, call.Pos())
		if file == nil || len(call.Args) == 0 {
			return nil
		}
		name, edits := analysisutil.AddImport(pass, file, opt.Path, pathName(opt.Path))
		last := call.Args[len(call.Args)-1]
		edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(fmt.Sprintf(", %s.%s(%s)", name, opt.Name, one))})
		return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
	}
	if r.Row.BoundArg >= len(call.Args) || opt.ValueArg != 1 {
		return nil
	}
	b := call.Args[r.Row.BoundArg]
	if c := isOpt(b); c != nil {
		v := c.Args[opt.ValueArg]
		return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: v.Pos(), End: v.End(), NewText: []byte(one)}}}
	}
	file := analysisutil.FileOf(pass, call.Pos())
	if file == nil {
		return nil
	}
	name, edits := analysisutil.AddImport(pass, file, opt.Path, pathName(opt.Path))
	edits = append(edits,
		analysis.TextEdit{Pos: b.Pos(), End: b.Pos(), NewText: []byte(name + "." + opt.Name + "(")},
		analysis.TextEdit{Pos: b.End(), End: b.End(), NewText: []byte(", " + one + ")")})
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// pathName is the name a package at path is imported by when a fix adds
// it: its last element, without a major version suffix or a "-go" one.
func pathName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	last = strings.TrimSuffix(last, "-go")
	return strings.ReplaceAll(last, "-", "")
}

// describe words one reach: "a retry loop (3 attempts) at price.go:14",
// "pricing.Fetch, which retries: retry loop (3 attempts) at price.go:14".
func describe(pass *analysis.Pass, in *model.Reach) string {
	if in.Retry != nil {
		s := fmt.Sprintf("a %s (%s) at %s", in.Retry.Describe(), model.AttemptsText(in.Retry.Attempts), analysisutil.ShortPos(pass.Fset, in.Pos))
		if in.Retry.Amp != in.Retry.Attempts && in.Retry.Amp > 0 {
			s += fmt.Sprintf(", up to %d calls", in.Retry.Amp)
		}
		return s
	}
	chain := []string{analysisutil.FuncName(in.Callee, pass.Pkg)}
	chain = append(chain, in.Fact.Via...)
	s := strings.Join(chain, " → ") + ", which retries: " + in.Fact.Site
	if in.Fact.Depth > 1 || !strings.Contains(in.Fact.Site, fmt.Sprintf("(%s)", model.AttemptsText(in.Fact.Calls))) {
		if in.Fact.Calls > 0 {
			s += fmt.Sprintf(", up to %d calls", in.Fact.Calls)
		}
	}
	return s
}

func uniform(rs []*model.Reach) (bool, int64) {
	first := rs[0].Amp()
	for _, r := range rs[1:] {
		if r.Amp() != first {
			return false, 0
		}
	}
	return true, first
}

func perAttempt(rs []*model.Reach) int64 {
	var total int64
	for _, r := range rs {
		if r.Amp() == 0 {
			return 0
		}
		total += r.Amp()
	}
	return total
}

func disableHint(rs []*model.Reach) string {
	for _, in := range rs {
		if in.Retry != nil && in.Retry.Disable() != "" {
			return in.Retry.Disable()
		}
		if in.Fact != nil && in.Fact.Disable != "" {
			return in.Fact.Disable
		}
	}
	return ""
}

// meshDiagnostic reports a retry of the code whose requests go to a host
// the service mesh retries too: the two layers multiply. Only with a
// constant attempt bound and a host the model reads from a constant URL;
// a host the mesh does not know is no finding.
func meshDiagnostic(r *model.Retry, sent *sends.Result) (analysis.Diagnostic, bool) {
	if meshRoutes.Len() == 0 || r.Attempts <= 0 {
		return analysis.Diagnostic{}, false
	}
	var worst routes.Route
	for _, s := range sent.Of(r) {
		if rt, ok := meshRoutes.Lookup(s.Host); ok && rt.Tries > worst.Tries {
			worst = rt
		}
	}
	if worst.Tries < 2 {
		return analysis.Diagnostic{}, false
	}
	by := "by the mesh"
	if worst.Default {
		by = "by the mesh (Istio default)"
	}
	msg := fmt.Sprintf("nested retry across layers: %s makes %s, each sent to %s, which the service mesh retries (%s, %s): %d attempts in code × %d %s = up to %d calls per request; retry at one layer only (retries.attempts: 0 on the mesh route, or a single attempt in code)",
		r.Describe(), model.AttemptsText(r.Attempts), worst.Host, worst.Policy, worst.Where,
		r.Attempts, worst.Tries, by, r.Attempts*int64(worst.Tries))
	return analysis.Diagnostic{Pos: r.Pos, End: r.End, Category: "mesh", Message: msg}, true
}
