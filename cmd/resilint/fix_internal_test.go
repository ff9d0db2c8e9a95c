package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestApplyEdits(t *testing.T) {
	src := []byte("abcdef")
	got := string(apply(src, []edit{{3, 3, "X"}, {1, 2, "B"}, {3, 3, "Y"}, {3, 4, "D"}}))
	if want := "aBcXYDef"; got != want {
		t.Errorf("apply = %q, want %q (insertions at one offset in order, before a replacement there)", got, want)
	}
}

func TestOverlapping(t *testing.T) {
	for _, c := range []struct {
		a, b []edit
		ok   bool
	}{
		{[]edit{{0, 2, "x"}}, []edit{{2, 4, "y"}}, true},      // adjacent
		{[]edit{{0, 3, "x"}}, []edit{{2, 4, "y"}}, false},     // overlapping
		{[]edit{{0, 3, "x"}}, []edit{{0, 3, "x"}}, true},      // the same edit
		{[]edit{{0, 3, "x"}}, []edit{{1, 1, "y"}}, false},     // insertion inside a replacement
		{[]edit{{0, 3, "x"}}, []edit{{3, 3, "y"}}, true},      // insertion at its end
		{[]edit{{5, 5, "import"}}, []edit{{5, 5, "b"}}, true}, // two insertions at one place
	} {
		if _, ok := overlapping(c.a, c.b); ok != c.ok {
			t.Errorf("overlapping(%v, %v) = %v, want %v", c.a, c.b, ok, c.ok)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\n"
	want := `--- f.go
+++ f.go
@@ -1,7 +1,7 @@
 a
 b
 c
-d
+D
 e
 f
 g
@@ -9,3 +9,4 @@
 i
 j
 k
+l
`
	if got := unifiedDiff("f.go", "f.go", []byte(old), []byte(new)); got != want {
		t.Errorf("unifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	// Changes 2×3 lines apart or closer share a hunk, as in diff -u.
	merged := strings.Replace(new, "k\nl\n", "k\n", 1)
	merged = strings.Replace(merged, "j\n", "J\n", 1)
	if got := unifiedDiff("f.go", "f.go", []byte(old), []byte(merged)); strings.Count(got, "@@ ") != 1 {
		t.Errorf("two changes 5 lines apart in %d hunks:\n%s", strings.Count(got, "@@ "), got)
	}
	if got := unifiedDiff("f.go", "f.go", []byte(old), []byte(old)); got != "" {
		t.Errorf("no change: %q", got)
	}
}

// tidy drops an import that the fixes made unused, and only such one.
func TestTidyImports(t *testing.T) {
	old := `package p

import (
	"time"

	other "example.com/x/y"
	"example.com/z/name-differs"
)

func f() { time.Sleep(time.Second); other.F() }
`
	fixed := strings.Replace(old, "time.Sleep(time.Second); ", "", 1)
	out, err := tidy("p.go", []byte(old), []byte(fixed))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), `"time"`) || !strings.Contains(string(out), `other "example.com/x/y"`) || !strings.Contains(string(out), `"example.com/z/name-differs"`) {
		t.Errorf("tidy:\n%s", out)
	}
}

func TestFormatVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261130131500-2e8dd31abcde+dirty"}}, "v0.0.0-20261130131500-2e8dd31abcde+dirty"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "2e8dd31abcdef0123456789", "vcs.time", "2026-11-30T13:15:00Z", "vcs.modified", "true")},
			"devel (rev 2e8dd31abcde, 2026-11-30T13:15:00Z, modified)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "2e8dd31abcdef0123456789", "vcs.modified", "false")},
			"devel (rev 2e8dd31abcde)"},
	} {
		if got := formatVersion(c.info, c.info != nil); got != c.want {
			t.Errorf("formatVersion(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
}

// applyFixes on findings made by hand: a fix that overlaps one already
// taken is left for the next run; a fix that breaks the syntax is not
// written; both are reported with their position and check.
func TestApplyFixesReport(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	src := "package a\n\nfunc F() int { return 1 }\n\nfunc G() int { return 2 }\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, name, src, 0); err != nil {
		t.Fatal(err)
	}
	tf := fset.File(token.Pos(fset.Base() - 1))
	check := &analysis.Analyzer{Name: "demo"}
	mk := func(off, end int, text string) *finding {
		d := analysis.Diagnostic{Pos: tf.Pos(off), Message: "m", SuggestedFixes: []analysis.SuggestedFix{{
			Message:   "fix",
			TextEdits: []analysis.TextEdit{{Pos: tf.Pos(off), End: tf.Pos(end), NewText: []byte(text)}},
		}}}
		return &finding{check: check, files: fset, diag: d, posn: fset.Position(d.Pos), end: fset.Position(d.Pos)}
	}
	one := strings.Index(src, "1")
	two := strings.Index(src, "2")
	findings := []*finding{mk(one, one+1, "10"), mk(one, one+1, "11"), {check: check, files: fset, posn: fset.Position(tf.Pos(two))}}
	var stdout, stderr strings.Builder
	if code := applyFixes(findings, false, &stdout, &stderr); code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	got, _ := os.ReadFile(name)
	if !strings.Contains(string(got), "return 10") {
		t.Errorf("first fix not applied:\n%s", got)
	}
	for _, want := range []string{"resilint: fixed 1 of 3 findings (1 file changed)", "a.go:3:23: demo: its fix overlaps another fix in", "a.go:5:23: demo: no automatic fix"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, stderr.String())
		}
	}

	// A fix that does not parse: the file is left alone.
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := applyFixes([]*finding{mk(one, one+1, "{{")}, false, &stdout, &stderr); code != 1 {
		t.Errorf("unparsable fix: exit %d, want 1", code)
	}
	if got, _ := os.ReadFile(name); string(got) != src {
		t.Errorf("unparsable fix written:\n%s", got)
	}
	if !strings.Contains(stderr.String(), "fixed 0 of 1 finding") || !strings.Contains(stderr.String(), "demo: the fixed file does not parse") {
		t.Errorf("report:\n%s", stderr.String())
	}
}
