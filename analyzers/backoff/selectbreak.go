package backoff

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// selectBreakDiagnostic is the no-bound finding of a loop whose only stop
// is a `case <-ctx.Done(): break`: the break leaves the select, and once
// the context is done every attempt fails at once and the loop goes round
// for ever.
func selectBreakDiagnostic(pass *analysis.Pass, r *model.Retry) analysis.Diagnostic {
	d := analysis.Diagnostic{
		Pos:      r.Pos,
		End:      r.End,
		Category: "no-bound",
		Message: fmt.Sprintf("%s has no bound: the break in its case on ctx.Done() leaves only the select, not the loop, so once ctx is done it goes round for ever; break to a label on the loop, or return",
			r.Describe()),
		Related: []analysis.RelatedInformation{{Pos: r.SelectBreak.Pos(), End: r.SelectBreak.End(), Message: "this break leaves the select only"}},
	}
	if fix := selectBreakFix(pass, r); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	return d
}

// selectBreakFix makes the case's break leave the loop. A loop that is
// the function's way out (`for { ... }`, nothing breaks it) cannot be
// broken out of without a return after it: the case returns the
// context's error instead, with the zero value of every other result. A
// loop with code after it breaks to its label (a new one no other
// statement of the function uses), on to that code, as the break meant.
func selectBreakFix(pass *analysis.Pass, r *model.Retry) *analysis.SuggestedFix {
	if _, ok := r.Node.(*ast.ForStmt); !ok {
		if _, ok := r.Node.(*ast.RangeStmt); !ok {
			return nil
		}
	}
	br := r.SelectBreak
	sig := analysisutil.EnclosingSig(pass, r.Node.Pos())
	if sig == nil {
		return nil
	}
	if exits(r.Node) && sig.Results().Len() > 0 {
		file := analysisutil.FileOf(pass, br.Pos())
		sel, ok := analysisutil.Unparen(r.SelectDone.Fun).(*ast.SelectorExpr)
		if file == nil || !ok {
			return nil
		}
		ret, ok := analysisutil.ReturnError(pass, file, sig, types.ExprString(sel.X)+".Err()")
		if !ok {
			return nil
		}
		return &analysis.SuggestedFix{
			Message:   "return the context's error from the case",
			TextEdits: []analysis.TextEdit{{Pos: br.Pos(), End: br.End(), NewText: []byte(ret)}},
		}
	}
	label := r.Label
	var edits []analysis.TextEdit
	if label == "" {
		used := labelsAround(pass, r.Node)
		label = "retry"
		for i := 2; used[label]; i++ {
			label = "retry" + strconv.Itoa(i)
		}
		edits = append(edits, analysis.TextEdit{Pos: r.Node.Pos(), End: r.Node.Pos(), NewText: []byte(label + ":\n")})
	}
	edits = append(edits, analysis.TextEdit{Pos: br.End(), End: br.End(), NewText: []byte(" " + label)})
	return &analysis.SuggestedFix{Message: "break out of the loop (label " + label + ")", TextEdits: edits}
}

// exits reports whether loop is a terminating statement: a for with no
// condition that no break leaves.
func exits(loop ast.Node) bool {
	fs, ok := loop.(*ast.ForStmt)
	if !ok || fs.Cond != nil {
		return false
	}
	inside := map[string]bool{} // labels of statements in the loop
	ast.Inspect(fs.Body, func(x ast.Node) bool {
		if l, ok := x.(*ast.LabeledStmt); ok {
			inside[l.Label.Name] = true
		}
		_, lit := x.(*ast.FuncLit)
		return !lit
	})
	broken := false
	var walk func(n ast.Node, nested bool) bool
	walk = func(n ast.Node, nested bool) bool {
		ast.Inspect(n, func(x ast.Node) bool {
			switch s := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if x != n {
					walk(x, true)
					return false
				}
			case *ast.BranchStmt:
				// A labeled break leaves the loop when the label is the
				// loop's, or one outside it.
				if s.Tok == token.BREAK && (s.Label != nil && !inside[s.Label.Name] || s.Label == nil && !nested) {
					broken = true
				}
			}
			return !broken
		})
		return broken
	}
	return !walk(fs.Body, false)
}

// labelsAround returns the labels of the innermost function around n
// (labels are scoped to a function body, closures have their own).
func labelsAround(pass *analysis.Pass, n ast.Node) map[string]bool {
	var body *ast.BlockStmt
	for _, f := range pass.Files {
		if f.Pos() > n.Pos() || n.End() > f.End() {
			continue
		}
		ast.Inspect(f, func(x ast.Node) bool {
			if x == nil || x.Pos() > n.Pos() || n.End() > x.End() {
				return false
			}
			switch fn := x.(type) {
			case *ast.FuncDecl:
				body = fn.Body
			case *ast.FuncLit:
				body = fn.Body
			}
			return true
		})
	}
	used := map[string]bool{}
	if body == nil {
		return used
	}
	ast.Inspect(body, func(x ast.Node) bool {
		switch s := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			used[s.Label.Name] = true
		}
		return true
	})
	return used
}
