package suppress

import (
	_ "embed"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

//go:embed doc.go
var doc string

// unused is the -unused flag of every Checker (-ignorecheck.unused; the
// resilint command also spells it -unused-ignores). Wrapped analyzers read
// it after flags are parsed.
var unused bool

// Checker returns the ignorecheck analyzer, which reports directives that
// are malformed or name a check not in known. Its flag -unused switches on
// the reports of directives that silence nothing, which the analyzers made
// by [Wrap] emit.
func Checker(known []string) *analysis.Analyzer {
	known = slices.Clone(known)
	a := &analysis.Analyzer{
		Name: Name,
		Doc:  analysisutil.MustExtractDoc(doc, Name),
		URL:  "https://github.com/resilint/resilint/blob/main/docs/integrations.md#suppressing-a-finding",
		Run: func(pass *analysis.Pass) (any, error) {
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
					}
				}
			}
			return nil, nil
		},
	}
	a.Flags.BoolVar(&unused, "unused", unused, "report //resilint:ignore directives that silence nothing (the resilint command also accepts -unused-ignores)")
	return a
}
