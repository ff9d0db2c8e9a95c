package backoff

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model/libconfig"
)

// reportConfigs reports the library retry settings that wait without
// jitter, leave a retry without a bound, or do not wait at all: one
// finding per position and category.
func reportConfigs(pass *analysis.Pass, settings []*libconfig.Setting) {
	type key struct {
		pos token.Pos
		cat string
	}
	seen := map[key]bool{}
	for _, s := range settings {
		cat, what := ConfigVerdict(s)
		if cat == "" || cat == "no-jitter" && (shortConstant(pass, s) || s.Retry != nil && s.Retry.Specific) {
			// A settle pause; or an operation that goes round only on
			// failures of its own making (model.Retry.Specific: every
			// failure of the dependency ends it), which clients do not
			// meet together: no waves for jitter to break.
			continue
		}
		pos, end := s.Pos, s.End
		if s.Knob == libconfig.Elapsed && s.Form == libconfig.Field {
			pos, end = s.Lit.Pos(), s.Lit.End() // the literal leaves the bound 0
		}
		if seen[key{pos, cat}] {
			continue
		}
		seen[key{pos, cat}] = true
		lib := s.Retry.Describe()
		var msg string
		switch cat {
		case "no-jitter":
			msg = fmt.Sprintf("%s waits without jitter (%s): clients that failed together retry together, in synchronized waves after every recovery", lib, what)
		case "no-bound":
			msg = fmt.Sprintf("%s has no bound (%s): it retries for as long as the dependency is down", lib, what)
		case "no-delay":
			msg = fmt.Sprintf("%s does not wait between attempts (%s): a failing dependency gets every retry at once, a retry storm", lib, what)
		}
		d := analysis.Diagnostic{Pos: pos, End: end, Category: cat, Message: msg}
		if fix := configFix(pass, s); fix != nil && cat == "no-jitter" {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
}

// shortConstant reports whether s is a constant backoff made with a
// pause under 100ms (NewConstantBackOff(20*time.Millisecond)): a settle
// delay, as in a hand-written loop (isShortPause).
func shortConstant(pass *analysis.Pass, s *libconfig.Setting) bool {
	if s.Knob != libconfig.Delay || s.Form != libconfig.Call || s.Val == nil || !s.Val.Fixed {
		return false
	}
	call, ok := s.Node.(*ast.CallExpr)
	return ok && s.Val.ValueArg < len(call.Args) && isShortPause(pass, call.Args[s.Val.ValueArg])
}

// ConfigVerdict is the backoff check's judgement of one library retry
// setting: its category ("no-jitter", "no-bound", "no-delay"; "" when
// the setting is fine) and what in the code makes it so, in words
// ("RandomizationFactor: 0", "retry.NewConstant without a jitter
// wrapper"). The storm simulator's adapter (retrysites) reads it too.
func ConfigVerdict(s *libconfig.Setting) (category, what string) {
	switch s.Knob {
	case libconfig.Delay:
		if s.Val == nil {
			switch {
			case s.Own == nil:
			case s.Form == libconfig.Field || s.Form == libconfig.Write:
				return "no-jitter", s.Field + ": a function whose delays have no random part"
			case s.Form == libconfig.Call && s.Row != nil: // WithBackoff(func...)
				return "no-jitter", s.Row.Name + ": a function whose delays have no random part"
			}
			return "", ""
		}
		if s.Val.Jitter == catalog.JitterZero {
			return "no-delay", s.Val.Name
		}
		if s.Val.Jitter != catalog.JitterNone || s.Jittered {
			return "", ""
		}
		switch s.Form {
		case libconfig.Implicit:
			if s.Val.Role == catalog.Retry {
				return "no-jitter", s.Val.Lib // retry.Constant
			}
			return "no-jitter", "the default client's " + s.Val.Name
		case libconfig.Absent:
			unless := ""
			if s.Unless != nil {
				unless = " when " + types.ExprString(s.Unless) + " is nil"
			}
			if s.Lit != nil {
				return "no-jitter", "a client without " + s.Field + " (" + s.Val.Name + ")" + unless
			}
			return "no-jitter", "a client left on " + s.Val.Name + unless
		case libconfig.Value:
			_, with := splitJitterFix(s.Val.JitterFix)
			return "no-jitter", s.Row.Name + "(" + s.Val.Name + ") without " + with
		case libconfig.Field, libconfig.Write:
			if s.Via != nil {
				return "no-jitter", s.Field + ": " + s.Via.Name() + ", which falls back to " + s.Val.Name
			}
			return "no-jitter", s.Field + ": " + s.Val.Name
		case libconfig.Call:
			if s.Val.Path == catalog.SethRetry {
				return "no-jitter", qualified(s.Qual, s.Val.Name) + " without a jitter wrapper"
			}
			return "no-jitter", qualified(s.Qual, s.Val.Name)
		}
	case libconfig.Jitter:
		switch s.Form {
		case libconfig.Field, libconfig.Write:
			if s.Val != nil {
				if s.Val.Jitter == catalog.JitterNone {
					return "no-jitter", s.Field + ": " + s.Val.Name
				}
				return "", ""
			}
			if !s.Zero {
				return "", ""
			}
			if s.Form == libconfig.Write {
				return "no-jitter", s.Field + " = 0"
			}
			return "no-jitter", s.Field + ": 0"
		case libconfig.Absent:
			if s.Row == nil {
				return "", ""
			}
			if isCenkalti(s.Row.Path) {
				return "no-jitter", "an " + s.Row.Recv + " without " + s.Field
			}
			return "no-jitter", "a " + qualified(s.Qual, s.Row.Recv) + " without " + s.Field
		case libconfig.Call:
			if s.Zero {
				return "no-jitter", s.Row.Name + "(0)"
			}
		}
	case libconfig.Elapsed:
		if s.AttemptBound || s.ContextBound {
			return "", ""
		}
		switch s.Form {
		case libconfig.Call:
			if s.Zero {
				return "no-bound", s.Row.Name + "(0) without " + attemptOption(s.Row.Path)
			}
		case libconfig.Write:
			if s.Zero {
				return "no-bound", s.Field + " = 0 without " + attemptOption(s.Row.Path)
			}
		case libconfig.Field, libconfig.Absent:
			if s.Lit != nil {
				if s.Form == libconfig.Absent || s.Zero {
					return "no-bound", "an " + s.Row.Recv + " with " + s.Field + " 0 and no " + attemptOption(s.Row.Path)
				}
				return "", ""
			}
			if s.Val != nil {
				// A backoff with no time bound of its own.
				return "no-bound", "a " + strings.TrimPrefix(s.Val.Name, "New") + " without " + attemptOption(s.Val.Path)
			}
		}
	case libconfig.Attempts:
		switch {
		case s.Row.Role == catalog.Unbounded:
			return "no-bound", s.Row.Name + "()"
		case s.Zero && s.Row.ZeroMeans == -1:
			return "no-bound", s.Row.Name + "(0)"
		}
	}
	return "", ""
}

func isCenkalti(path string) bool {
	return catalog.ClassicCenkalti(path) || path == catalog.CenkaltiV5
}

// attemptOption names the option that bounds the attempts of a
// cenkalti/backoff retry (its catalog AttemptOption row).
func attemptOption(path string) string {
	if row := catalog.AttemptOptionOf(path); row != nil {
		return row.Name
	}
	return "WithMaxRetries"
}

// splitJitterFix splits a JitterFix "CombineDelay+RandomDelay" into the
// combining function and the jittered delay.
func splitJitterFix(fix string) (combine, with string) {
	combine, with, _ = strings.Cut(fix, "+")
	return combine, with
}

// configFix is the fix for a no-jitter setting: set the jitter the
// catalog suggests, or wrap or replace the delay with a jittered one.
func configFix(pass *analysis.Pass, s *libconfig.Setting) *analysis.SuggestedFix {
	replace := func(msg string, e ast.Expr, text string) *analysis.SuggestedFix {
		return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(text)}}}
	}
	insertField := func(msg string, lit *ast.CompositeLit, field, value string) *analysis.SuggestedFix {
		return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: lit.Lbrace + 1, End: lit.Lbrace + 1, NewText: []byte(field + ": " + value + ", ")}}}
	}
	if s.Via != nil || s.Own != nil {
		return nil // the jitter belongs in the function (on its fallback path)
	}
	q := s.Qual
	switch s.Knob {
	case libconfig.Delay:
		switch s.Form {
		case libconfig.Value:
			combine, with := splitJitterFix(s.Val.JitterFix)
			if q == "" || with == "" {
				return nil
			}
			return replace("Combine the delay with "+q+"."+with, s.Value, fmt.Sprintf("%s.%s(%s.%s, %s.%s)", q, combine, q, s.Val.Name, q, with))
		case libconfig.Call:
			if q == "" || s.Val.JitterFix == "" {
				return nil
			}
			if s.Val.FixValue != "" {
				// BackoffLinear(d): its jittered sibling takes the
				// jitter fraction after the same arguments.
				return siblingFix(s, q)
			}
			if s.Val.Path != catalog.SethRetry {
				return nil
			}
			return &analysis.SuggestedFix{Message: "Wrap the backoff in " + q + "." + s.Val.JitterFix, TextEdits: []analysis.TextEdit{
				{Pos: s.Node.Pos(), End: s.Node.Pos(), NewText: []byte(q + "." + s.Val.JitterFix + "(")},
				{Pos: s.Node.End(), End: s.Node.End(), NewText: []byte(")")},
			}}
		case libconfig.Absent:
			if s.Row == nil {
				return nil
			}
			if s.Lit != nil {
				return insertField("Use "+q+"."+s.Row.FixValue, s.Lit, s.Field, q+"."+s.Row.FixValue)
			}
			if call, ok := s.Node.(*ast.CallExpr); ok {
				return newClientFix(pass, call, q, s.Field, s.Row.FixValue)
			}
		case libconfig.Field, libconfig.Write:
			if q == "" || s.Val.JitterFix == "" {
				return nil
			}
			return replace("Use "+q+"."+s.Val.JitterFix, s.Value, q+"."+s.Val.JitterFix)
		}
	case libconfig.Jitter:
		switch {
		case s.Val != nil:
			if q == "" || s.Val.JitterFix == "" {
				return nil
			}
			return replace("Use "+q+"."+s.Val.JitterFix, s.Value, q+"."+s.Val.JitterFix)
		case s.Row == nil || s.Row.FixValue == "":
			return nil
		case s.Form == libconfig.Absent:
			return insertField("Set "+s.Field+" to "+s.Row.FixValue, s.Lit, s.Field, s.Row.FixValue)
		case s.Form == libconfig.Call:
			return replace("Set the randomization factor to "+s.Row.FixValue, s.Value, s.Row.FixValue)
		default:
			return replace("Set "+s.Field+" to "+s.Row.FixValue, s.Value, s.Row.FixValue)
		}
	}
	return nil
}

