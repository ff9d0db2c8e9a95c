package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Verdicts of the ledger.
const (
	verdictRight     = "right"    // the maintainer would fix it
	verdictWrong     = "wrong"    // the code does not do what the finding says
	verdictDisputed  = "disputed" // the maintainer would argue with it
	verdictUnjudged  = "unjudged" // added by -update, not yet judged
	ledgerHeader     = "module\tposition\tcheck\tcategory\tverdict\treason"
	ledgerFieldCount = 6
)

// A finding is one diagnostic of the suite on the corpus, outside test
// files.
type finding struct {
	Module   string // path@version
	Pos      string // module-relative file:line, slash-separated
	Check    string // analyzer name
	Category string // the diagnostic's category, "" if none
	Message  string
}

// An entry is one line of the ledger: a finding and its verdict.
type entry struct {
	Module   string
	Pos      string
	Check    string
	Category string
	Verdict  string
	Reason   string
	Line     int // line in the ledger file, for messages
}

// key is what a finding and a ledger entry are matched on. The message is
// left out on purpose: rewording a diagnostic does not change what it
// finds.
type key struct{ Module, Pos, Check, Category string }

func (f finding) key() key { return key{f.Module, f.Pos, f.Check, f.Category} }
func (e entry) key() key   { return key{e.Module, e.Pos, e.Check, e.Category} }

// parseLedger reads a ledger: a header line, then one entry a line with
// six tab-separated fields. Blank lines and lines starting with # are
// skipped.
func parseLedger(r io.Reader) ([]entry, error) {
	var entries []entry
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	header := false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			if line != ledgerHeader {
				return nil, fmt.Errorf("line %d: want the header %q", n, ledgerHeader)
			}
			header = true
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != ledgerFieldCount {
			return nil, fmt.Errorf("line %d: %d tab-separated fields, want %d", n, len(f), ledgerFieldCount)
		}
		e := entry{Module: f[0], Pos: f[1], Check: f[2], Category: f[3], Verdict: f[4], Reason: strings.TrimSpace(f[5]), Line: n}
		if !strings.Contains(e.Module, "@") {
			return nil, fmt.Errorf("line %d: module %q is not path@version", n, e.Module)
		}
		if i := strings.LastIndexByte(e.Pos, ':'); i <= 0 || !isDigits(e.Pos[i+1:]) {
			return nil, fmt.Errorf("line %d: position %q is not file:line", n, e.Pos)
		}
		if e.Check == "" {
			return nil, fmt.Errorf("line %d: no check", n)
		}
		switch e.Verdict {
		case verdictRight, verdictWrong, verdictDisputed:
			if e.Reason == "" {
				return nil, fmt.Errorf("line %d: verdict %s without a reason", n, e.Verdict)
			}
		case verdictUnjudged:
		default:
			return nil, fmt.Errorf("line %d: verdict %q, want right, wrong, disputed or unjudged", n, e.Verdict)
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !header {
		return nil, fmt.Errorf("empty ledger: want the header %q", ledgerHeader)
	}
	return entries, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// writeLedger writes entries in the format parseLedger reads.
func writeLedger(w io.Writer, entries []entry) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, ledgerHeader)
	for _, e := range entries {
		reason := strings.NewReplacer("\t", " ", "\n", " ").Replace(e.Reason)
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Module, e.Pos, e.Check, e.Category, e.Verdict, reason)
	}
	return bw.Flush()
}

// A match pairs a finding with the ledger entry that judges it.
type match struct {
	Finding finding
	Entry   entry
}

// A comparison is the outcome of holding the findings of a run against
// the ledger.
type comparison struct {
	Matched  []match   // findings with their ledger entry
	New      []finding // findings the ledger does not have
	Vanished []entry   // entries of the modules run that no finding matched
}

// compare matches findings with entries. Only entries of the modules in
// ran are considered, so a subset run does not report the others as
// vanished. Equal keys are matched one to one, in order: two findings on
// one line need two entries.
func compare(entries []entry, findings []finding, ran map[string]bool) comparison {
	pool := make(map[key][]entry)
	for _, e := range entries {
		if ran[e.Module] {
			pool[e.key()] = append(pool[e.key()], e)
		}
	}
	var c comparison
	for _, f := range findings {
		k := f.key()
		if es := pool[k]; len(es) > 0 {
			c.Matched = append(c.Matched, match{f, es[0]})
			pool[k] = es[1:]
			continue
		}
		c.New = append(c.New, f)
	}
	for _, e := range entries {
		if ran[e.Module] {
			if es := pool[e.key()]; len(es) > 0 && es[0].Line == e.Line {
				c.Vanished = append(c.Vanished, e)
				pool[e.key()] = es[1:]
			}
		}
	}
	return c
}

