package backoff

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
)

//go:embed doc.go
var doc string

// Analyzer reports retry delays that synchronize clients, grow without
// bound or are missing, and retries without a bound.
var Analyzer = &analysis.Analyzer{
	Name:     "backoff",
	Doc:      analysisutil.MustExtractDoc(doc, "backoff"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/backoff.md",
	Requires: []*analysis.Analyzer{model.Analyzer},
	Run:      run,
}

// defaultCap is the cap the suggested fix puts on an uncapped exponential
// delay; the message says to adjust it.
const defaultCap = "30*%s.Second"

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	for _, r := range res.Retries {
		switch r.Kind {
		case model.LoopRetry, model.GotoRetry, model.RecursiveRetry:
			checkLoop(pass, r)
		}
	}
	for _, c := range res.Configs {
		reportConfig(pass, c)
	}
	return nil, nil
}

func checkLoop(pass *analysis.Pass, r *model.Retry) {
	for _, d := range r.Delays {
		checkDelay(pass, d)
	}
	if r.Immediate {
		pass.Report(analysis.Diagnostic{
			Pos:      r.Pos,
			End:      r.End,
			Category: "no-delay",
			Message:  fmt.Sprintf("%s tries again at once after a failure (no delay between attempts): a failing dependency gets every retry immediately, a retry storm; wait a jittered backoff between attempts (runtime/retry)", r.Describe()),
		})
	}
	if r.Attempts == 0 && !r.TimeBounded && !r.CountBounded {
		pass.Report(analysis.Diagnostic{
			Pos:      r.Pos,
			End:      r.End,
			Category: "no-bound",
			Message:  fmt.Sprintf("%s has no bound: no attempt limit, no elapsed-time cap and no context check, so it retries for as long as the dependency is down; bound the attempts or check ctx.Done()", r.Describe()),
		})
	}
}

func checkDelay(pass *analysis.Pass, d *model.Delay) {
	sh := d.Shape
	file := analysisutil.FileOf(pass, d.Dur.Pos())
	if file == nil {
		return
	}
	noCap := sh.Exponential && !sh.Capped
	switch sh.Jitter {
	case model.JitterNone:
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
	case model.JitterFull, model.JitterEqual, model.JitterSeeded:
		if noCap {
			tname, edits := analysisutil.AddImport(pass, file, "time", "time")
			edits = append(edits,
				analysis.TextEdit{Pos: d.Dur.Pos(), End: d.Dur.Pos(), NewText: []byte("min(")},
				analysis.TextEdit{Pos: d.Dur.End(), End: d.Dur.End(), NewText: []byte(", " + fmt.Sprintf(defaultCap, tname) + ")")})
			pass.Report(analysis.Diagnostic{
				Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "no-cap",
				Message:        "retry delay grows exponentially with no cap: after a few failures the wait outlives any caller, and it eventually overflows",
				SuggestedFixes: []analysis.SuggestedFix{{Message: "Cap the delay at 30s", TextEdits: edits}},
			})
			return
		}
		switch sh.Jitter {
		case model.JitterEqual:
			pass.Report(analysis.Diagnostic{
				Pos: d.Dur.Pos(), End: d.Dur.End(), Category: "equal-jitter",
				Message:        "retry delay uses equal jitter (a fixed part plus a random part): full jitter, uniform in [0, backoff], spreads retries flatter after a recovery",
				SuggestedFixes: equalToFull(pass, d.Dur),
			})
		case model.JitterSeeded:
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

func reportConfig(pass *analysis.Pass, c *model.Config) {
	var msg string
	switch c.Category {
	case "no-jitter":
		msg = fmt.Sprintf("%s waits without jitter (%s): clients that failed together retry together, in synchronized waves after every recovery", c.Lib, c.What)
	case "no-bound":
		msg = fmt.Sprintf("%s has no bound (%s): it retries for as long as the dependency is down", c.Lib, c.What)
	case "no-delay":
		msg = fmt.Sprintf("%s does not wait between attempts (%s): a failing dependency gets every retry at once, a retry storm", c.Lib, c.What)
	default:
		return
	}
	d := analysis.Diagnostic{Pos: c.Pos, End: c.End, Category: c.Category, Message: msg}
	if c.Fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: c.Fix.Message, TextEdits: c.Fix.Edits}}
	}
	pass.Report(d)
}
