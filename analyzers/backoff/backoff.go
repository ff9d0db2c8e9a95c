package backoff

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/model/libconfig"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

//go:embed doc.go
var doc string

// Analyzer reports retry delays that synchronize clients, grow without
// bound or are missing, and retries without a bound.
var Analyzer = &analysis.Analyzer{
	Name:     "backoff",
	Doc:      analysisutil.MustExtractDoc(doc, "backoff"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/backoff.md",
	Requires: []*analysis.Analyzer{model.Analyzer, libconfig.Analyzer, hostlocal.Analyzer},
	Run:      run,
}

// defaultCap is the cap the suggested fix puts on an uncapped exponential
// delay; the message says to adjust it.
const defaultCap = "30*%s.Second"

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	local := pass.ResultOf[hostlocal.Analyzer].(*hostlocal.Result)
	for _, r := range res.Retries {
		if r.Implements != nil {
			// A library's own body of a catalogued retry: the row
			// describes it, and its callers are judged where they call
			// it, with the policy they chose.
			continue
		}
		if r.ClientErrors {
			// It goes round only on a response refused with a client
			// error (an expired token, a conflict): no outage makes
			// clients fail together, there is no wave to spread and no
			// dependency down to storm.
			continue
		}
		if r.Attempts == 1 {
			// Its bound lets it make one attempt (`if n++; n > 1 {
			// return }` at the top of the pass): no attempt follows its
			// waits, which delay only the return.
			continue
		}
		if local.Within(r.Ops, r.OpFuncs) {
			// Every attempt stays on this host (binding a listener on
			// a port the kernel picks, redialing a Unix socket): there
			// is no shared dependency for synchronized or immediate
			// retries to overwhelm.
			continue
		}
		switch r.Kind {
		case model.LoopRetry, model.GotoRetry, model.RecursiveRetry:
			checkLoop(pass, r)
		}
	}
	// A watch or a consumer that waits after a failure before calling
	// again retries the call: its waits are judged as retry delays, but
	// it has no bound and no attempts by design.
	for _, r := range res.Resumes {
		if r.Implements == nil && !local.Within(r.Ops, r.OpFuncs) {
			checkDelays(pass, r)
		}
	}
	checkDelayArgs(pass, res.DelayArgs)
	var settings []*libconfig.Setting
	for _, s := range pass.ResultOf[libconfig.Analyzer].(*libconfig.Result).Settings {
		if res.Implementation(s.Pos) == nil {
			settings = append(settings, s)
		}
	}
	reportConfigs(pass, settings)
	return nil, nil
}

// checkDelays judges the waits of one retry. One behaviour, one finding:
// the waits that share a problem are reported once, at the first, with
// the others as related locations and one fix for all.
func checkDelays(pass *analysis.Pass, r *model.Retry) {
	var got []analysis.Diagnostic
	report := pass.Report
	pass.Report = func(d analysis.Diagnostic) { got = append(got, d) }
	for _, d := range r.Delays {
		checkDelay(pass, d, r.Specific || r.Probe || r.Draws)
	}
	pass.Report = report
	for _, d := range mergeByCategory(got) {
		report(d)
	}
}