// failures lists why a comparison fails: a finding the ledger does not
// have, a finding still unjudged, or a right finding that is no longer
// made.
func (c comparison) failures() []string {
	var out []string
	for _, f := range c.New {
		out = append(out, fmt.Sprintf("new finding, not in the ledger: %s %s %s: %s", f.Module, f.Pos, checkName(f.Check, f.Category), f.Message))
	}
	for _, m := range c.Matched {
		if m.Entry.Verdict == verdictUnjudged {
			out = append(out, fmt.Sprintf("unjudged (ledger line %d): %s %s %s: %s", m.Entry.Line, m.Finding.Module, m.Finding.Pos, checkName(m.Finding.Check, m.Finding.Category), m.Finding.Message))
		}
	}
	for _, e := range c.Vanished {
		if e.Verdict == verdictRight {
			out = append(out, fmt.Sprintf("right finding no longer made (ledger line %d): %s %s %s: %s", e.Line, e.Module, e.Pos, checkName(e.Check, e.Category), e.Reason))
		}
	}
	return out
}

func checkName(check, category string) string {
	if category == "" {
		return check
	}
	return check + "/" + category
}

// tally counts the verdicts of one check's findings.
type tally struct {
	Right, Wrong, Disputed, Unjudged int
}

// Precision is right / (right + wrong + disputed): a disputed finding
// counts against. ok is false when nothing was judged.
func (t tally) Precision() (p float64, ok bool) {
	n := t.Right + t.Wrong + t.Disputed
	if n == 0 {
		return 0, false
	}
	return float64(t.Right) / float64(n), true
}

func (t *tally) add(verdict string) {
	switch verdict {
	case verdictRight:
		t.Right++
	case verdictWrong:
		t.Wrong++
	case verdictDisputed:
		t.Disputed++
	default:
		t.Unjudged++
	}
}

// precision tallies the matched findings per check, and in total; a new
// finding counts as unjudged.
func (c comparison) precision() (perCheck map[string]*tally, total tally) {
	perCheck = make(map[string]*tally)
	get := func(check string) *tally {
		t := perCheck[check]
		if t == nil {
			t = new(tally)
			perCheck[check] = t
		}
		return t
	}
	for _, m := range c.Matched {
		get(m.Finding.Check).add(m.Entry.Verdict)
		total.add(m.Entry.Verdict)
	}
	for _, f := range c.New {
		get(f.Check).add(verdictUnjudged)
		total.add(verdictUnjudged)
	}
	return perCheck, total
}

// update returns the ledger with the new findings appended as unjudged
// (their message as the reason, to be replaced by the judge) and, if
// prune is set, without the vanished entries that were not right. A
// vanished right entry is never removed: it is a regression to fix, not
// a judgment to drop. It also returns the entries it removed.
func update(entries []entry, c comparison, prune bool) (out, removed []entry) {
	drop := make(map[int]bool)
	if prune {
		for _, e := range c.Vanished {
			if e.Verdict != verdictRight {
				drop[e.Line] = true
				removed = append(removed, e)
			}
		}
	}
	for _, e := range entries {
		if !drop[e.Line] || e.Line == 0 {
			out = append(out, e)
		}
	}
	added := make([]entry, 0, len(c.New))
	for _, f := range c.New {
		added = append(added, entry{Module: f.Module, Pos: f.Pos, Check: f.Check, Category: f.Category, Verdict: verdictUnjudged, Reason: f.Message})
	}
	slices.SortStableFunc(added, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.Module, b.Module), comparePos(a.Pos, b.Pos), cmp.Compare(a.Check, b.Check))
	})
	return append(out, added...), removed
}

// comparePos orders file:line positions by file, then by line as a
// number.
func comparePos(a, b string) int {
	fa, la := splitPos(a)
	fb, lb := splitPos(b)
	return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(la, lb))
}

func splitPos(p string) (file string, line int) {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return p, 0
	}
	fmt.Sscanf(p[i+1:], "%d", &line)
	return p[:i], line
}
