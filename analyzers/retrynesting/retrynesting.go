package retrynesting

import (
	_ "embed"
	"fmt"
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
)

//go:embed doc.go
var doc string

// Analyzer reports retries nested inside retries.
var Analyzer = &analysis.Analyzer{
	Name:     "retrynesting",
	Doc:      analysisutil.MustExtractDoc(doc, "retrynesting"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/retrynesting.md",
	Requires: []*analysis.Analyzer{model.Analyzer},
	Run:      run,
}

// maxRelated bounds the related locations of one diagnostic.
const maxRelated = 8

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	for _, r := range res.Retries {
		if len(r.Inner) == 0 {
			continue
		}
		pass.Report(diagnostic(pass, r))
	}
	return nil, nil
}

func diagnostic(pass *analysis.Pass, r *model.Retry) analysis.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "nested retry: %s makes %s, each ", r.Describe(), model.AttemptsText(r.Attempts))
	if len(r.Inner) == 1 {
		fmt.Fprintf(&b, "reaching %s", describe(pass, r.Inner[0]))
	} else {
		fmt.Fprintf(&b, "reaching %d retrying calls", len(r.Inner))
		if same, n := uniform(r.Inner); same && n > 0 {
			fmt.Fprintf(&b, " (%s each)", model.AttemptsText(n))
		} else if per := perAttempt(r.Inner); per > 0 {
			fmt.Fprintf(&b, " (up to %d calls per attempt)", per)
		}
	}
	switch {
	case r.Amp > 0:
		fmt.Fprintf(&b, ": up to %d downstream calls per request", r.Amp)
	case r.Attempts == 0:
		b.WriteString(": downstream calls per request are unbounded (no constant attempt bound here)")
	default:
		b.WriteString(": downstream calls per request are unbounded (an inner retry has no constant attempt bound)")
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
	if fix := oneAttemptFix(pass, r); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	return d
}

// oneAttemptFix keeps a single retrying layer by making the outer retry,
// when it is avast/retry-go's, a single attempt: Attempts(1) (an existing
// Attempts option is set to 1). The calls it wraps keep their own retries.
func oneAttemptFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	call, ok := r.Node.(*ast.CallExpr)
	if !ok || r.Kind != model.LibraryRetry || r.Row == nil || r.Row.Path != catalog.RetryGo || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return nil
	}
	const msg = "Make the outer retry a single attempt (Attempts(1)): the calls it makes retry by themselves"
	for _, a := range call.Args[1:] {
		opt, ok := analysisutil.Unparen(a).(*ast.CallExpr)
		if !ok || len(opt.Args) != 1 || !analysisutil.IsFunc(analysisutil.Callee(pass.TypesInfo, opt), catalog.RetryGo, "Attempts") {
			continue
		}
		return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: opt.Args[0].Pos(), End: opt.Args[0].End(), NewText: []byte("1")}}}
	}
	file := analysisutil.FileOf(pass, call.Pos())
	if file == nil {
		return nil
	}
	name, edits := analysisutil.AddImport(pass, file, catalog.RetryGo, "retry")
	last := call.Args[len(call.Args)-1]
	edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + name + ".Attempts(1)")})
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
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