func checkLoop(pass *analysis.Pass, r *model.Retry) {
	checkDelays(pass, r)
	// A resend at once that follows only failures the code picked out
	// (err == errStale, errors.As(err, &reset), the operation's own
	// "retry" bool) is that code's answer to those failures, such as a
	// pooled connection found closed: whether a resend at once is right
	// for them is not in the code. The same holds for going round
	// without a bound on them. Not reported. Nor is a recursion that
	// asks once more after it changed the state that chose to ask again
	// (a token dropped, a protocol downgraded): a fallback, whose second
	// attempt no later call repeats; nor a loop whose every way round
	// does so (a ladder of fallbacks, bounded by its rungs). Nor is a loop of two attempts that
	// reach no retry of their own: its one retry sent at once (a fast
	// first retry, for a connection found stale or a blip) adds no more
	// load than a paused one would, and nothing follows it. Nor is a loop
	// that gives each attempt an identifier drawn anew (model.Retry.Draws:
	// a key tried until one is free): trying the next candidate at once
	// is the point of a search.
	if r.Immediate && !r.ImmediateIdentified && !r.Fallback && !r.Draws && (r.Attempts != 2 || len(r.Inner) > 0) && !slices.ContainsFunc(r.Delays, func(d *waits.Delay) bool { return waits.NoWait(pass.TypesInfo, d.Call) }) {
		d := analysis.Diagnostic{
			Pos:      r.Pos,
			End:      r.End,
			Category: "no-delay",
			Message:  fmt.Sprintf("%s tries again at once after a failure (no delay between attempts): a failing dependency gets every retry immediately, a retry storm; wait a jittered backoff between attempts (runtime/retry)", r.Describe()),
		}
		if fix := waitFix(pass, r); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
	if r.SelectBreak != nil && r.Attempts == 0 && !r.CountBounded && !r.Identified {
		// Meant to end with the context, and going on without it: a cap
		// on the backoff does not make that the design.
		pass.Report(selectBreakDiagnostic(pass, r))
		return
	}
	if r.Attempts == 0 && !r.TimeBounded && !r.CountBounded && !r.Identified && !r.Fallback && !backsOffToCap(r) {
		pass.Report(analysis.Diagnostic{
			Pos:      r.Pos,
			End:      r.End,
			Category: "no-bound",
			Message:  fmt.Sprintf("%s has no bound: no attempt limit, no elapsed-time cap and no context check, so it retries for as long as the dependency is down; bound the attempts or check ctx.Done()", r.Describe()),
		})
	}
}

// backsOffToCap reports whether every wait of r whose shape the model
// knows grows exponentially to a cap, and there is one. A retry built so
// is made to run through a long outage, as the reconnect of a long-lived
// connection is: once at its cap it costs the dependency one attempt per
// client per cap, and going on until the dependency is back is the
// design, not a missing bound. A wait of unknown shape (inside a helper
// the model cannot see into) says nothing either way.
func backsOffToCap(r *model.Retry) bool {
	known := false
	for _, d := range r.Delays {
		if d.Shape.Jitter == waits.JitterUnknown && d.Shape.Next == nil {
			continue // a backoff value's next wait has the catalog's shape
		}
		if !d.Shape.Exponential || !d.Shape.Capped {
			return false
		}
		known = true
	}
	return known
}

// checkDelay judges one wait. specific: the retry goes round only on
// failures of the request's own state (model.Retry.Specific), which
// clients do not meet together: there are no waves for jitter to break;
// or its attempts are probes that open a connection and close it at once
// (model.Retry.Probe), whose waves cost the dependency a handshake each
// and no work; or each attempt asks for a new identifier
// (model.Retry.Draws), a search whose collisions are each client's own.
// Only a delay that grows without a cap is reported.
func checkDelay(pass *analysis.Pass, d *waits.Delay, specific bool) {
	if waits.NoWait(pass.TypesInfo, d.Call) {
		// time.Sleep(10): ten nanoseconds, whatever unit was meant.
		pass.Report(analysis.Diagnostic{
			Pos: d.Call.Pos(), End: d.Call.End(), Category: "no-delay",
			Message: fmt.Sprintf("%s sleeps %s (a constant duration is nanoseconds): the retry tries again at once after a failure, a retry storm; give the duration a unit (%s * time.Millisecond) and wait a jittered backoff (runtime/retry)",
				analysisutil.Text(pass, d.Call), time.Duration(constDuration(pass, d.Dur)), analysisutil.Text(pass, d.Dur)),
		})
		return
	}
	sh := d.Shape
	file := analysisutil.FileOf(pass, d.Dur.Pos())
	if file == nil {
		return
	}
	noCap := sh.Exponential && !sh.Capped
	if specific {
		if noCap {
			reportNoCap(pass, file, d)
		}
		return
	}
	switch sh.Jitter {
	case waits.JitterNone:
		if isShortPause(pass, d.Dur) {
			return
		}
		if d.Own {
			// c.backoff(attempt): the delay is computed inside the
			// helper; there is no duration here to wrap.
			pass.Report(analysis.Diagnostic{
				Pos: d.Call.Pos(), End: d.Call.End(), Category: "no-jitter",
				Message: fmt.Sprintf("retry delay has no jitter: %s computes its wait with no random part, so clients that failed together retry together, in synchronized waves after every recovery; add jitter where it computes the delay (runtime/retry's FullJitter)", waiterName(pass, d.Call)),
			})
			return
		}
		if lib := sh.Lib; lib != nil {
			reportLibJitter(pass, d, lib)
			return
		}
		msg := "retry delay has no jitter: clients that failed together retry together, in synchronized waves after every recovery"
		category := "no-jitter"
		fixMsg := "Wrap the delay in retry.FullJitter"
		if noCap {
			msg = "retry delay grows exponentially with no cap and no jitter: clients retry in synchronized waves, and the delay grows without bound (and eventually overflows)"
			fixMsg = "Cap the delay at 30s and wrap it in retry.FullJitter"
		}
		name, edits := analysisutil.AddImport(pass, file, catalog.ResilintRetry, "retry")
		prefix, suffix := name+".FullJitter(", ")"
		if noCap {
			tname, tedits := analysisutil.AddImport(pass, file, "time", "time")
			edits = append(edits, tedits...)
			prefix += "min("
			suffix = ", " + fmt.Sprintf(defaultCap, tname) + "))"
		}
		edits = append(edits,
			analysis.TextEdit{Pos: d.Dur.Pos(), End: d.Dur.Pos(), NewText: []byte(prefix)},
			analysis.TextEdit{Pos: d.Dur.End(), End: d.Dur.End(), NewText: []byte(suffix)})
		pass.Report(analysis.Diagnostic{
			Pos: d.Dur.Pos(), End: d.Dur.End(), Category: category, Message: msg,
			SuggestedFixes: []analysis.SuggestedFix{{Message: fixMsg, TextEdits: edits}},
		})
	case waits.JitterFull, waits.JitterEqual, waits.JitterSeeded:
		if noCap {
			reportNoCap(pass, file, d)
			return
		}
		switch sh.Jitter {
		case waits.JitterEqual:
			pass.Report(analysis.Diagnostic{
				Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "equal-jitter",
				Message:        "retry delay uses equal jitter (a fixed part plus a random part): full jitter, uniform in [0, backoff], spreads retries flatter after a recovery",
				SuggestedFixes: equalToFull(pass, d.Dur),
			})
		case waits.JitterSeeded:
			if analysisutil.IsTestFile(pass, d.Dur.Pos()) {
				return
			}
			pass.Report(analysis.Diagnostic{
				Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "seeded-jitter",
				Message: fmt.Sprintf("retry jitter comes from a generator with a constant seed (%s): every instance draws the same delays, so they still retry in step; use math/rand/v2's top-level functions or runtime/retry", analysisutil.ShortPos(pass.Fset, sh.SeedPos)),
				Related: []analysis.RelatedInformation{{Pos: sh.SeedPos, Message: "constant seed"}},
			})
		}
	}
}

// reportLibJitter reports a wait that is a backoff value's next delay
// (b.Duration()) whose value leaves its jitter field out or zero, with a
// fix that sets the field where the value is made.
func reportLibJitter(pass *analysis.Pass, d *waits.Delay, lib *waits.LibDelay) {
	diag := analysis.Diagnostic{
		Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "no-jitter",
		Message: fmt.Sprintf("retry delay has no jitter: the %s that %s steps %s, so its waits have no random part and clients that failed together retry together, in synchronized waves after every recovery; set %s to %s",
			libValue(lib), types.ExprString(lib.Call), libSetting(lib), lib.Field.Name, lib.Field.FixValue),
	}
	addLibJitterFix(pass, &diag, lib)
	pass.Report(diag)
}

// libValue names the backoff value of lib: its literal's type.
func libValue(lib *waits.LibDelay) string {
	if lib.Lit != nil {
		return types.ExprString(lib.Lit.Type)
	}
	return lib.Next.Recv
}

// libSetting says how the backoff value of lib sets its jitter field.
func libSetting(lib *waits.LibDelay) string {
	if lib.Value != nil {
		return "sets " + lib.Field.Name + " to " + types.ExprString(lib.Value)
	}
	return "leaves " + lib.Field.Name + " out"
}

// addLibJitterFix gives diag the fix that sets lib's jitter field where
// the backoff value is made, and points there.
func addLibJitterFix(pass *analysis.Pass, diag *analysis.Diagnostic, lib *waits.LibDelay) {
	var edit analysis.TextEdit
	switch {
	case lib.Value != nil:
		edit = analysis.TextEdit{Pos: lib.Value.Pos(), End: lib.Value.End(), NewText: []byte(lib.Field.FixValue)}
	case lib.Lit != nil:
		edit = analysis.TextEdit{Pos: lib.Lit.Lbrace + 1, End: lib.Lit.Lbrace + 1, NewText: []byte(lib.Field.Name + ": " + lib.Field.FixValue + ", ")}
	default:
		return
	}
	if analysisutil.FileOf(pass, edit.Pos) == nil {
		return
	}
	diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: edit.Pos, End: edit.End, Message: "the backoff is made here"})
	diag.SuggestedFixes = []analysis.SuggestedFix{{Message: "Set " + lib.Field.Name + " to " + lib.Field.FixValue, TextEdits: []analysis.TextEdit{edit}}}
}

