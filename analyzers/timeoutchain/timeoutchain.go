package timeoutchain

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/timeouts"
)

//go:embed doc.go
var doc string

// Analyzer reports timeouts that outlive their deadline and contexts that
// drop it.
var Analyzer = &analysis.Analyzer{
	Name:     "timeoutchain",
	Doc:      analysisutil.MustExtractDoc(doc, "timeoutchain"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/timeoutchain.md",
	Requires: []*analysis.Analyzer{timeouts.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	t := pass.ResultOf[timeouts.Analyzer].(*timeouts.Timeouts)
	if t == nil {
		return nil, nil
	}
	// One inner timeout reached along several calls under the same outer
	// deadline is one finding, at the first call, with the others
	// related.
	type innerKey struct {
		site  string
		inner time.Duration
		outer token.Pos
	}
	groups := map[innerKey][]*timeouts.TimeoutFinding{}
	var order []innerKey
	for _, f := range t.Inner {
		if f.Via != nil && otherModule(pass, f.Via) {
			// Another module's cap for all its callers, which this
			// module cannot change: a caller that gives it less has
			// chosen that budget.
			continue
		}
		site := f.What
		if i := strings.LastIndex(site, " ("); i >= 0 && strings.HasSuffix(site, ")") {
			site = site[i:] // " (context.WithTimeout at inventory.go:26)"
		}
		k := innerKey{site, f.Inner, f.Outer.Pos}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	for _, k := range order {
		f := groups[k][0]
		related := []analysis.RelatedInformation{{Pos: f.Outer.Pos, Message: fmt.Sprintf("outer deadline: %s", f.Outer.D)}}
		for _, o := range groups[k][1:] {
			related = append(related, analysis.RelatedInformation{Pos: o.Pos, End: o.End, Message: "the same timeout, reached again: " + o.What})
		}
		d := analysis.Diagnostic{
			Pos: f.Pos, End: f.End, Category: "inner-timeout",
			Message: fmt.Sprintf("%s sets a %s timeout on a context that has at most %s left (set at %s): the %s never applies, the caller's deadline cuts the work first, so what is sized to it here (a slow but healthy call, the attempts and waits planned within it) fails with the caller's deadline instead; use a shorter timeout, or none and inherit the deadline",
				f.What, f.Inner, f.Outer.D, analysisutil.ShortPos(pass.Fset, f.Outer.Pos), f.Inner),
			Related: related,
		}
		if fix := inheritFix(pass, f); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
	for _, d := range t.Dropped {
		name := "context.Background()"
		if fn := analysisutil.Callee(pass.TypesInfo, d.Call); fn != nil && fn.Name() == "TODO" {
			name = "context.TODO()"
		}
		edit := analysis.TextEdit{Pos: d.Call.Pos(), End: d.Call.End(), NewText: []byte(d.InScope)}
		if st := selfAssign(pass, d); st != nil {
			// ctx = context.TODO(): using ctx leaves ctx = ctx; the
			// statement goes.
			edit = analysis.TextEdit{Pos: st.Pos(), End: st.End()}
		}
		pass.Report(analysis.Diagnostic{
			Pos: d.Call.Pos(), End: d.Call.End(), Category: "dropped-context",
			Message: fmt.Sprintf("%s drops the deadline and cancellation of %s: the call keeps running after the caller has given up; pass %s (or context.WithoutCancel(%s) for work that must outlive the request)", name, d.InScope, d.InScope, d.InScope),
			SuggestedFixes: []analysis.SuggestedFix{{
				Message:   "Use " + d.InScope,
				TextEdits: []analysis.TextEdit{edit},
			}},
		})
	}
	for _, d := range t.ContextLess {
		if d.Through != nil {
			// A function of another module given no context is an API
			// the code cannot change; one of its own can take one.
			// So is a chain that ends in another module's code.
			if fn := analysisutil.Callee(pass.TypesInfo, d.Call); fn == nil || otherModule(pass, fn) || otherModulePath(pass, d.Through.Pkg) {
				continue
			}
			name := analysisutil.Text(pass, d.Call.Fun)
			pass.Report(analysis.Diagnostic{
				Pos: d.Call.Pos(), End: d.Call.End(), Category: "dropped-context",
				Message: fmt.Sprintf("%s is given no context, and %s at %s takes none, so the deadline and cancellation of %s never reach it: the work keeps running after the caller has given up; give %s a context and pass %s", name, d.Through.Work, d.Through.At, d.InScope, name, d.InScope),
			})
			continue
		}
		pass.Report(contextLessDiag(pass, d))
	}
	for _, d := range t.Discarded {
		call := analysisutil.Text(pass, d.Call)
		diag := analysis.Diagnostic{
			Pos: d.Call.Pos(), End: d.Call.End(), Category: "dropped-context",
			Message: fmt.Sprintf("the result of %s is discarded: it is a new value carrying %s, and the one that is used keeps the context it was made with, so %s's deadline and cancellation never reach the work; use the result",
				call, analysisutil.Text(pass, d.Ctx), analysisutil.Text(pass, d.Ctx)),
		}
		if recv := reassignable(pass, d.Call); recv != "" {
			diag.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Assign the result to " + recv,
				TextEdits: []analysis.TextEdit{{Pos: d.Stmt.Pos(), End: d.Stmt.Pos(), NewText: []byte(recv + " = ")}},
			}}
		}
		pass.Report(diag)
	}
	// One behaviour, one finding: the waits of one retry that ignore its
	// context are reported once, at the first, with the others as related
	// locations and one fix for all.
	sleeps := map[*model.Retry]*analysis.Diagnostic{}
	var sleepOrder []*analysis.Diagnostic
	ordered := append([]*timeouts.CancelDelay(nil), t.Sleeps...)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].Delay.Call.Pos() < ordered[j].Delay.Call.Pos() })
	for _, s := range ordered {
		if s.CheckedEachPass && s.Pause {
			// The loop leaves at its next check of the context: after a
			// cancellation the pause under way (a constant, a configured
			// interval) ends and no attempt follows. It does not "sleep
			// on and try again".
			continue
		}
		if s.RefusedOnly && s.Pause {
			// It goes round only on a refusal, and its attempt is given
			// the context: after a cancellation the pause under way ends
			// and the next attempt fails at once, with no refusal to go
			// round on. The caller waits one pause at most.
			continue
		}
		fix := sleepFix(pass, s)
		if first := sleeps[s.Retry]; first != nil {
			first.Related = append(first.Related, analysis.RelatedInformation{Pos: s.Delay.Call.Pos(), End: s.Delay.Call.End(), Message: "another wait of this retry that does not watch " + s.Ctx})
			if len(first.SuggestedFixes) == 1 && fix != nil {
				if edits, ok := joinEdits(first.SuggestedFixes[0].TextEdits, fix.TextEdits); ok {
					first.SuggestedFixes[0].TextEdits = edits
				}
			}
			continue
		}
		msg := fmt.Sprintf("the %s waits without watching %s: when the caller gives up, the retry sleeps on and tries again; wait with runtime/retry's Sleep(ctx, d) or a select on ctx.Done()", s.Retry.Describe(), s.Ctx)
		if s.Retry.BlindWaits {
			msg = fmt.Sprintf("%s takes no context and waits between its attempts without watching one: when the caller gives up, it sleeps on and tries again although %s is done; give it %s and wait with runtime/retry's Sleep(ctx, d) or a select on ctx.Done()", s.Retry.Describe(), s.Ctx, s.Ctx)
		}
		d := &analysis.Diagnostic{
			Pos: s.Delay.Call.Pos(), End: s.Delay.Call.End(), Category: "sleep-ignores-cancel",
			Message: msg,
		}
		if fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		sleeps[s.Retry] = d
		sleepOrder = append(sleepOrder, d)
	}
	for _, d := range sleepOrder {
		pass.Report(*d)
	}
	for _, u := range t.Unbound {
		fix, bind := unboundFix(pass, u)
		d := analysis.Diagnostic{
			Pos: u.Retry.Pos, End: u.Retry.End, Category: "sleep-ignores-cancel",
			Message: fmt.Sprintf("%s is bound to no context: it runs under context.Background, so when %s is done it still waits out its backoff and tries again, until its own limit ends it; bind it to %s with %s",
				u.Retry.Describe(), u.Ctx, u.Ctx, bind),
		}
		if fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
	for _, f := range t.Fits {
		total := f.PerAttempt*time.Duration(f.Retry.Attempts) + f.Delays
		delays := ""
		if f.Delays > 0 {
			delays = fmt.Sprintf(" + %s of waits", f.Delays)
		}
		pass.Report(analysis.Diagnostic{
			Pos: f.Retry.Pos, End: f.Retry.End, Category: "attempts-exceed-deadline",
			Message: fmt.Sprintf("%d attempts × %s per attempt%s = %s do not fit in the %s deadline set at %s: the last attempts are cut short or never run; shorten the per-attempt timeout or make fewer attempts",
				f.Retry.Attempts, f.PerAttempt, delays, total, f.Outer.D, analysisutil.ShortPos(pass.Fset, f.Outer.Pos)),
			Related: []analysis.RelatedInformation{{Pos: f.Outer.Pos, Message: fmt.Sprintf("deadline: %s", f.Outer.D)}},
		})
	}
	for _, n := range t.NoTimeout {
		pass.Report(analysis.Diagnostic{
			Pos: n.Send.Pos, End: n.Send.End, Category: "no-timeout",
			Message: fmt.Sprintf("%s in a %s has no timeout: the client has no Timeout and the request no deadline, so one hung connection stalls every attempt; set http.Client.Timeout or send with a context that has a deadline", n.Send.Lib, n.Retry.Describe()),
		})
	}
	return nil, nil
}

