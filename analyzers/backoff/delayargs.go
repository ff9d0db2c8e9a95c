package backoff

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// checkDelayArgs judges the delays that calls give to functions whose
// retry waits the duration it is given (model.DelayArg): the argument is
// that retry's delay, judged as it would be in the loop. One behaviour,
// one finding: a function retried with fixed delays is reported at the
// first call of the package that gives one, the others related. There is
// no fix for a duration: a jitter drawn once at the call would be the
// same for every attempt; the jitter belongs where the retry waits. A
// backoff value the retry steps (jpillora/backoff's Duration) is fixed
// where it is made, by its jitter field.
func checkDelayArgs(pass *analysis.Pass, args []*model.DelayArg) {
	var order []*analysis.Diagnostic
	seen := map[*types.Func]*analysis.Diagnostic{}
	for _, a := range args {
		f := a.Fact
		if f.Local || a.OpLocal || f.ClientErrors || f.Specific || f.Probe {
			// The same reasons as in the retry itself: no shared
			// dependency, no outage that makes clients fail together,
			// or probes that leave no work behind.
			continue
		}
		if a.Shape.Jitter != waits.JitterNone || analysisutil.FileOf(pass, a.Arg.Pos()) == nil {
			continue
		}
		if !f.Grows && isShortPause(pass, a.Arg) {
			continue // a settle pause, as in the loop itself
		}
		subject := analysisutil.FuncName(a.Callee, pass.Pkg)
		if f.Made {
			subject = "the function " + subject + " returns"
		}
		if d := seen[a.Callee]; d != nil {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.Arg.Pos(), End: a.Arg.End(), Message: "the same retry, given a delay with no random part here"})
			continue
		}
		if lib := a.Shape.Lib; lib != nil {
			// The backoff value the retry steps: its jitter field is
			// read at every wait, so setting it here is the fix.
			d := &analysis.Diagnostic{
				Pos: a.Arg.Pos(), End: a.Arg.End(), Category: "no-jitter",
				Message: fmt.Sprintf("retry delay has no jitter: %s waits the %s of this %s between the attempts of its %s, and it %s, so clients that failed together retry together, in synchronized waves after every recovery; set %s to %s",
					subject, lib.Next.Name, libValue(lib), f.Site, libSetting(lib), lib.Field.Name, lib.Field.FixValue),
			}
			addLibJitterFix(pass, d, lib)
			seen[a.Callee] = d
			order = append(order, d)
			continue
		}
		waits := "this delay"
		if f.Grows {
			waits = "this delay, grown with each attempt,"
		}
		d := &analysis.Diagnostic{
			Pos: a.Arg.Pos(), End: a.Arg.End(), Category: "no-jitter",
			Message: fmt.Sprintf("retry delay has no jitter: %s waits %s between the attempts of its %s, so clients that failed together retry together, in synchronized waves after every recovery; add jitter where it waits (runtime/retry's FullJitter)",
				subject, waits, f.Site),
		}
		seen[a.Callee] = d
		order = append(order, d)
	}
	for _, d := range order {
		pass.Report(*d)
	}
}
