package suppress

import (
	_ "embed"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

//go:embed doc.go
var doc string

// Checker returns the ignorecheck analyzer, which reports directives that
// are malformed or name a check not in checks, the analyzers made by
// [Wrap]. With its flag -unused (the resilint command also spells it
// -unused-ignores) it also reports, under its own name and the category
// "unused", each check a directive names that the directive silenced
// nothing of: it requires the checks, and reads which directives silenced
// something from their [Silenced] results.
//
// A driver that copies the checks (golangci-lint's plugin does) must make
// ignorecheck's Requires point at the copies it runs.
func Checker(checks []*analysis.Analyzer) *analysis.Analyzer {
	var known []string
	for _, c := range checks {
		known = append(known, c.Name)
	}
	unused := new(bool)
	a := &analysis.Analyzer{
		Name:     Name,
		Doc:      analysisutil.MustExtractDoc(doc, Name),
		URL:      "https://github.com/resilint/resilint/blob/main/docs/integrations.md",
		Requires: slices.Clone(checks),
		Run: func(pass *analysis.Pass) (any, error) {
			used := make(map[string]map[token.Pos]bool) // check → directives that silenced some of its findings
			if *unused {
				for _, req := range pass.Analyzer.Requires {
					if s, ok := pass.ResultOf[req].(*Silenced); ok {
						m := make(map[token.Pos]bool)
						for _, p := range s.Used {
							m[p] = true
						}
						used[req.Name] = m
					}
				}
			}
			for _, d := range Parse(pass.Fset, pass.Files) {
				if !includeTests && inTestFile(pass.Fset, d.Pos) {
					continue
				}
				if d.Problem != "" {
					pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: "malformed", Message: d.Problem})
					continue
				}
				for _, c := range d.Checks {
					if !slices.Contains(known, c) {
						pass.Report(analysis.Diagnostic{
							Pos:      d.Pos,
							End:      d.End,
							Category: "unknown",
							Message:  "resilint:ignore directive names unknown check " + quote(c) + " (the checks are " + strings.Join(known, ", ") + ")",
						})
						continue
					}
					if m, ok := used[c]; ok && !m[d.Pos] {
						pass.Report(analysis.Diagnostic{
							Pos:      d.Pos,
							End:      d.End,
							Category: "unused",
							Message:  "resilint:ignore directive silences no " + c + " finding on this line or the next (remove " + c + " from it)",
						})
					}
				}
			}
			return nil, nil
		},
	}
	a.Flags.BoolVar(unused, "unused", false, "report //resilint:ignore directives that silence nothing (the resilint command also accepts -unused-ignores)")
	return a
}