// inheritFix turns context.WithTimeout(ctx, d) or WithDeadline(ctx, t),
// set in this function on a context with less time left, into
// context.WithCancel(ctx): the context inherits the caller's deadline and
// the results keep their types. Not when the dropped argument holds the
// file's only use of an import (the import would become unused).
func inheritFix(pass *analysis.Pass, f *timeouts.TimeoutFinding) *analysis.SuggestedFix {
	file := analysisutil.FileOf(pass, f.Pos)
	if file == nil {
		return nil
	}
	call := analysisutil.CallAt(file, f.Pos)
	if call == nil || call.End() != f.End || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return nil
	}
	fn := analysisutil.Callee(pass.TypesInfo, call)
	if !analysisutil.IsFunc(fn, "context", "WithTimeout") && !analysisutil.IsFunc(fn, "context", "WithDeadline") {
		return nil
	}
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	arg := call.Args[1]
	for id, obj := range pass.TypesInfo.Uses {
		pn, ok := obj.(*types.PkgName)
		if !ok || !(arg.Pos() <= id.Pos() && id.Pos() < arg.End()) {
			continue
		}
		if !usedOutside(pass, file, pn, arg) {
			return nil
		}
	}
	return &analysis.SuggestedFix{
		Message: "Use context.WithCancel: the context's deadline is already shorter, inherit it",
		TextEdits: []analysis.TextEdit{
			{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("WithCancel")},
			{Pos: call.Args[0].End(), End: arg.End(), NewText: nil},
		},
	}
}

