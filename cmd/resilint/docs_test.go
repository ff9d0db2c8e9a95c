package main_test

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/resilint/resilint/analyzers"
)

// The docs tell the truth about the demo: every "file.go:line:col:
// message" (or file.yaml, for the mesh) quoted in an output block of docs/checks/*.md is a finding (or
// a related location of one) that resilint reports on examples/, at that
// position, with that text ("..." ends a quote early).
func TestDocsPositions(t *testing.T) {
	root := repoRoot(t)
	// With the demo's mesh: its findings are the mesh page's, and the
	// code's findings are the same with it as without it.
	stdout, stderr, code := run(t, root, bin, "-json", "-mesh", "examples/mesh", "./examples/...")
	if code != 0 {
		t.Fatalf("-json: exit %d\n%s", code, stderr)
	}
	var findings []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(root)
	type reported struct{ posn, message string }
	var main, related []reported
	rel := func(posn string) string {
		if r, err := filepath.Rel(abs, posn); err == nil {
			return filepath.ToSlash(r)
		}
		return posn
	}
	onDemo := make(map[string]bool) // checks with findings on the demo
	for _, f := range findings {
		onDemo[f.Check] = true
		main = append(main, reported{rel(f.Posn), f.Message})
		for _, r := range f.Related {
			related = append(related, reported{rel(r.Posn), r.Message})
		}
	}

	pages, _ := filepath.Glob(filepath.Join(root, "docs", "checks", "*.md"))
	if len(pages) == 0 {
		t.Fatal("no docs/checks/*.md")
	}
	for _, page := range pages {
		quotes := quotedFindings(t, page)
		if check := strings.TrimSuffix(filepath.Base(page), ".md"); len(quotes) == 0 && onDemo[check] {
			t.Errorf("%s quotes no finding of the demo, though %s reports some there: the test would prove nothing", filepath.Base(page), check)
		}
		for _, q := range quotes {
			list := main
			if q.related {
				list = related
			}
			found := false
			for _, r := range list {
				if (r.posn == q.posn || strings.HasSuffix(r.posn, "/"+q.posn)) && q.matches(r.message) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s:%d quotes %s: %q, which resilint does not report on examples/ (related: %v)", filepath.Base(page), q.line, q.posn, q.message, q.related)
			}
		}
	}
}

type quote struct {
	line    int // in the page
	posn    string
	message string
	related bool
	prefix  bool // the quote ends with "...": the message starts with it
}

func (q quote) matches(message string) bool {
	got := strings.Join(strings.Fields(message), " ")
	if q.prefix {
		return strings.HasPrefix(got, q.message)
	}
	return got == q.message
}

var quotedLine = regexp.MustCompile(`^(\S+\.(?:go|yaml):\d+:\d+):(\s+)(.*)$`)

// quotedFindings reads the output blocks (fenced blocks with no language)
// of a page: a line "file.go:line:col: message" starts a finding, more
// than one space after the position marks a related location, and lines
// indented by two spaces continue the message.
func quotedFindings(t *testing.T, page string) []quote {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var quotes []quote
	inOutput, inFence := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			inOutput = inFence && strings.TrimSpace(l) == "```"
			continue
		}
		if !inOutput {
			continue
		}
		if m := quotedLine.FindStringSubmatch(l); m != nil {
			quotes = append(quotes, quote{line: n, posn: m[1], message: m[3], related: m[2] != " "})
			continue
		}
		if strings.HasPrefix(l, "  ") && len(quotes) > 0 {
			quotes[len(quotes)-1].message += " " + strings.TrimSpace(l)
		}
	}
	for i := range quotes {
		q := &quotes[i]
		q.message = strings.Join(strings.Fields(q.message), " ")
		if strings.HasSuffix(q.message, "...") {
			q.message = strings.TrimSpace(strings.TrimSuffix(q.message, "..."))
			q.prefix = true
		}
	}
	return quotes
}

