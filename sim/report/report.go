package report

import (
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/resilint/resilint/sim"
)

// Column is one column of the comparison table.
type column struct {
	head string
	val  func(r *sim.Result) string
}

func dur(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

var columns = []column{
	{"client", func(r *sim.Result) string { return r.Client }},
	{"requests", func(r *sim.Result) string { return fmt.Sprint(r.Requests) }},
	{"calls", func(r *sim.Result) string { return fmt.Sprint(r.Calls) }},
	{"attempts mean/p99/max", func(r *sim.Result) string {
		return fmt.Sprintf("%.2f / %d / %d", r.AttemptsMean, r.AttemptsP99, r.AttemptsMax)
	}},
	{"successes", func(r *sim.Result) string { return fmt.Sprint(r.Successes) }},
	{"give-ups", func(r *sim.Result) string { return giveUps(r) }},
	{"fast rejections", func(r *sim.Result) string { return rejections(r) }},
	{"breaker opens / closes", func(r *sim.Result) string {
		if r.BreakerOpens == 0 && r.BreakerCloses == 0 {
			return "-"
		}
		s := fmt.Sprintf("%d / %d", r.BreakerOpens, r.BreakerCloses)
		if r.FalseCloses > 0 {
			s += fmt.Sprintf(" (%d while the outage went on)", r.FalseCloses)
		}
		return s
	}},
	{"peak calls/s", func(r *sim.Result) string { return fmt.Sprintf("%.0f", float64(r.PeakCalls)/r.Resolution.Seconds()) }},
	{"max in flight / waiting", func(r *sim.Result) string { return fmt.Sprintf("%d / %d", r.MaxInFlight, r.MaxWaiting) }},
	{"calls/s 1st s after recovery", func(r *sim.Result) string {
		if !r.HasRecovery {
			return "-"
		}
		return fmt.Sprintf("%.0f", r.PeakAfterRecovery())
	}},
	{"retries in 1st s after recovery", func(r *sim.Result) string {
		if !r.HasRecovery {
			return "-"
		}
		return fmt.Sprintf("%.0f%% (%d of %d)", 100*r.FirstSecondShare(), r.RetriesFirstSecond, r.RetriesAfterRecovery)
	}},
	{"waiting at recovery, retried in 1st s", func(r *sim.Result) string {
		if !r.HasRecovery {
			return "-"
		}
		return fmt.Sprintf("%.0f%% (%d of %d)", 100*r.PendingShare(), r.PendingFirstSecond, r.PendingAtRecovery)
	}},
	{"drain after recovery", func(r *sim.Result) string {
		if !r.HasRecovery {
			return "-"
		}
		return dur(r.Drain)
	}},
	{"fell over again", func(r *sim.Result) string {
		n := r.ReCrashes()
		if n == 0 {
			return "no"
		}
		var at []string
		for _, c := range r.Crashes {
			at = append(at, dur(c))
		}
		return fmt.Sprintf("yes, %d× (at %s)", n, strings.Join(at, ", "))
	}},
	{"last request done", func(r *sim.Result) string {
		s := dur(r.Completion)
		if r.Unfinished > 0 {
			s += fmt.Sprintf(" (%d unfinished)", r.Unfinished)
		}
		return s
	}},
}

func giveUps(r *sim.Result) string {
	if r.GiveUps == 0 {
		return "0"
	}
	var why []string
	for _, x := range []struct {
		n    int64
		what string
	}{{r.GiveUpAttempts, "attempts"}, {r.GiveUpBudget, "budget"}, {r.GiveUpRetryAfter, "Retry-After"},
		{r.GiveUpBreaker, "breaker"}, {r.GiveUpBulkhead, "bulkhead"}, {r.GiveUpInput, "4xx"}, {r.GiveUpOther, "other"}} {
		if x.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	return fmt.Sprintf("%d (%s)", r.GiveUps, strings.Join(why, ", "))
}

func rejections(r *sim.Result) string {
	var out []string
	for _, x := range []struct {
		n    int64
		what string
	}{{r.RejectBreaker, "breaker"}, {r.RejectBulkhead, "bulkhead"}, {r.RejectBudget, "budget"}, {r.RejectLimiter, "limiter"}, {r.Shed, "shed by the dependency"}} {
		if x.n > 0 {
			out = append(out, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	if len(out) == 0 {
		return "0"
	}
	return strings.Join(out, ", ")
}

// Describe is a short account of the scenario.
func Describe(s *sim.Scenario) string {
	d := s.Downstream
	var parts []string
	w := s.Workload
	parts = append(parts, fmt.Sprintf("%d clients, one logical request each, starting over %s from %s", w.Clients, dur(w.Spread), dur(w.Start)))
	if d.Capacity > 0 {
		q := fmt.Sprintf("a queue of %d", d.QueueLimit)
		if d.QueueLimit == 0 {
			q = "a queue of one second of capacity"
		}
		parts = append(parts, fmt.Sprintf("capacity %.0f calls/s (%s)", d.Capacity, q))
	}
	if d.Outage.Duration > 0 {
		parts = append(parts, fmt.Sprintf("outage from %s for %s", dur(d.Outage.Start), dur(d.Outage.Duration)))
	}
	if d.RecoveryCapacity > 0 {
		parts = append(parts, fmt.Sprintf("back with %.0f calls/s", d.RecoveryCapacity))
	}
	if d.FallOver {
		parts = append(parts, fmt.Sprintf("falls over when its queue overflows, restarts in %s", dur(d.RestartTime)))
	}
	if d.RetryAfter > 0 {
		parts = append(parts, "Retry-After "+dur(d.RetryAfter))
	}
	if d.ErrorRate > 0 {
		parts = append(parts, fmt.Sprintf("%.0f%% transient 503s", 100*d.ErrorRate))
	}
	if d.InputErrorRate > 0 {
		parts = append(parts, fmt.Sprintf("%.0f%% bad input (400)", 100*d.InputErrorRate))
	}
	if d.SlowRate > 0 {
		parts = append(parts, fmt.Sprintf("%.0f%% of successes %s slower", 100*d.SlowRate, dur(d.SlowLatency)))
	}
	if d.KindShare > 0 {
		parts = append(parts, fmt.Sprintf("the outage hits only %.0f%% of requests (one kind)", 100*d.KindShare))
	}
	if d.StoreOutage.Duration > 0 {
		parts = append(parts, fmt.Sprintf("shared store down from %s for %s", dur(d.StoreOutage.Start), dur(d.StoreOutage.Duration)))
	}
	if d.Contention > 0 {
		parts = append(parts, fmt.Sprintf("contention: a call conflicts with any call less than %s before it", dur(d.Contention)))
	}
	parts = append(parts, fmt.Sprintf("seed %d", s.Seed))
	return strings.Join(parts, "; ")
}

// Table writes the comparison as a plain-text table, one block per client.
func Table(w io.Writer, s *sim.Scenario, rs []*sim.Result) error {
	if _, err := fmt.Fprintf(w, "scenario %s: %s\n", s.Name, Describe(s)); err != nil {
		return err
	}
	for _, r := range rs {
		fmt.Fprintf(w, "\n%s\n", r.Client)
		for _, c := range columns[1:] {
			fmt.Fprintf(w, "  %-38s %s\n", c.head, c.val(r))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// Clients describes each client for the report, by name.
type Clients map[string]string

// Write writes calls.svg, attempts.svg (and PNG copies of both), report.md
// and report.html (which holds the SVG plots inline, so it is
// self-contained) into dir, creating it.
func Write(dir string, s *sim.Scenario, rs []*sim.Result, about Clients) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	calls, err := CallsSVG(s, rs)
	if err != nil {
		return err
	}
	attempts, err := AttemptsSVG(s, rs)
	if err != nil {
		return err
	}
	callsPNG, err := Calls(s, rs, "png")
	if err != nil {
		return err
	}
	attemptsPNG, err := Attempts(s, rs, "png")
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{"calls.svg": calls, "attempts.svg": attempts, "calls.png": callsPNG, "attempts.png": attemptsPNG} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(Markdown(s, rs, about, "calls.svg", "attempts.svg")), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.html"), []byte(HTML(s, rs, about, calls, attempts)), 0o644)
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Markdown is the report in Markdown, with the plots as images.
func Markdown(s *sim.Scenario, rs []*sim.Result, about Clients, callsImg, attemptsImg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# resilint storm: %s\n\n%s.\n\n", s.Name, Describe(s))
	b.WriteString("| ")
	for _, c := range columns {
		b.WriteString(c.head + " | ")
	}
	b.WriteString("\n|")
	for range columns {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for _, r := range rs {
		b.WriteString("| ")
		for _, c := range columns {
			b.WriteString(mdCell(c.val(r)) + " | ")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, r := range rs {
		if a := about[r.Client]; a != "" || len(r.Notes) > 0 {
			fmt.Fprintf(&b, "- **%s**: %s\n", r.Client, a)
			for _, n := range r.Notes {
				fmt.Fprintf(&b, "  - assumption: %s\n", n)
			}
		}
	}
	fmt.Fprintf(&b, "\n![downstream calls per second](%s)\n\n![attempts per logical request](%s)\n", callsImg, attemptsImg)
	return b.String()
}

// HTML is the report as one self-contained HTML page.
func HTML(s *sim.Scenario, rs []*sim.Result, about Clients, calls, attempts []byte) string {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>resilint storm: %s</title>\n", e(s.Name))
	b.WriteString("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>resilint storm: %s</h1>\n<p>%s.</p>\n<table><tr>", e(s.Name), e(Describe(s)))
	for _, c := range columns {
		fmt.Fprintf(&b, "<th>%s</th>", e(c.head))
	}
	b.WriteString("</tr>\n")
	for _, r := range rs {
		b.WriteString("<tr>")
		for _, c := range columns {
			fmt.Fprintf(&b, "<td>%s</td>", e(c.val(r)))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n<ul>\n")
	for _, r := range rs {
		if a := about[r.Client]; a != "" || len(r.Notes) > 0 {
			fmt.Fprintf(&b, "<li><b>%s</b>: %s", e(r.Client), e(a))
			for _, n := range r.Notes {
				fmt.Fprintf(&b, "<br>assumption: %s", e(n))
			}
			b.WriteString("</li>\n")
		}
	}
	b.WriteString("</ul>\n<div>")
	b.Write(stripProlog(calls))
	b.WriteString("</div>\n<div>")
	b.Write(stripProlog(attempts))
	b.WriteString("</div>\n</body></html>\n")
	return b.String()
}

// stripProlog drops an XML declaration before the <svg> element, which
// has no place inside HTML.
func stripProlog(svg []byte) []byte {
	if i := strings.Index(string(svg), "<svg"); i > 0 {
		return svg[i:]
	}
	return svg
}