// usedOutside reports whether file refers to the imported package pn
// outside the expression e.
func usedOutside(pass *analysis.Pass, file *ast.File, pn *types.PkgName, e ast.Expr) bool {
	for id, obj := range pass.TypesInfo.Uses {
		if obj == pn && file.Pos() <= id.Pos() && id.Pos() < file.End() && !(e.Pos() <= id.Pos() && id.Pos() < e.End()) {
			return true
		}
	}
	return false
}

// sleepFix replaces `time.Sleep(d)` with a wait that returns the
// context's error, in a function that returns only an error.
func sleepFix(pass *analysis.Pass, s *timeouts.CancelDelay) *analysis.SuggestedFix {
	fn := analysisutil.Callee(pass.TypesInfo, s.Delay.Call)
	if !s.Returns || !analysisutil.IsFunc(fn, "time", "Sleep") {
		return nil
	}
	st, indent := analysisutil.EnclosingStmt(pass, s.Delay.Call)
	es, ok := st.(*ast.ExprStmt)
	if !ok || es.X != ast.Expr(s.Delay.Call) {
		return nil
	}
	file := analysisutil.FileOf(pass, es.Pos())
	name, edits := analysisutil.AddImport(pass, file, catalog.ResilintRetry, "retry")
	// Edit around the duration, not over it, so that other fixes of the
	// duration (the backoff check's jitter) still apply.
	edits = append(edits,
		analysis.TextEdit{Pos: es.Pos(), End: s.Delay.Dur.Pos(), NewText: []byte(fmt.Sprintf("if err := %s.Sleep(%s, ", name, s.Ctx))},
		analysis.TextEdit{Pos: s.Delay.Dur.End(), End: es.End(), NewText: []byte(fmt.Sprintf("); err != nil {\n%s\treturn err\n%s}", indent, indent))})
	return &analysis.SuggestedFix{Message: "Wait with retry.Sleep, which returns when the context is done", TextEdits: edits}
}