// siblingFix replaces a delay function of no random part with its
// jittered sibling, given the jitter fraction FixValue after the same
// arguments: `grpc_retry.BackoffLinear(d)` becomes
// `grpc_retry.BackoffLinearWithJitter(d, 0.5)`.
func siblingFix(s *libconfig.Setting, q string) *analysis.SuggestedFix {
	call, ok := s.Node.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return &analysis.SuggestedFix{
		Message: fmt.Sprintf("Use %s.%s with a jitter fraction of %s", q, s.Val.JitterFix, s.Val.FixValue),
		TextEdits: []analysis.TextEdit{
			{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte(s.Val.JitterFix)},
			{Pos: call.Args[len(call.Args)-1].End(), End: call.Args[len(call.Args)-1].End(), NewText: []byte(", " + s.Val.FixValue)},
		},
	}
}

// newClientFix inserts `c.Backoff = retryablehttp.LinearJitterBackoff`
// after `c := retryablehttp.NewClient()`.
func newClientFix(pass *analysis.Pass, call *ast.CallExpr, q, field, value string) *analysis.SuggestedFix {
	for _, f := range pass.Files {
		if !(f.FileStart <= call.Pos() && call.Pos() < f.FileEnd) {
			continue
		}
		var fix *analysis.SuggestedFix
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || fix != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != call {
				return fix == nil
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return false
			}
			col := pass.Fset.Position(as.Pos()).Column
			indent := strings.Repeat("\t", max(col-1, 0))
			fix = &analysis.SuggestedFix{Message: "Use " + q + "." + value, TextEdits: []analysis.TextEdit{{
				Pos: as.End(), End: as.End(), NewText: []byte("\n" + indent + id.Name + "." + field + " = " + q + "." + value),
			}}}
			return false
		})
		return fix
	}
	return nil
}

// qualified is name as the package being analyzed writes it: with the
// library's package name, or bare inside the library itself.
func qualified(qual, name string) string {
	if qual == "" {
		return name
	}
	return qual + "." + name
}
