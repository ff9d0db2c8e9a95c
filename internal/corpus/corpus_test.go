package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseModules(t *testing.T) {
	src := `# comment

example.com/a@v1.0.0 short
example.com/b/v2@v2.1.0 ./x/... .  # trailing words are fields, so no comments here
`
	if _, err := parseModules(strings.NewReader(src)); err == nil {
		t.Fatal("a trailing comment parsed as fields: want an error")
	}
	src = "example.com/a@v1.0.0 short\n\nexample.com/b/v2@v2.1.0 ./x/... .\n"
	mods, err := parseModules(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []module{
		{Path: "example.com/a", Version: "v1.0.0", Short: true, Patterns: []string{"./..."}},
		{Path: "example.com/b/v2", Version: "v2.1.0", Patterns: []string{"./x/...", "."}},
	}
	if len(mods) != len(want) {
		t.Fatalf("got %d modules, want %d", len(mods), len(want))
	}
	for i := range want {
		g, w := mods[i], want[i]
		if g.Path != w.Path || g.Version != w.Version || g.Short != w.Short || !slices.Equal(g.Patterns, w.Patterns) {
			t.Errorf("module %d = %+v, want %+v", i, g, w)
		}
	}
	if got := mods[1].ID(); got != "example.com/b/v2@v2.1.0" {
		t.Errorf("ID = %q", got)
	}
}

func TestParseModulesErrors(t *testing.T) {
	for _, src := range []string{
		"example.com/a\n",                              // no version
		"example.com/a@\n",                             // empty version
		"example.com/a@v1.0.0 long\n",                  // unknown field
		"example.com/a@v1.0.0 ./../x\n",                // leaves the module
		"example.com/a@v1.0.0\nexample.com/a@v1.1.0\n", // listed twice
	} {
		if _, err := parseModules(strings.NewReader(src)); err == nil {
			t.Errorf("parseModules(%q): no error", src)
		}
	}
}

func TestSelectModules(t *testing.T) {
	all := []module{
		{Path: "example.com/a", Version: "v1", Short: true},
		{Path: "example.com/b", Version: "v2"},
		{Path: "example.com/c", Version: "v3", Short: true},
	}
	paths := func(ms []module) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Path)
		}
		return out
	}
	for _, tc := range []struct {
		names []string
		short bool
		want  []string
	}{
		{nil, false, []string{"example.com/a", "example.com/b", "example.com/c"}},
		{nil, true, []string{"example.com/a", "example.com/c"}},
		{[]string{"example.com/b", "example.com/a@v1", "example.com/b"}, false, []string{"example.com/b", "example.com/a"}},
		{[]string{"example.com/b"}, true, []string{"example.com/b"}}, // -modules wins over -short
	} {
		got, err := selectModules(all, tc.names, tc.short)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(paths(got), tc.want) {
			t.Errorf("selectModules(%q, %v) = %q, want %q", tc.names, tc.short, paths(got), tc.want)
		}
	}
	for _, name := range []string{"example.com/d", "example.com/a@v9", "a"} {
		if _, err := selectModules(all, []string{name}, false); err == nil {
			t.Errorf("selectModules(%q): no error", name)
		}
	}
}

const header = "module\tposition\tcheck\tcategory\tverdict\treason\n"