// unboundFix binds an unbound library retry to the context in scope
// with its library's RetryContext option: it wraps the backoff argument
// (backoff.WithContext(b, ctx)) or adds one more option
// (retry.Context(ctx)); not after a spread argument. bind is the
// option's call as the message shows it.
func unboundFix(pass *analysis.Pass, u *timeouts.UnboundRetry) (fix *analysis.SuggestedFix, bind string) {
	file := analysisutil.FileOf(pass, u.Call.Pos())
	// The file imports the library already: the retry is its call.
	pkg := u.Bind.Name
	if fn := analysisutil.Callee(pass.TypesInfo, u.Call); fn != nil && fn.Pkg() != nil {
		pkg = fn.Pkg().Name()
	}
	if file == nil {
		return nil, fmt.Sprintf("%s.%s", pkg, u.Bind.Name)
	}
	name, edits := analysisutil.AddImport(pass, file, u.Bind.Path, pkg)
	if u.Wrap != nil {
		bind = fmt.Sprintf("%s.%s(%s, %s)", name, u.Bind.Name, analysisutil.Text(pass, u.Wrap), u.Ctx)
		// One edit over the whole argument: another fix that wraps it
		// (a retry bound) conflicts instead of interleaving.
		edits = append(edits, analysis.TextEdit{Pos: u.Wrap.Pos(), End: u.Wrap.End(), NewText: []byte(bind)})
	} else {
		bind = fmt.Sprintf("%s.%s(%s)", name, u.Bind.Name, u.Ctx)
		if u.Call.Ellipsis.IsValid() {
			return nil, bind
		}
		// After the last argument, so that a trailing comma stays one.
		last := u.Call.Args[len(u.Call.Args)-1].End()
		edits = append(edits, analysis.TextEdit{Pos: last, End: last, NewText: []byte(", " + bind)})
	}
	return &analysis.SuggestedFix{Message: "Bind the retry to " + u.Ctx, TextEdits: edits}, bind
}

// joinEdits returns a's edits followed by those of b that a lacks, or false
// if an edit of b overlaps one of a without being the same (identical
// edits, such as one import added twice, are kept once).
func joinEdits(a, b []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	out := append([]analysis.TextEdit(nil), a...)
next:
	for _, e := range b {
		for _, x := range a {
			if x.Pos == e.Pos && x.End == e.End && string(x.NewText) == string(e.NewText) {
				continue next
			}
			if e.Pos < x.End && x.Pos < e.End || e.Pos == x.Pos && (e.Pos == e.End || x.Pos == x.End) {
				return nil, false
			}
		}
		out = append(out, e)
	}
	return out, true
}

