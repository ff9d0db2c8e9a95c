package idempotency_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/idempotency"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.TestData(), idempotency.Analyzer, "idempotency/...")
}

func TestHeaderFlag(t *testing.T) {
	for _, bad := range []string{"", " , ", "Idempotency Key", "Key:1"} {
		if err := idempotency.Analyzer.Flags.Set("header", bad); err == nil {
			t.Errorf("-idempotency.header=%q: no error", bad)
		}
	}
	if err := idempotency.Analyzer.Flags.Set("header", "X-Request-Id, Idempotency-Key"); err != nil {
		t.Fatal(err)
	}
	if got := idempotency.Analyzer.Flags.Lookup("header").Value.String(); got != "X-Request-Id, Idempotency-Key" {
		t.Errorf("header = %q", got)
	}
	idempotency.Analyzer.Flags.Set("header", "Idempotency-Key,X-Idempotency-Key")
}

// One request, one finding: the retries of this package around a function
// that retries its own POST are related locations of that POST's finding.
func TestRetryingCallersRelated(t *testing.T) {
	var related []string
	for _, r := range analysistest.Run(t, testutil.TestData(), idempotency.Analyzer, "idempotency/pay") {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "retryablehttp.Client.Post sends POST") {
				continue
			}
			for _, rel := range d.Related {
				related = append(related, rel.Message)
			}
		}
	}
	want := "retried again, through ChargeVia, by this retry loop (2 attempts): a retry of a retry (retrynesting)"
	found := false
	for _, m := range related {
		found = found || m == want
	}
	if !found {
		t.Errorf("the POST's related locations are %q, want one %q", related, want)
	}
}

// With the mesh's routes (resilint -mesh), the finding says that the mesh
// resends the POST too, when its route for the host does.
func TestMesh(t *testing.T) {
	const table = `[
		{"host": "payments.shop.svc.cluster.local", "tries": 4, "policy": "3 retries on 5xx,connect-failure", "resends": "5xx", "where": "mesh/payments.yaml:9"},
		{"host": "refunds.shop.svc.cluster.local", "tries": 3, "policy": "2 retries on connect-failure", "where": "mesh/refunds.yaml:9"}
	]`
	if err := idempotency.Analyzer.Flags.Set("mesh", table); err != nil {
		t.Fatal(err)
	}
	defer idempotency.Analyzer.Flags.Set("mesh", "")
	analysistest.Run(t, testutil.TestData(), idempotency.Analyzer, "idempotency_mesh/...")
}

// A library analyzed by itself: the bodies of its catalogued retrying
// sends (Client.Post, PostForm, the package's Post) are not reported, and
// the wrappers that pass the request on to them are not either; a POST
// the library makes in a method the catalog does not describe (Upload)
// is.
func TestLibraryWrappersPassThrough(t *testing.T) {
	var lines []int
	for _, r := range analysistest.Run(t, analysistest.TestData(), idempotency.Analyzer, "github.com/hashicorp/go-retryablehttp") {
		for _, d := range r.Diagnostics {
			lines = append(lines, r.Pass.Fset.Position(d.Pos).Line)
		}
	}
	sort.Ints(lines)
	if want := []int{109}; fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("findings at lines %v, want %v", lines, want)
	}
}

// A recursion is one retry: the self-call that resends the POST is the
// retry its finding names, not also an outer retry of a function that
// retries its own POST.
func TestRecursionNotItsOwnOuterRetry(t *testing.T) {
	var related []string
	for _, r := range analysistest.Run(t, testutil.TestData(), idempotency.Analyzer, "idempotency/recursive") {
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				related = append(related, rel.Message)
			}
		}
	}
	for _, m := range related {
		if strings.Contains(m, "a retry of a retry") {
			t.Errorf("related location %q: the recursion counted as its own outer retry", m)
		}
	}
	if len(related) == 0 {
		t.Errorf("no related locations; want the recursive retry")
	}
}
