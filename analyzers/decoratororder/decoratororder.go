package decoratororder

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/breakers"
)

//go:embed doc.go
var doc string

// Analyzer reports retries outside circuit breakers.
var Analyzer = &analysis.Analyzer{
	Name:     "decoratororder",
	Doc:      analysisutil.MustExtractDoc(doc, "decoratororder"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/decoratororder.md",
	Requires: []*analysis.Analyzer{breakers.Analyzer},
	Run:      run,
}

var strict bool

func init() {
	Analyzer.Flags.BoolVar(&strict, "strict", false, "also report a retry outside a breaker that stops at once on the breaker's open error")
}

const maxRelated = 8

func run(pass *analysis.Pass) (any, error) {
	for _, rb := range pass.ResultOf[breakers.Analyzer].(*breakers.Result).Retries {
		r := rb.Retry
		switch {
		case rb.RetriesOpen:
			report(pass, rb, "retries-open", fmt.Sprintf("%s explicitly retries the circuit breaker's open error: every attempt against an open breaker fails at once and only adds delay and load; stop retrying on it (return it or mark it permanent)", r.Describe()), nil)
		case rb.StopsOnOpen && !strict:
			// The acceptable form of retry-outside.
		case rb.Order != nil:
			report(pass, rb, "failsafe-order", "retry policy listed before the circuit breaker: failsafe-go composes policies outermost first, so the retry runs outside the breaker; an open breaker fails every attempt at once and each request's failed attempts count several times towards opening it", orderFix(pass, rb.Order))
		default:
			msg := fmt.Sprintf("retry outside a circuit breaker: %s (%s) retries calls that go through %s: an open breaker fails every attempt at once, and each request's failed attempts count several times towards opening it; put the breaker outside the retry", r.Describe(), model.AttemptsText(r.Attempts), describeBreaker(pass, rb.Breakers[0]))
			if rb.StopsOnOpen {
				msg += " (this retry stops on the open error; reported because of -decoratororder.strict)"
			} else {
				msg += ", or stop retrying on the breaker's open error"
			}
			fix := swapFix(pass, r)
			if fix == nil && !rb.StopsOnOpen {
				fix = stopFix(pass, rb)
			}
			report(pass, rb, "retry-outside-breaker", msg, fix)
		}
	}
	return nil, nil
}

func report(pass *analysis.Pass, rb *breakers.RetryBreakers, category, msg string, fix *analysis.SuggestedFix) {
	var related []analysis.RelatedInformation
	for i, b := range rb.Breakers {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: b.Pos, Message: "circuit breaker: " + describeBreaker(pass, b)})
	}
	d := analysis.Diagnostic{Pos: rb.Retry.Pos, End: rb.Retry.End, Category: category, Message: msg, Related: related}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	pass.Report(d)
}

// stopFix makes a hand-written retry loop stop at once on the breaker's
// open error: right after the statement that assigns the error of the call
// that reaches the breaker, `if retry.IsCircuitOpen(err) { return ..., err }`
// (runtime/retry's IsCircuitOpen knows the open errors of every breaker
// the catalog lists, and any error with a CircuitOpen() bool method).
func stopFix(pass *analysis.Pass, rb *breakers.RetryBreakers) *analysis.SuggestedFix {
	r := rb.Retry
	if r.Kind != model.LoopRetry && r.Kind != model.GotoRetry || len(r.Ops) == 0 {
		return nil
	}
	for _, b := range rb.Breakers {
		if !openErrorKnown(b) {
			return nil
		}
	}
	var call *ast.CallExpr
	for _, op := range r.Ops {
		if c := analysisutil.CallAt(op, rb.Breakers[0].Pos); c != nil {
			call = c
		}
	}
	if call == nil {
		return nil
	}
	sig := analysisutil.EnclosingSig(pass, r.Node.Pos())
	if sig == nil || analysisutil.EnclosingSig(pass, call.Pos()) != sig {
		return nil // inside a closure of the attempt: a return would not leave the loop
	}
	st, indent := analysisutil.EnclosingStmt(pass, call)
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) {
		return nil
	}
	errID, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return nil
	}
	obj := pass.TypesInfo.ObjectOf(errID)
	if obj == nil || !analysisutil.IsErrorType(obj.Type()) {
		return nil
	}
	if _, isVar := obj.(*types.Var); !isVar {
		return nil
	}
	file := analysisutil.FileOf(pass, as.Pos())
	ret, ok := analysisutil.ReturnError(pass, file, sig, errID.Name)
	if !ok {
		return nil
	}
	name, edits := analysisutil.AddImport(pass, file, catalog.ResilintRetry, "retry")
	edits = append(edits, analysis.TextEdit{Pos: as.End(), End: as.End(), NewText: []byte(fmt.Sprintf(
		"\n%sif %s.IsCircuitOpen(%s) {\n%s\t%s // the breaker is open: retrying cannot succeed\n%s}", indent, name, errID.Name, indent, ret, indent))})
	return &analysis.SuggestedFix{Message: "Stop retrying at once when the circuit breaker is open", TextEdits: edits}
}

// openErrorKnown reports whether runtime/retry's IsCircuitOpen recognizes
// the open errors of the breaker b reaches: resilint's runtime/breaker,
// sony/gobreaker and eapache/go-resiliency (the catalog's rows of those
// packages), not hystrix-go or failsafe-go.
func openErrorKnown(b *breakers.BreakerReach) bool {
	for _, row := range catalog.Rows {
		if row.Role != catalog.Breaker {
			continue
		}
		switch row.Path {
		case catalog.ResilintBreaker, catalog.GoBreaker, catalog.GoBreakerV2, catalog.Resiliency:
		default:
			continue
		}
		if b.Site != nil && b.Site.Desc == row.Lib || b.Fact != nil && strings.HasPrefix(b.Fact.Site, row.Lib+" at ") {
			return true
		}
	}
	return false
}

// describeBreaker words a breaker call one attempt reaches: "gobreaker
// CircuitBreaker.Execute at x.go:3", "pay.Charge → (*Client).do, which
// calls gobreaker CircuitBreaker.Execute at y.go:9".
func describeBreaker(pass *analysis.Pass, b *breakers.BreakerReach) string {
	if b.Site != nil {
		return fmt.Sprintf("%s at %s", b.Site.Desc, analysisutil.ShortPos(pass.Fset, b.Site.Pos))
	}
	chain := append([]string{analysisutil.FuncName(b.Callee, pass.Pkg)}, b.Fact.Via...)
	return strings.Join(chain, " → ") + ", which calls " + b.Fact.Site
}