// shortPause is the longest constant pause that is not judged for
// jitter.
const shortPause = 100 * time.Millisecond

// isShortPause reports whether e is a constant duration under
// shortPause. Jitter spreads the retries of clients that failed together
// across the delay; spread across a few tens of milliseconds they arrive
// as one wave still, as network latency alone would spread them. A fixed
// pause that short is a settle delay before trying again, not a backoff:
// what it risks is a hot loop, and the no-bound rule judges that.
func isShortPause(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	n := constDuration(pass, e)
	return n > 0 && n < int64(shortPause)
}

// constDuration is the constant value of a duration expression.
func constDuration(pass *analysis.Pass, e ast.Expr) int64 {
	n, _ := constant.Int64Val(constant.ToInt(pass.TypesInfo.Types[e].Value))
	return n
}

// waiterName names the function a wait of its own calls: a function or
// method, or the local variable holding a closure.
func waiterName(pass *analysis.Pass, call *ast.CallExpr) string {
	if fn := analysisutil.Callee(pass.TypesInfo, call); fn != nil {
		return analysisutil.FuncName(fn, pass.Pkg)
	}
	return types.ExprString(call.Fun)
}

// reportNoCap reports a delay that grows exponentially with no cap (its
// jitter is not in question), with a fix that caps it at 30s.
func reportNoCap(pass *analysis.Pass, file *ast.File, d *waits.Delay) {
	tname, edits := analysisutil.AddImport(pass, file, "time", "time")
	edits = append(edits,
		analysis.TextEdit{Pos: d.Dur.Pos(), End: d.Dur.Pos(), NewText: []byte("min(")},
		analysis.TextEdit{Pos: d.Dur.End(), End: d.Dur.End(), NewText: []byte(", " + fmt.Sprintf(defaultCap, tname) + ")")})
	pass.Report(analysis.Diagnostic{
		Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "no-cap",
		Message:        "retry delay grows exponentially with no cap: after a few failures the wait outlives any caller, and it eventually overflows",
		SuggestedFixes: []analysis.SuggestedFix{{Message: "Cap the delay at 30s", TextEdits: edits}},
	})
}

