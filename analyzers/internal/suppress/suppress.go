package suppress

import (
	_ "embed"
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Prefix starts every suppression directive.
const Prefix = "//resilint:ignore"

// Name is the name of the analyzer that reports malformed directives.
const Name = "ignorecheck"

// A Directive is one well-formed or malformed //resilint:ignore comment.
type Directive struct {
	Pos, End token.Pos // the comment
	File     string    // file name, unadjusted by //line directives
	Line     int       // line of the comment
	Checks   []string  // the names, in order; nil when none
	Reason   string    // "" when missing
	Problem  string    // why the directive is malformed, or ""
}

// Names reports whether the well-formed directive d names the check name.
func (d *Directive) Names(name string) bool {
	if d.Problem != "" {
		return false
	}
	for _, c := range d.Checks {
		if c == name {
			return true
		}
	}
	return false
}

// Parse returns the directives in the comments of files, in source order.
// It never fails: malformed directives carry a Problem.
func Parse(fset *token.FileSet, files []*ast.File) []*Directive {
	var dirs []*Directive
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if d := parseComment(fset, c); d != nil {
					dirs = append(dirs, d)
				}
			}
		}
	}
	return dirs
}

func parseComment(fset *token.FileSet, c *ast.Comment) *Directive {
	rest, ok := strings.CutPrefix(c.Text, Prefix)
	if !ok {
		return nil
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil // //resilint:ignorexyz is some other word
	}
	posn := fset.PositionFor(c.Slash, false)
	d := &Directive{Pos: c.Slash, End: c.End(), File: posn.Filename, Line: posn.Line}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		d.Problem = "resilint:ignore directive names no check and gives no reason (want //resilint:ignore <check>[,<check>] <reason>)"
		return d
	}
	for _, name := range strings.Split(fields[0], ",") {
		if name == "" {
			d.Problem = "resilint:ignore directive has an empty check name in " + quote(fields[0]) + " (separate names with single commas, no spaces)"
			return d
		}
		d.Checks = append(d.Checks, name)
	}
	d.Reason = strings.Join(fields[1:], " ")
	if d.Reason == "" {
		d.Problem = "resilint:ignore directive gives no reason (write why the finding does not apply after the check names)"
	}
	return d
}

func quote(s string) string { return "\"" + s + "\"" }

// index finds the directives that apply to a diagnostic's position.
type index struct {
	fset  *token.FileSet
	byKey map[lineKey][]*Directive
}

type lineKey struct {
	file string
	line int
}

// newIndex indexes the well-formed directives of dirs that name check, by
// every line they cover: their own and the next.
func newIndex(fset *token.FileSet, dirs []*Directive, check string) *index {
	ix := &index{fset: fset, byKey: make(map[lineKey][]*Directive)}
	for _, d := range dirs {
		if !d.Names(check) {
			continue
		}
		for _, line := range []int{d.Line, d.Line + 1} {
			k := lineKey{d.File, line}
			ix.byKey[k] = append(ix.byKey[k], d)
		}
	}
	return ix
}

// match returns the directive that silences a diagnostic at pos, or nil.
func (ix *index) match(pos token.Pos) *Directive {
	if len(ix.byKey) == 0 || !pos.IsValid() {
		return nil
	}
	posn := ix.fset.PositionFor(pos, false)
	if ds := ix.byKey[lineKey{posn.Filename, posn.Line}]; len(ds) > 0 {
		return ds[0]
	}
	return nil
}

// Silenced is the result of an analyzer made by [Wrap]: the result of
// the analyzer it wraps, and the directives naming it that silenced at
// least one of its diagnostics, by the position of their comment.
// ignorecheck reads it to report the directives that silenced nothing.
type Silenced struct {
	Result any         // the wrapped analyzer's result
	Used   []token.Pos // directives that silenced something
}

// Wrap returns a copy of a whose Run drops the diagnostics in _test.go
// files (unless [SetIncludeTests] switched them on), in generated files
// (see generatedFiles), and those silenced by
// a //resilint:ignore directive naming a.Name, and returns a *[Silenced]
// saying which directives did so.
//
// The copy shares a's flags (setting one sets the other), Requires and
// FactTypes; its ResultType is *Silenced, with a's result inside. a
// itself is not modified and still runs alone.
func Wrap(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	inner := a.Run
	name := a.Name
	w.ResultType = reflect.TypeFor[*Silenced]()
	w.Run = func(pass *analysis.Pass) (any, error) {
		ix := newIndex(pass.Fset, Parse(pass.Fset, pass.Files), name)
		generated := generatedFiles(pass)
		if len(ix.byKey) == 0 && includeTests && len(generated) == 0 {
			res, err := inner(pass)
			return &Silenced{Result: res}, err
		}
		report := pass.Report
		used := make(map[*Directive]bool)
		var spans *testSpans
		pass.Report = func(d analysis.Diagnostic) {
			if !includeTests && inTestCode(pass, d.Pos, &spans) {
				return
			}
			if generated[pass.Fset.File(d.Pos)] {
				return
			}
			if dir := ix.match(d.Pos); dir != nil {
				used[dir] = true
				return
			}
			report(d)
		}
		res, err := inner(pass)
		pass.Report = report
		out := &Silenced{Result: res}
		for d := range used {
			out.Used = append(out.Used, d.Pos)
		}
		return out, err
	}
	return &w
}

// generatedFiles returns the files of the pass that carry the standard
// header of generated code (`// Code generated ... DO NOT EDIT.`, see
// ast.IsGenerated). Their findings are never reported: the code is
// rewritten by its generator, where a fix has to go, and nobody reads
// or silences it by hand.
func generatedFiles(pass *analysis.Pass) map[*token.File]bool {
	var out map[*token.File]bool
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			if out == nil {
				out = map[*token.File]bool{}
			}
			out[pass.Fset.File(f.Pos())] = true
		}
	}
	return out
}
