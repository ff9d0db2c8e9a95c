package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// -fix: apply the first suggested fix of every finding, in the findings'
// order; a fix whose edits overlap a fix already taken is left out (the
// next run offers it again, on the fixed code). Identical edits (the same
// import added by two fixes) are made once. Each changed file is then
// stripped of the imports the fixes made unused and gofmt-formatted.
//
// The report goes to standard error: how many findings were fixed, in how
// many files, then each finding that was not, with its position, check
// and why. A file whose fixes do not parse is left unchanged, its fixes
// counted as not made. The exit status is 0 when every finding was fixed,
// 3 when some were not, 1 (first) when a file could not be read, parsed
// after the fixes, or written. -diff prints the changes as a unified diff
// on standard output and writes nothing; the report and the status say
// what -fix would do.

// edit is a replacement of the bytes [start, end) of a file.
type edit struct {
	start, end int
	text       string
}

type fileFix struct {
	tf       *token.File
	edits    []edit     // in the order taken
	findings []*finding // whose fixes edit the file
}

// notFixed is a finding left as it was, and why.
type notFixed struct {
	f   *finding
	why string
}

func applyFixes(findings []*finding, diffOnly bool, stdout, stderr io.Writer) int {
	wd, _ := os.Getwd()
	files := make(map[string]*fileFix)
	var order []string // file names in the order first edited
	var taken []*finding
	var left []notFixed
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			left = append(left, notFixed{f, "no automatic fix"})
			continue
		}
		edits, err := fileEdits(f)
		if err != nil {
			left = append(left, notFixed{f, err.Error()})
			continue
		}
		if name, ok := conflict(files, edits); !ok {
			left = append(left, notFixed{f, "its fix overlaps another fix in " + displayPath(wd, token.Position{Filename: name}) + " (run -fix again)"})
			continue
		}
		for name, es := range edits {
			ff := files[name]
			if ff == nil {
				ff = &fileFix{tf: es.tf}
				files[name] = ff
				order = append(order, name)
			}
			for _, e := range es.edits {
				if !slices.Contains(ff.edits, e) {
					ff.edits = append(ff.edits, e)
				}
			}
			ff.findings = append(ff.findings, f)
		}
		taken = append(taken, f)
	}

	code := 0
	var changed int
	var added []addedImport
	failed := make(map[*finding]string) // fixes taken whose file was not written, and why
	for _, name := range order {
		ff := files[name]
		fail := func(why string) {
			for _, f := range ff.findings {
				if _, ok := failed[f]; !ok {
					failed[f] = why
				}
			}
		}
		old, err := os.ReadFile(name)
		if err == nil && len(old) != ff.tf.Size() {
			err = fmt.Errorf("changed since it was analyzed")
		}
		if err != nil {
			fmt.Fprintf(stderr, "resilint: -fix: %s: %v\n", displayPath(wd, token.Position{Filename: name}), err)
			fail("its file could not be read: " + err.Error())
			code = 1
			continue
		}
		src, err := tidy(name, old, apply(old, ff.edits))
		if err != nil {
			// A fix that breaks the syntax is not written: the file stays
			// as it was and its fixes are reported as not made.
			fmt.Fprintf(stderr, "resilint: -fix: the fixes of %s do not parse (file left unchanged): %v\n", displayPath(wd, token.Position{Filename: name}), err)
			fail("the fixed file does not parse")
			code = 1
			continue
		}
		if bytes.Equal(src, old) {
			continue
		}
		changed++
		for _, path := range newImports(old, src) {
			if strings.HasPrefix(path, runtimeModule+"/") {
				added = append(added, addedImport{filepath.Dir(name), path})
			}
		}
		if diffOnly {
			rel := displayPath(wd, token.Position{Filename: name})
			io.WriteString(stdout, unifiedDiff(rel, rel, old, src))
			continue
		}
		if err := writeFile(name, src); err != nil {
			fmt.Fprintf(stderr, "resilint: -fix: %v\n", err)
			fail("its file could not be written")
			code = 1
		}
	}
	fixed := 0
	for _, f := range taken {
		if why, ok := failed[f]; ok {
			left = append(left, notFixed{f, why})
		} else {
			fixed++
		}
	}
	rank := make(map[*finding]int, len(findings))
	for i, f := range findings {
		rank[f] = i
	}
	slices.SortStableFunc(left, func(x, y notFixed) int { return rank[x.f] - rank[y.f] })

	verb := "fixed"
	if diffOnly {
		verb = "would fix"
	}
	fmt.Fprintf(stderr, "resilint: %s %d of %d %s (%s)\n", verb, fixed, len(findings), plural(len(findings), "finding", "findings"), plural(changed, "1 file changed", strconv.Itoa(changed)+" files changed"))
	checkImports(added, stderr)
	if len(left) > 0 {
		fmt.Fprintf(stderr, "resilint: not fixed:\n")
		for _, n := range left {
			fmt.Fprintf(stderr, "%s: %s: %s\n", displayPath(wd, n.f.posn), n.f.check.Name, n.why)
		}
		if code == 0 {
			code = 3 // an error (1) says more than findings left
		}
	}
	return code
}

// runtimeModule is the module of the packages the fixes import.
const runtimeModule = "github.com/resilint/resilint/runtime"

type addedImport struct{ dir, path string }