// waitFix makes a counted retry loop that never waits wait a capped,
// full-jitter exponential backoff before every attempt but the first,
// watching the context in scope:
//
//	for i := 0; i < 3; i++ {
//		if i > 0 {
//			if err := retry.Sleep(ctx, retry.FullJitter(retry.Backoff(100*time.Millisecond, 5*time.Second, i-1))); err != nil {
//				return err
//			}
//		}
//		...
//
// It applies to a loop with an int counter defined in its header (`for i
// := c; ...` or `for i := range n`) in a function whose last result is an
// error and that has a context.Context parameter.
func waitFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	var counter *ast.Ident
	var body *ast.BlockStmt
	first := "0"
	switch loop := r.Node.(type) {
	case *ast.ForStmt:
		as, ok := loop.Init.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return nil
		}
		counter, _ = as.Lhs[0].(*ast.Ident)
		// Counting up: i++ (the first attempt is the one with the initial value).
		inc, ok := loop.Post.(*ast.IncDecStmt)
		if !ok || inc.Tok != token.INC || counter == nil {
			return nil
		}
		if x, ok := inc.X.(*ast.Ident); !ok || pass.TypesInfo.ObjectOf(x) != pass.TypesInfo.ObjectOf(counter) {
			return nil
		}
		tv, ok := pass.TypesInfo.Types[as.Rhs[0]]
		if !ok || tv.Value == nil {
			return nil
		}
		first = tv.Value.ExactString()
		body = loop.Body
	case *ast.RangeStmt:
		if loop.Tok != token.DEFINE || loop.Value != nil {
			return nil
		}
		if b, ok := pass.TypesInfo.TypeOf(loop.X).Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return nil
		}
		counter, _ = loop.Key.(*ast.Ident)
		body = loop.Body
	default:
		return nil
	}
	if counter == nil || counter.Name == "_" || body == nil {
		return nil
	}
	if obj := pass.TypesInfo.ObjectOf(counter); obj == nil || !types.Identical(obj.Type(), types.Typ[types.Int]) {
		return nil
	}
	sig := analysisutil.EnclosingSig(pass, r.Node.Pos())
	ctx := contextParam(pass, sig, body.Lbrace)
	file := analysisutil.FileOf(pass, body.Pos())
	if ctx == "" || file == nil {
		return nil
	}
	ret, ok := analysisutil.ReturnError(pass, file, sig, "err")
	if !ok {
		return nil
	}
	_, indent := analysisutil.EnclosingStmt(pass, r.Node)
	name, edits := analysisutil.AddImport(pass, file, catalog.ResilintRetry, "retry")
	tname, tedits := analysisutil.AddImport(pass, file, "time", "time")
	edits = append(edits, tedits...)
	// Backoff's attempt 0 is the wait before the first retry.
	n, err := strconv.Atoi(first)
	if err != nil {
		return nil
	}
	attempt := fmt.Sprintf("%s-%d", counter.Name, n+1)
	if n+1 < 0 {
		attempt = fmt.Sprintf("%s+%d", counter.Name, -(n + 1))
	}
	in := indent + "\t"
	if len(body.List) == 0 {
		return nil
	}
	// Before the first statement, so that a comment after the loop's
	// brace stays where it is.
	text := fmt.Sprintf("if %s > %s {\n%s\tif err := %s.Sleep(%s, %s.FullJitter(%s.Backoff(100*%s.Millisecond, 5*%s.Second, %s))); err != nil {\n%s\t\t%s\n%s\t}\n%s}\n%s",
		counter.Name, first, in, name, ctx, name, name, tname, tname, attempt, in, ret, in, in, in)
	at := body.List[0].Pos()
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
	return &analysis.SuggestedFix{Message: "Wait a capped full-jitter backoff (100ms doubling to 5s) before each retry, returning when the context is done", TextEdits: edits}
}