// Each diagnostic's documentation URL — the analyzer's URL with the
// category as its fragment, as gopls, SARIF's helpUri and -json's url
// make it — lands on a heading of that name in the page the URL names.
// The categories are those the checks report on their fixtures and on
// the demo, and every literal Category of the check's source.
func TestDocsAnchors(t *testing.T) {
	root, err := filepath.Abs(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	cats := make(map[string]map[string]bool) // check → categories
	add := func(check, cat string) {
		if cats[check] == nil {
			cats[check] = make(map[string]bool)
		}
		cats[check][cat] = true
	}

	// Reported on the fixtures (GOPATH layout) and on the demo.
	gopathRuns := []struct {
		gopath string
		args   []string
	}{
		{filepath.Join(root, "testdata"), []string{"-decoratororder.strict"}},
		{filepath.Join(root, "analyzers", "internal", "suppress", "testdata"), []string{"-unused-ignores"}},
	}
	for _, g := range gopathRuns {
		entries, err := os.ReadDir(filepath.Join(g.gopath, "src"))
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-json"}, g.args...)
		for _, e := range entries {
			if e.IsDir() && !strings.Contains(e.Name(), ".") { // not the stubs at their import paths
				args = append(args, e.Name()+"/...")
			}
		}
		stdout, stderr, _ := runEnv(t, filepath.Join(g.gopath, "src"), []string{"GO111MODULE=off", "GOPATH=" + g.gopath, "GOFLAGS="}, bin, args...)
		var findings []jsonFinding
		if err := json.Unmarshal([]byte(stdout), &findings); err != nil || len(findings) == 0 {
			t.Fatalf("fixtures in %s: %v, no findings\n%s", g.gopath, err, stderr)
		}
		for _, f := range findings {
			add(f.Check, f.Category)
		}
	}
	stdout, _, _ := run(t, root, bin, "-json", "./examples/...")
	var findings []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		add(f.Check, f.Category)
	}

	for _, a := range analyzers.All() {
		// Literal categories in the check's own source.
		dir := filepath.Join(root, "analyzers", a.Name)
		if a.Name == "ignorecheck" {
			dir = filepath.Join(root, "analyzers", "internal", "suppress")
		}
		for _, c := range literalCategories(t, dir) {
			add(a.Name, c)
		}
		if len(cats[a.Name]) == 0 {
			t.Errorf("%s: no category found, in its findings or its source", a.Name)
			continue
		}

		const prefix = "https://github.com/resilint/resilint/blob/main/"
		page, frag, _ := strings.Cut(a.URL, "#")
		if !strings.HasPrefix(page, prefix) || frag != "" {
			t.Errorf("%s: URL %q is not a page of the repository without a fragment (the category is the fragment)", a.Name, a.URL)
			continue
		}
		anchors := headingAnchors(t, filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(page, prefix))))
		for cat := range cats[a.Name] {
			if cat == "" {
				t.Errorf("%s reports a diagnostic without a category", a.Name)
				continue
			}
			if !anchors[cat] {
				t.Errorf("%s#%s: no heading %q in %s", a.Name, cat, cat, strings.TrimPrefix(page, prefix))
			}
		}
	}
}

// literalCategories returns the string literals given as Category in the
// non-test Go files of dir.
func literalCategories(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Category" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out = append(out, s)
					}
				}
			}
			return true
		})
	}
	return out
}

// headingAnchors returns the anchors GitHub makes for the headings of a
// Markdown file: lowercased, code marks and punctuation other than "-"
// and "_" dropped, spaces made hyphens, repeats numbered -1, -2, ...
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	anchors := make(map[string]bool)
	count := make(map[string]int)
	inFence := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			case r > 127:
				b.WriteRune(r) // letters of other scripts stay; GitHub drops only punctuation
			}
		}
		slug := b.String()
		if n := count[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		count[slug]++
	}
	return anchors
}