func TestParseLedger(t *testing.T) {
	src := header +
		"# a comment\n" +
		"m@v1\ta.go:10\tbackoff\tno-jitter\tright\tthe loop sleeps a fixed 1s\n" +
		"\n" +
		"m@v1\tsub/b.go:7\tidempotency\t\tunjudged\t\n"
	es, err := parseLedger(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 {
		t.Fatalf("got %d entries, want 2", len(es))
	}
	want := entry{Module: "m@v1", Pos: "a.go:10", Check: "backoff", Category: "no-jitter", Verdict: "right", Reason: "the loop sleeps a fixed 1s", Line: 3}
	if es[0] != want {
		t.Errorf("entry 0 = %+v, want %+v", es[0], want)
	}
	if es[1].Category != "" || es[1].Verdict != verdictUnjudged || es[1].Line != 5 {
		t.Errorf("entry 1 = %+v", es[1])
	}
}

func TestParseLedgerErrors(t *testing.T) {
	for name, src := range map[string]string{
		"empty":          "",
		"no header":      "m@v1\ta.go:1\tbackoff\t\tright\tr\n",
		"short line":     header + "m@v1\ta.go:1\tbackoff\tright\tr\n",
		"bad verdict":    header + "m@v1\ta.go:1\tbackoff\t\tmaybe\tr\n",
		"no reason":      header + "m@v1\ta.go:1\tbackoff\t\twrong\t \n",
		"no line":        header + "m@v1\ta.go\tbackoff\t\tright\tr\n",
		"bad line":       header + "m@v1\ta.go:x1\tbackoff\t\tright\tr\n",
		"no version":     header + "m\ta.go:1\tbackoff\t\tright\tr\n",
		"no check":       header + "m@v1\ta.go:1\t\t\tright\tr\n",
		"too many tabs":  header + "m@v1\ta.go:1\tbackoff\t\tright\tr\textra\n",
		"wrong header":   "module\tposition\tcheck\tverdict\treason\n",
		"disputed blank": header + "m@v1\ta.go:1\tbackoff\t\tdisputed\t\n",
	} {
		if _, err := parseLedger(strings.NewReader(src)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLedgerRoundTrip(t *testing.T) {
	in := []entry{
		{Module: "m@v1", Pos: "a.go:10", Check: "backoff", Category: "no-jitter", Verdict: "wrong", Reason: "a tab\there and\na newline"},
		{Module: "m@v1", Pos: "b.go:3", Check: "retrynesting", Verdict: "unjudged"},
	}
	var buf bytes.Buffer
	if err := writeLedger(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := parseLedger(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(out) != 2 || out[0].Reason != "a tab here and a newline" || out[1].Pos != "b.go:3" || out[1].Check != "retrynesting" {
		t.Errorf("round trip = %+v", out)
	}
}

func f(mod, pos, check, cat string) finding {
	return finding{Module: mod, Pos: pos, Check: check, Category: cat, Message: "msg " + pos}
}

func e(line int, mod, pos, check, cat, verdict string) entry {
	return entry{Module: mod, Pos: pos, Check: check, Category: cat, Verdict: verdict, Reason: "why", Line: line}
}

func TestCompare(t *testing.T) {
	entries := []entry{
		e(2, "m@v1", "a.go:1", "backoff", "no-jitter", verdictRight),
		e(3, "m@v1", "a.go:1", "backoff", "no-jitter", verdictWrong), // a second finding on the same line
		e(4, "m@v1", "a.go:9", "backoff", "no-cap", verdictRight),    // vanished right: fails
		e(5, "m@v1", "b.go:2", "idempotency", "", verdictDisputed),   // vanished disputed: fine
		e(6, "m@v1", "c.go:4", "timeoutchain", "", verdictUnjudged),  // still unjudged: fails
		e(7, "other@v2", "a.go:1", "backoff", "", verdictRight),      // module not run: ignored
		e(8, "m@v0", "a.go:1", "backoff", "no-jitter", verdictRight), // another version: ignored
	}
	findings := []finding{
		f("m@v1", "a.go:1", "backoff", "no-jitter"),
		f("m@v1", "a.go:1", "backoff", "no-jitter"),
		f("m@v1", "a.go:1", "backoff", "no-jitter"), // a third: new
		f("m@v1", "c.go:4", "timeoutchain", ""),
		f("m@v1", "a.go:1", "backoff", "no-cap"), // other category: new
	}
	c := compare(entries, findings, map[string]bool{"m@v1": true})

	if len(c.Matched) != 3 || c.Matched[0].Entry.Line != 2 || c.Matched[1].Entry.Line != 3 || c.Matched[2].Entry.Line != 6 {
		t.Errorf("matched = %+v", c.Matched)
	}
	if len(c.New) != 2 || c.New[0].Category != "no-jitter" || c.New[1].Category != "no-cap" {
		t.Errorf("new = %+v", c.New)
	}
	var vanished []int
	for _, v := range c.Vanished {
		vanished = append(vanished, v.Line)
	}
	if !slices.Equal(vanished, []int{4, 5}) {
		t.Errorf("vanished lines = %v, want [4 5]", vanished)
	}

	fails := c.failures()
	if len(fails) != 4 { // 2 new, 1 unjudged, 1 vanished right
		t.Fatalf("failures = %d, want 4:\n%s", len(fails), strings.Join(fails, "\n"))
	}
	joined := strings.Join(fails, "\n")
	for _, want := range []string{"new finding", "unjudged (ledger line 6)", "right finding no longer made (ledger line 4)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("failures lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "line 5") {
		t.Errorf("a vanished disputed finding fails the run:\n%s", joined)
	}
}

func TestComparePasses(t *testing.T) {
	entries := []entry{
		e(2, "m@v1", "a.go:1", "backoff", "no-jitter", verdictRight),
		e(3, "m@v1", "b.go:1", "backoff", "no-cap", verdictWrong),
	}
	findings := []finding{f("m@v1", "a.go:1", "backoff", "no-jitter")}
	c := compare(entries, findings, map[string]bool{"m@v1": true})
	if fails := c.failures(); len(fails) != 0 {
		t.Errorf("failures = %q, want none (a wrong finding that went away is progress)", fails)
	}
}

func TestPrecision(t *testing.T) {
	c := comparison{
		Matched: []match{
			{Finding: f("m@v1", "a.go:1", "backoff", ""), Entry: entry{Verdict: verdictRight}},
			{Finding: f("m@v1", "a.go:2", "backoff", ""), Entry: entry{Verdict: verdictRight}},
			{Finding: f("m@v1", "a.go:3", "backoff", ""), Entry: entry{Verdict: verdictRight}},
			{Finding: f("m@v1", "a.go:4", "backoff", ""), Entry: entry{Verdict: verdictDisputed}},
			{Finding: f("m@v1", "a.go:5", "idempotency", ""), Entry: entry{Verdict: verdictWrong}},
			{Finding: f("m@v1", "a.go:6", "idempotency", ""), Entry: entry{Verdict: verdictUnjudged}},
		},
		New: []finding{f("m@v1", "a.go:7", "timeoutchain", "")},
	}
	per, total := c.precision()
	if got := *per["backoff"]; got != (tally{Right: 3, Disputed: 1}) {
		t.Errorf("backoff = %+v", got)
	}
	if p, ok := per["backoff"].Precision(); !ok || p != 0.75 {
		t.Errorf("backoff precision = %v, %v, want 0.75 (disputed counts against)", p, ok)
	}
	if p, ok := per["idempotency"].Precision(); !ok || p != 0 {
		t.Errorf("idempotency precision = %v, %v, want 0 (unjudged not counted)", p, ok)
	}
	if _, ok := per["timeoutchain"].Precision(); ok {
		t.Error("timeoutchain has only a new finding: no precision")
	}
	if total != (tally{Right: 3, Wrong: 1, Disputed: 1, Unjudged: 2}) {
		t.Errorf("total = %+v", total)
	}
}

func TestUpdate(t *testing.T) {
	entries := []entry{
		e(2, "m@v1", "a.go:1", "backoff", "", verdictRight),
		e(3, "m@v1", "a.go:9", "backoff", "", verdictRight),    // vanished right: kept, even with prune
		e(4, "m@v1", "b.go:2", "backoff", "", verdictDisputed), // vanished disputed: kept without prune
	}
	findings := []finding{
		f("m@v1", "a.go:1", "backoff", ""),
		f("m@v1", "z.go:10", "backoff", ""),
		f("m@v1", "z.go:9", "backoff", ""),
	}
	c := compare(entries, findings, map[string]bool{"m@v1": true})

	out, removed := update(entries, c, false)
	if len(removed) != 0 || len(out) != 5 {
		t.Fatalf("update without prune: %d entries, %d removed; want 5, 0", len(out), len(removed))
	}
	// New findings are appended in position order, unjudged, with their
	// message to judge by.
	if out[3].Pos != "z.go:9" || out[4].Pos != "z.go:10" || out[3].Verdict != verdictUnjudged || out[3].Reason != "msg z.go:9" {
		t.Errorf("appended = %+v, %+v", out[3], out[4])
	}
	// The new ledger now fails only because of the unjudged entries and
	// the vanished right one.
	var buf bytes.Buffer
	if err := writeLedger(&buf, out); err != nil {
		t.Fatal(err)
	}
	reread, err := parseLedger(&buf)
	if err != nil {
		t.Fatal(err)
	}
	c2 := compare(reread, findings, map[string]bool{"m@v1": true})
	if len(c2.New) != 0 || len(c2.failures()) != 3 {
		t.Errorf("after update: %d new, failures %q", len(c2.New), c2.failures())
	}

	out, removed = update(entries, c, true)
	if len(removed) != 1 || removed[0].Line != 4 {
		t.Errorf("prune removed %+v, want only the disputed line 4", removed)
	}
	if !slices.ContainsFunc(out, func(x entry) bool { return x.Line == 3 }) {
		t.Error("prune removed a right entry")
	}
}

func TestParseOutput(t *testing.T) {
	dir := filepath.FromSlash("/tmp/work/src")
	abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	data := []byte(`[
  {"package": "example.com/m/p", "check": "backoff", "posn": "` + abs("p/a.go") + `:12:3", "category": "no-jitter", "message": "retry delay has no jitter"},
  {"package": "example.com/m/p", "check": "backoff", "posn": "` + abs("p/a_test.go") + `:5:1", "message": "in a test"},
  {"package": "example.com/m/p [example.com/m/p.test]", "check": "backoff", "posn": "` + abs("p/a.go") + `:12:3", "category": "no-jitter", "message": "retry delay has no jitter"},
  {"package": "example.com/m/p [example.com/m/p.test]", "check": "backoff", "posn": "` + abs("p/a_test.go") + `:5:1", "message": "in a test"},
  {"package": "example.com/m/p [example.com/m/p.test]", "check": "backoff", "posn": "` + abs("p/a.go") + `:2:1", "message": "earlier line"},
  {"package": "example.com/m/q", "check": "idempotency", "posn": "/elsewhere/x.go:1:1", "message": "outside"}
]`)
	p, err := parseOutput(data, "example.com/m@v1", dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.TestFiles != 1 {
		t.Errorf("TestFiles = %d, want 1 (the test variant repeats it)", p.TestFiles)
	}
	want := []finding{
		{Module: "example.com/m@v1", Pos: "p/a.go:2", Check: "backoff", Message: "earlier line"},
		{Module: "example.com/m@v1", Pos: "p/a.go:12", Check: "backoff", Category: "no-jitter", Message: "retry delay has no jitter"},
	}
	if !slices.Equal(p.Findings, want) {
		t.Errorf("findings = %+v\nwant %+v", p.Findings, want)
	}
	if len(p.Errors) != 1 || !strings.Contains(p.Errors[0], "outside the module") {
		t.Errorf("errors = %q", p.Errors)
	}

	if _, err := parseOutput([]byte("not json"), "m@v1", dir); err == nil {
		t.Error("bad JSON: no error")
	}
}

func TestRelPos(t *testing.T) {
	dir := filepath.FromSlash("/w/src")
	for _, tc := range []struct {
		posn, file string
		line       int
	}{
		{filepath.FromSlash("/w/src/a/b.go") + ":10:4", "a/b.go", 10},
		{filepath.FromSlash("/w/src/b.go") + ":7", "b.go", 7},
	} {
		file, line, err := relPos(tc.posn, dir)
		if err != nil || file != tc.file || line != tc.line {
			t.Errorf("relPos(%q) = %q, %d, %v; want %q, %d", tc.posn, file, line, err, tc.file, tc.line)
		}
	}
	for _, bad := range []string{"/w/src/a.go", filepath.FromSlash("/w/other/a.go") + ":1:1", filepath.FromSlash("/w/srcx/a.go") + ":1:1"} {
		if _, _, err := relPos(bad, dir); err == nil {
			t.Errorf("relPos(%q): no error", bad)
		}
	}
}

// TestCheckedInFiles parses the repository's own module list and ledger:
// a malformed line fails here, before any module is fetched, and every
// ledger entry names a listed module version.
func TestCheckedInFiles(t *testing.T) {
	mods, err := readModules("modules.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) < 25 {
		t.Errorf("%d modules listed, want at least 25", len(mods))
	}
	if !slices.ContainsFunc(mods, func(m module) bool { return m.Short }) {
		t.Error("no module is in the CI subset (short)")
	}
	ids := make(map[string]bool)
	for _, m := range mods {
		ids[m.ID()] = true
	}
	entries, err := readLedger("ledger.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !ids[e.Module] {
			t.Errorf("ledger line %d: %s is not in modules.txt", e.Line, e.Module)
		}
	}
}

// TestRunFlags checks the flag errors that need no network.
func TestRunFlags(t *testing.T) {
	for _, args := range [][]string{{"-prune"}, {"extra"}, {"-nosuchflag"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("run(%q) = %d, want 2\n%s", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-list", filepath.Join(t.TempDir(), "none.txt")}, &out, &errb); code != 1 {
		t.Errorf("missing module list: exit %d, want 1", code)
	}
	bad := filepath.Join(t.TempDir(), "ledger.tsv")
	if err := os.WriteFile(bad, []byte(header+"m@v1\ta.go:1\tbackoff\t\tmaybe\tr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"-list", "modules.txt", "-ledger", bad, "-modules", "github.com/sony/gobreaker/v2"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "maybe") {
		t.Errorf("bad ledger: exit %d, want 1 with the bad verdict named\n%s", code, errb.String())
	}
}

func TestLocalReplaces(t *testing.T) {
	type mv = struct{ Path, Version string }
	replaces := []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}{
		{Old: mv{"example.com/api", ""}, New: mv{"../../api", ""}},            // a sibling directory: dropped
		{Old: mv{"example.com/pkg", "v1.2.0"}, New: mv{"/abs/pkg", ""}},       // a directory, one version: dropped
		{Old: mv{"example.com/fork", ""}, New: mv{"example.com/x", "v1.0.0"}}, // a module version: kept
	}
	got := localReplaces(replaces)
	want := []string{"-dropreplace=example.com/api", "-dropreplace=example.com/pkg@v1.2.0"}
	if !slices.Equal(got, want) {
		t.Errorf("localReplaces = %q, want %q", got, want)
	}
}
