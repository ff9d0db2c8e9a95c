package libconfig_test

import (
	"fmt"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model/libconfig"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

// TestSettings states each setting of the fixture's library retries as
// one line: function:line knob form, the rows of the knob and the value,
// zero, bounds and wrappers. Settings that are fine (a bounded constant
// backoff, a jitter wrapper, a non-zero factor) are stated too: judging
// them is the backoff check's job.
func TestSettings(t *testing.T) {
	results := analysistest.Run(t, testutil.TestData(), libconfig.Analyzer, "libconfig/a")
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	res := results[0].Result.(*libconfig.Result)
	fset := results[0].Pass.Fset
	var got []string
	for _, s := range res.Settings {
		got = append(got, describe(fset, s))
	}
	want := []string{
		"18 Delay Call val=NewConstantBackOff qual=backoff",
		"18 Elapsed Absent val=NewConstantBackOff",
		"22 Delay Call val=NewConstantBackOff qual=backoff attempt-bound",
		"22 Elapsed Absent val=NewConstantBackOff attempt-bound",
		"27 Jitter Write row=RandomizationFactor field=RandomizationFactor zero",
		"32 Jitter Field row=RandomizationFactor field=RandomizationFactor attempt-bound",
		"32 Elapsed Absent row=MaxElapsedTime field=MaxElapsedTime attempt-bound",
		"36 Delay Value row=DelayType val=FixedDelay qual=retrygo",
		"36 Attempts Call row=Attempts zero",
		"40 Delay Call val=NewExponential qual=goretry jittered",
		"44 Delay Absent row=Backoff field=Backoff val=DefaultBackoff qual=retryablehttp",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("settings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var knobs = map[libconfig.Knob]string{libconfig.Delay: "Delay", libconfig.Jitter: "Jitter", libconfig.Elapsed: "Elapsed", libconfig.Attempts: "Attempts"}

var forms = map[libconfig.Form]string{libconfig.Call: "Call", libconfig.Value: "Value", libconfig.Literal: "Literal", libconfig.Field: "Field", libconfig.Write: "Write", libconfig.Absent: "Absent", libconfig.Implicit: "Implicit"}

func describe(fset *token.FileSet, s *libconfig.Setting) string {
	parts := []string{fmt.Sprint(fset.Position(s.Pos).Line), knobs[s.Knob], forms[s.Form]}
	if s.Row != nil {
		parts = append(parts, "row="+s.Row.Name)
	}
	if s.Field != "" {
		parts = append(parts, "field="+s.Field)
	}
	if s.Val != nil {
		parts = append(parts, "val="+s.Val.Name)
	}
	if s.Qual != "" {
		parts = append(parts, "qual="+s.Qual)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{s.Zero, "zero"}, {s.AttemptBound, "attempt-bound"}, {s.ContextBound, "context-bound"}, {s.Jittered, "jittered"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}