// newImports returns the import paths of src that old did not have.
func newImports(old, src []byte) []string {
	imports := func(b []byte) map[string]bool {
		m := make(map[string]bool)
		f, err := parser.ParseFile(token.NewFileSet(), "", b, parser.ImportsOnly)
		if err != nil {
			return m
		}
		for _, spec := range f.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil {
				m[p] = true
			}
		}
		return m
	}
	before := imports(old)
	var out []string
	for p := range imports(src) {
		if !before[p] {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// checkImports asks the go command whether the runtime packages the fixes
// imported resolve where they were added, and says what to do when they
// do not (the module does not require the runtime yet, or it is not
// published and no replace or workspace points at a checkout).
func checkImports(added []addedImport, stderr io.Writer) {
	seen := make(map[addedImport]bool)
	for _, a := range added {
		if seen[a] {
			continue
		}
		seen[a] = true
		cmd := exec.Command("go", "list", "-e", "-f", "{{with .Error}}{{.Err}}{{end}}", a.path)
		cmd.Dir = a.dir
		out, err := cmd.Output()
		msg := strings.TrimSpace(string(out))
		if err == nil && msg == "" {
			continue
		}
		if msg == "" {
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "resilint: the fixes import %s, which does not build yet: %s\n", a.path, msg)
		fmt.Fprintf(stderr, "resilint: run go mod tidy (or go get %s); before resilint is published, first point your module at a checkout's runtime: see \"From a local checkout\" in docs/integrations.md\n", runtimeModule)
		return // once is enough: the remedy is the same for every package
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

type fileEditsOf struct {
	tf    *token.File
	edits []edit
}

// fileEdits converts the first suggested fix of f into byte edits by file.
func fileEdits(f *finding) (map[string]*fileEditsOf, error) {
	fset := f.fset()
	out := make(map[string]*fileEditsOf)
	for _, e := range f.diag.SuggestedFixes[0].TextEdits {
		tf := fset.File(e.Pos)
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		if tf == nil || end < e.Pos || int(end)-tf.Base() > tf.Size() {
			return nil, fmt.Errorf("its fix has an edit outside the file")
		}
		name := tf.Name()
		es := out[name]
		if es == nil {
			es = &fileEditsOf{tf: tf}
			out[name] = es
		}
		es.edits = append(es.edits, edit{tf.Offset(e.Pos), tf.Offset(end), string(e.NewText)})
	}
	for name, es := range out {
		if _, ok := overlapping(es.edits, es.edits); !ok {
			return nil, fmt.Errorf("its fix has overlapping edits in %s", name)
		}
	}
	return out, nil
}

// conflict reports whether the edits can join those already taken; if
// not, it returns the file where they collide.
func conflict(files map[string]*fileFix, edits map[string]*fileEditsOf) (string, bool) {
	for name, es := range edits {
		if ff := files[name]; ff != nil {
			if _, ok := overlapping(ff.edits, es.edits); !ok {
				return name, false
			}
		}
	}
	return "", true
}

// overlapping reports whether the edits of a and b can be made together:
// no two distinct edits replace overlapping ranges, and no insertion falls
// strictly inside a replaced range. Insertions at the same offset are
// made in order.
func overlapping(a, b []edit) (edit, bool) {
	for i, x := range a {
		for j, y := range b {
			if &a[0] == &b[0] && i >= j {
				continue // the same list: each pair once
			}
			if x == y {
				continue
			}
			if x.start < y.end && y.start < x.end {
				return x, false
			}
			if x.start == x.end && y.start < x.start && x.start < y.end || y.start == y.end && x.start < y.start && y.start < x.end {
				return x, false
			}
		}
	}
	return edit{}, true
}

// apply makes the edits on src. Edits at the same offset keep their order.
func apply(src []byte, edits []edit) []byte {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(x, y edit) int {
		if x.start != y.start {
			return x.start - y.start
		}
		return x.end - y.end // an insertion before a replacement at the same place
	})
	var out bytes.Buffer
	last := 0
	for _, e := range es {
		if e.start < last {
			continue // a duplicate already made
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes()
}

// tidy removes the imports that the fixes made unused (used in old, no
// longer in src) and formats src.
func tidy(name string, old, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	used := qualifiers(file)
	var usedBefore map[string]bool
	if f, err := parser.ParseFile(token.NewFileSet(), name, old, parser.SkipObjectResolution); err == nil {
		usedBefore = qualifiers(f)
	}
	removed := false
	for _, spec := range slices.Clone(file.Imports) {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil || path == "C" {
			continue
		}
		name := importName(spec, path)
		if name == "_" || name == "." || used[name] || !usedBefore[name] {
			continue
		}
		local := ""
		if spec.Name != nil {
			local = spec.Name.Name
		}
		removed = astutil.DeleteNamedImport(fset, file, local, path) || removed
	}
	if !removed {
		return format.Source(src)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, err
	}
	return format.Source(buf.Bytes())
}

// qualifiers are the identifiers used as X in X.Sel.
func qualifiers(file *ast.File) map[string]bool {
	used := make(map[string]bool)
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	return used
}

// importName is the name an import declares: its local name, or the last
// element of its path without a major version suffix. A package whose name
// differs from its path is never removed: its guessed name was not used
// before the fixes either.
func importName(spec *ast.ImportSpec, path string) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	if strings.ContainsAny(last, ".-") {
		return "_" // cannot tell the package's name: keep the import
	}
	return last
}

func writeFile(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return os.WriteFile(name, data, mode)
}