// reassignable returns the text of the receiver of a discarded carrier
// method call (`r.req.WithContext(ctx)`) when the result can take its
// place: the receiver is a variable or a field reached through
// variables, and the result has its type. Otherwise "".
func reassignable(pass *analysis.Pass, call *ast.CallExpr) string {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || pass.TypesInfo.Selections[sel] == nil {
		return ""
	}
	recvT, resT := pass.TypesInfo.TypeOf(sel.X), pass.TypesInfo.TypeOf(call)
	if recvT == nil || resT == nil || !types.Identical(recvT, resT) {
		return ""
	}
	for e := analysisutil.Unparen(sel.X); ; {
		switch x := e.(type) {
		case *ast.Ident:
			if _, isVar := pass.TypesInfo.Uses[x].(*types.Var); !isVar {
				return ""
			}
			return analysisutil.Text(pass, sel.X)
		case *ast.SelectorExpr:
			if s := pass.TypesInfo.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				return ""
			}
			e = analysisutil.Unparen(x.X)
		default:
			return ""
		}
	}
}

// otherModule reports whether fn belongs to a module other than the one
// analyzed. Without module information (GOPATH mode) every package
// counts as the module's.
func otherModule(pass *analysis.Pass, fn *types.Func) bool {
	return fn.Pkg() != nil && otherModulePath(pass, fn.Pkg().Path())
}

// otherModulePath reports whether the package path p belongs to a module
// other than the one analyzed (false without module information).
func otherModulePath(pass *analysis.Pass, p string) bool {
	mod := pass.Module
	if mod == nil || mod.Path == "" {
		return false
	}
	return p != mod.Path && !strings.HasPrefix(p, mod.Path+"/")
}

// contextLessDiag words a call that takes no context where one is in
// scope, with a fix that calls the variant taking it when that variant
// is a sibling with the same arguments after the context.
func contextLessDiag(pass *analysis.Pass, d *timeouts.ContextLess) analysis.Diagnostic {
	name := analysisutil.Text(pass, d.Call.Fun)
	var use string
	if fn := analysisutil.Callee(pass.TypesInfo, d.Call); fn != nil {
		if row := catalog.LookupContext(analysisutil.PkgPath(fn), analysisutil.RecvTypeName(fn), fn.Name()); row != nil {
			use = row.CtxUse
		}
	}
	if d.WithCtx != "" {
		rest := ""
		if len(d.Call.Args) > 0 {
			rest = ", ..."
		}
		use = d.WithCtx + "(" + d.InScope + rest + ")"
		if sel, ok := analysisutil.Unparen(d.Call.Fun).(*ast.SelectorExpr); ok {
			use = analysisutil.Text(pass, sel.X) + "." + use
		}
	}
	diag := analysis.Diagnostic{
		Pos: d.Call.Pos(), End: d.Call.End(), Category: "dropped-context",
		Message: fmt.Sprintf("%s takes no context, so the deadline and cancellation of %s never reach it: the work keeps running after the caller has given up; use %s", name, d.InScope, use),
	}
	if d.WithCtx == "" {
		return diag
	}
	id := analysisutil.FuncIdent(d.Call.Fun)
	if id == nil {
		return diag
	}
	arg := d.InScope
	if len(d.Call.Args) > 0 {
		arg += ", "
	}
	diag.SuggestedFixes = []analysis.SuggestedFix{{
		Message: "Call " + d.WithCtx + " with " + d.InScope,
		TextEdits: []analysis.TextEdit{
			{Pos: id.Pos(), End: id.End(), NewText: []byte(d.WithCtx)},
			{Pos: d.Call.Lparen + 1, End: d.Call.Lparen + 1, NewText: []byte(arg)},
		},
	}}
	return diag
}

// selfAssign returns the statement that assigns the dropped context to
// the variable of the context in scope (`ctx = context.TODO()`), or nil.
func selfAssign(pass *analysis.Pass, d *timeouts.DroppedContext) *ast.AssignStmt {
	st, _ := analysisutil.EnclosingStmt(pass, d.Call)
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || analysisutil.Unparen(as.Rhs[0]) != ast.Expr(d.Call) {
		return nil
	}
	if id, ok := analysisutil.Unparen(as.Lhs[0]).(*ast.Ident); ok && id.Name == d.InScope {
		return as
	}
	return nil
}