// contextParam is the name of the first context.Context parameter of sig
// that is visible, unshadowed, at pos.
func contextParam(pass *analysis.Pass, sig *types.Signature, pos token.Pos) string {
	if sig == nil {
		return ""
	}
	scope := pass.Pkg.Scope().Innermost(pos)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if p.Name() == "" || p.Name() == "_" || !analysisutil.IsNamedType(p.Type(), "context", "Context") {
			continue
		}
		if scope != nil {
			if _, obj := scope.LookupParent(p.Name(), pos); obj != p {
				continue
			}
		}
		return p.Name()
	}
	return ""
}

// equalToFull rewrites retry.EqualJitter(x) to retry.FullJitter(x).
func equalToFull(pass *analysis.Pass, e ast.Expr) []analysis.SuggestedFix {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := analysisutil.Callee(pass.TypesInfo, call)
	if !analysisutil.IsFunc(fn, catalog.ResilintRetry, "EqualJitter") {
		return nil
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "Use retry.FullJitter",
		TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("FullJitter")}},
	}}
}

// mergeByCategory folds diagnostics of the same category into the first of
// them: the others become related locations, and their first fixes' edits
// join the first's fix when none overlaps another (identical edits, such as
// one import added twice, are kept once).
func mergeByCategory(ds []analysis.Diagnostic) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	index := map[string]int{}
	for _, d := range ds {
		i, seen := index[d.Category]
		if !seen {
			index[d.Category] = len(out)
			out = append(out, d)
			continue
		}
		first := &out[i]
		first.Related = append(first.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "another wait of this retry with the same problem"})
		if len(first.SuggestedFixes) == 0 || len(d.SuggestedFixes) == 0 {
			continue
		}
		if edits, ok := joinEdits(first.SuggestedFixes[0].TextEdits, d.SuggestedFixes[0].TextEdits); ok {
			fix := first.SuggestedFixes[0]
			fix.TextEdits = edits
			first.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	return out
}

// joinEdits returns a's edits followed by those of b that a lacks, or false
// if an edit of b overlaps one of a without being the same.
func joinEdits(a, b []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	out := append([]analysis.TextEdit(nil), a...)
next:
	for _, e := range b {
		for _, x := range a {
			if x.Pos == e.Pos && x.End == e.End && string(x.NewText) == string(e.NewText) {
				continue next
			}
			if e.Pos < x.End && x.Pos < e.End || e.Pos == x.Pos && (e.Pos == e.End || x.Pos == x.End) {
				return nil, false
			}
		}
		out = append(out, e)
	}
	return out, true
}
