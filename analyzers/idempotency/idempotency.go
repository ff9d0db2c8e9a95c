package idempotency

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/mesh/routes"
)

//go:embed doc.go
var doc string

// Analyzer reports retried non-idempotent requests without idempotency keys.
var Analyzer = &analysis.Analyzer{
	Name:      "idempotency",
	Doc:       analysisutil.MustExtractDoc(doc, "idempotency"),
	URL:       "https://github.com/resilint/resilint/blob/main/docs/checks/idempotency.md",
	Requires:  []*analysis.Analyzer{model.Analyzer, sends.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{(*KeyPlaceFact)(nil)},
}

// KeyPlaceFact is exported for a function that sends a request with a
// constant method that is not idempotent inside a retry of its own, or that
// calls (through any chain of static calls) a function that does. The
// request's key belongs there, where the request is made and first
// retried: it is reported there, once, when it is missing. A caller's
// retry around such a function is a retry of a retry (retrynesting's
// finding), not a second finding of this check: one behaviour, one
// finding.
type KeyPlaceFact struct {
	Site string // the retried send: "retryablehttp.Client.Do at payments.go:43"
}

func (*KeyPlaceFact) AFact() {}

func (f *KeyPlaceFact) String() string { return "key place: " + f.Site }

var headerFlag = "Idempotency-Key,X-Idempotency-Key"

// headerValue validates -idempotency.header when it is set, so that a bad
// name is a flag (or plugin settings) error, not an analysis failure.
type headerValue struct{}

func (headerValue) String() string { return headerFlag }

func (headerValue) Set(s string) error {
	if _, err := headerNames(s); err != nil {
		return err
	}
	headerFlag = s
	return nil
}

// meshRoutes are the service mesh's routes, set by resilint -mesh (empty
// otherwise: no finding then depends on the mesh).
var meshRoutes routes.Table

func init() {
	Analyzer.Flags.Var(&meshRoutes, "mesh", "the service mesh's routes, as JSON (set by resilint -mesh DIR): a finding says when the mesh resends the request too")
	Analyzer.Flags.Var(headerValue{}, "header", "comma-separated names of the headers that carry an idempotency key (the first is used by fixes)")
}

// headerNames parses the -idempotency.header flag.
func headerNames(flag string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(flag, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !validHeaderName(n) {
			return nil, fmt.Errorf("-idempotency.header: %q is not a valid HTTP header name", n)
		}
		out = append(out, http.CanonicalHeaderKey(n))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-idempotency.header: no header name in %q", flag)
	}
	return out, nil
}

func run(pass *analysis.Pass) (any, error) {
	names, err := headerNames(headerFlag)
	if err != nil {
		return nil, err
	}
	isKey := map[string]bool{}
	for _, n := range names {
		isKey[n] = true
	}
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	sent := pass.ResultOf[sends.Analyzer].(*sends.Result)
	keyPlace, passThrough := keyPlaces(pass, res, sent)
	// The retries of this package around a function that retries its own
	// send: related locations of that send's finding, when it is made in
	// this package too (callers in other packages are analyzed after it).
	callers := map[string][]analysis.RelatedInformation{}
	for _, r := range resends(res) {
		for _, s := range resent(pass, sent, r) {
			if s.Callee == nil || selfCall(pass, r, s.Callee) {
				// A recursion's self-call is its own next attempt, one
				// retry, not an outer one.
				continue
			}
			if f := keyPlace(s.Callee); f != nil {
				callers[f.Site] = append(callers[f.Site], analysis.RelatedInformation{Pos: r.Pos, Message: fmt.Sprintf("retried again, through %s, by this %s (%s): a retry of a retry (retrynesting)", analysisutil.FuncName(s.Callee, pass.Pkg), r.Describe(), model.AttemptsText(r.Attempts))})
			}
		}
	}
	// Calls that only pass the request through to a function of this
	// package that holds its finding: related locations of that finding.
	for _, r := range resends(res) {
		for _, s := range resent(pass, sent, r) {
			if f := passThrough[s]; f != nil {
				callers[f.Site] = append(callers[f.Site], analysis.RelatedInformation{Pos: s.Pos, End: s.End, Message: fmt.Sprintf("the same request, passed on here to %s", s.Lib)})
			}
		}
	}
	seen := map[token.Pos]bool{}
	type retried struct {
		r *model.Retry // nil: the callee's own retry (SendFact.Retry)
		s *sends.Send
	}
	var all []retried
	for _, r := range resends(res) {
		for _, s := range resent(pass, sent, r) {
			all = append(all, retried{r, s})
		}
	}
	// Calls of functions that retry a request whose method or headers the
	// call gives: judged here, where they are known. A helper's retry of
	// an unknown number of attempts (a policy field) is no finding (it
	// may make one), and one helper's retry is one behaviour: reported
	// at its first call of the package that sends without a key.
	for _, s := range sent.Deferred() {
		if s.Fact != nil && s.Fact.RetryAttempts > 1 {
			all = append(all, retried{nil, s})
		}
	}
	helperReported := map[*types.Func]bool{}
	// One retry that sends the same helper's POST from two places (the
	// attempt, and a resend at once on a dropped connection) is one
	// behaviour: reported at the first, the others related.
	type sameSend struct {
		r      *model.Retry
		callee *types.Func
		method string
	}
	firstOf := map[sameSend]int{}
	var pending []analysis.Diagnostic
	for _, rs := range all {
		r, s := rs.r, rs.s
		{
			if res.Implementation(s.Pos) != nil {
				// The library's own body of a catalogued retrying send
				// (retryablehttp's Client.Post): its row describes it,
				// and the finding is made where it is called, with the
				// caller's endpoint; here the endpoint is a parameter.
				continue
			}
			if passThrough[s] != nil {
				// A catalogued send of this package's own function (a
				// library analyzed itself): the request is made, and
				// its finding made, in that function's body.
				continue
			}
			// A method the model cannot tell (a parameter, a variable) is
			// no finding: a generic wrapper sends whatever its callers
			// choose, GET and PUT included.
			if s.KeyByTransport || s.Method == "" || sends.IdempotentMethod(s.Method) || seen[s.Pos] {
				continue
			}
			if s.Callee != nil && keyPlace(s.Callee) != nil {
				// The callee retries the request itself: the key belongs
				// there, reported in its package.
				continue
			}
			var keys []sends.HeaderWrite
			for _, h := range s.Headers {
				if isKey[h.Name] {
					keys = append(keys, h)
				}
			}
			if len(keys) == 0 && s.OpenHeaders() {
				// Some headers come from where the model cannot read
				// them (a caller's value, a field): they may carry the
				// key.
				continue
			}
			method := s.Method
			via := ""
			if s.Fact != nil {
				via = " (" + s.Fact.Site + ")"
			}
			var related []analysis.RelatedInformation
			retryName := ""
			if r != nil {
				retryName = r.Describe()
				related = append(related, analysis.RelatedInformation{Pos: r.Pos, Message: fmt.Sprintf("retried by this %s (%s)", r.Describe(), model.AttemptsText(r.Attempts))})
			} else {
				retryName = "retry of " + s.Lib
				via = fmt.Sprintf(" (%s, retried by its %s, %s)", s.Fact.Site, s.Fact.Retry, model.AttemptsText(s.Fact.RetryAttempts))
			}
			if s.Build != nil {
				related = append(related, analysis.RelatedInformation{Pos: s.Build.Pos(), Message: "request made here"})
			}
			related = append(related, callers[fmt.Sprintf("%s at %s", s.Lib, analysisutil.ShortPos(pass.Fset, s.Pos))]...)
			if r == nil && helperReported[s.Callee] {
				continue
			}
			if len(keys) == 0 && sent.NamedOnce(r, s) {
				// The request names itself in what it is made from (a
				// key in the body, drawn once before the retry).
				continue
			}
			switch {
			case len(keys) == 0:
				seen[s.Pos] = true
				if r == nil {
					helperReported[s.Callee] = true
				}
				d := analysis.Diagnostic{
					Pos: s.Pos, End: s.End, Category: "no-key", Related: related,
					Message: fmt.Sprintf("%s sends %s%s inside a retry without an %s header: a timeout means the result is unknown, and a retried %s the server already processed runs twice (a double charge)", s.Lib, method, via, names[0], strings.TrimPrefix(method, "a ")),
				}
				if note := meshNote(s); note != "" {
					d.Message += note
				}
				if r != nil && s.Callee != nil {
					k := sameSend{r, s.Callee, method}
					if i, ok := firstOf[k]; ok {
						pending[i].Related = append(pending[i].Related, analysis.RelatedInformation{Pos: s.Pos, End: s.End, Message: "the same request, sent again in this " + retryName})
						continue
					}
					firstOf[k] = len(pending)
				}
				if fix := keyFix(pass, r, s, names[0]); fix != nil {
					d.SuggestedFixes = []analysis.SuggestedFix{*fix}
				}
				pending = append(pending, d)
			case allPerAttempt(keys):
				seen[s.Pos] = true
				if r == nil {
					helperReported[s.Callee] = true
				}
				d := analysis.Diagnostic{
					Pos: keys[0].Pos, End: keys[0].Pos + token.Pos(len("req")), Category: "key-per-attempt", Related: append(related, analysis.RelatedInformation{Pos: s.Pos, Message: "request sent here"}),
					Message: fmt.Sprintf("the %s is made anew in every attempt of the %s: each attempt carries a different key, so the server cannot recognize the retry of %s; make the key once, before the retry", keys[0].Name, retryName, strings.TrimPrefix(method, "a ")),
				}
				if keys[0].Value != nil && r != nil {
					d.Pos, d.End = keys[0].Value.Pos(), keys[0].Value.End()
					if fix := hoistFix(pass, r, keys[0].Value); fix != nil {
						d.SuggestedFixes = []analysis.SuggestedFix{*fix}
					}
				}
				pass.Report(d)
			}
		}
	}
	for _, d := range pending {
		pass.Report(d)
	}
	return nil, nil
}

// selfCall reports whether r is a recursive retry whose self-call calls
// fn: the function that retries, calling itself.
func selfCall(pass *analysis.Pass, r *model.Retry, fn *types.Func) bool {
	call, ok := r.Node.(*ast.CallExpr)
	return ok && r.Kind == model.RecursiveRetry && analysisutil.Callee(pass.TypesInfo, call) == fn
}

// keyPlaces exports a KeyPlaceFact for every function of the package that
// retries a non-idempotent send of its own or calls one that does, and
// returns the lookup of those facts (this package's and imported ones),
// and the pass-through sends: catalogued sends whose function is declared
// in this package (the library analyzed itself: `c.Post(url, ...)` inside
// PostForm) and whose body holds the finding for the same request, each
// with the fact of that function.
func keyPlaces(pass *analysis.Pass, res *model.Result, sent *sends.Result) (func(*types.Func) *KeyPlaceFact, map[*sends.Send]*KeyPlaceFact) {
	local := map[*types.Func]*KeyPlaceFact{}
	lookup := func(fn *types.Func) *KeyPlaceFact {
		if f, ok := local[fn]; ok {
			return f
		}
		if fn.Pkg() != pass.Pkg {
			var f KeyPlaceFact
			if pass.ImportObjectFact(fn, &f) {
				return &f
			}
		}
		return nil
	}
	// The package's functions and the static calls each makes.
	var decls []*types.Func
	calls := map[*types.Func][]*types.Func{} // callee -> callers in this package
	var edges [][2]*types.Func               // caller, callee: in source order
	funcAt := map[token.Pos]*types.Func{}    // FuncDecl.Pos -> its function
	var bodies []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			decls = append(decls, fn)
			bodies = append(bodies, fd)
			funcAt[fd.Pos()] = fn
			seen := map[*types.Func]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if callee := analysisutil.Callee(pass.TypesInfo, call); callee != nil && !seen[callee] {
						seen[callee] = true
						calls[callee] = append(calls[callee], fn)
						edges = append(edges, [2]*types.Func{fn, callee})
					}
				}
				return true
			})
		}
	}
	enclosing := func(pos token.Pos) *types.Func {
		for _, fd := range bodies {
			if fd.Pos() <= pos && pos < fd.End() {
				return funcAt[fd.Pos()]
			}
		}
		return nil
	}
	var work []*types.Func
	mark := func(fn *types.Func, f *KeyPlaceFact) {
		if fn == nil || local[fn] != nil {
			return
		}
		local[fn] = f
		work = append(work, fn)
	}
	propagate := func() {
		for len(work) > 0 {
			fn := work[len(work)-1]
			work = work[:len(work)-1]
			for _, caller := range calls[fn] {
				mark(caller, local[fn])
			}
		}
	}
	retried := func(s *sends.Send) bool {
		return !s.KeyByTransport && s.Method != "" && !sends.IdempotentMethod(s.Method) && !s.OpenHeaders()
	}
	own := func(s *sends.Send) *KeyPlaceFact {
		return &KeyPlaceFact{Site: fmt.Sprintf("%s at %s", s.Lib, analysisutil.ShortPos(pass.Fset, s.Pos))}
	}
	// A catalogued send of a function declared here is judged by that
	// function's body: pending until it is known whether the body holds
	// the finding.
	declared := map[*types.Func]bool{}
	for _, fn := range decls {
		declared[fn] = true
	}
	target := func(s *sends.Send) *types.Func {
		if s.Callee != nil || s.Call == nil {
			return nil
		}
		if fn := analysisutil.Callee(pass.TypesInfo, s.Call); fn != nil && declared[fn.Origin()] {
			return fn.Origin()
		}
		return nil
	}
	type pendingSend struct {
		s      *sends.Send
		in, to *types.Func
	}
	var pending []pendingSend
	// Sends made in this package's retries, and imported functions with
	// the fact, mark the functions that hold or call them.
	for _, r := range resends(res) {
		for _, s := range resent(pass, sent, r) {
			if !retried(s) || s.Callee != nil {
				continue
			}
			if to := target(s); to != nil {
				pending = append(pending, pendingSend{s, enclosing(s.Pos), to})
				continue
			}
			mark(enclosing(s.Pos), own(s))
		}
	}
	for _, e := range edges {
		if e[1].Pkg() != pass.Pkg {
			if f := lookup(e[1]); f != nil {
				mark(e[0], f)
			}
		}
	}
	// A call of a function that retries a request whose method or
	// headers the call decides: the request is first known here.
	for _, s := range sent.Deferred() {
		if retried(s) {
			mark(enclosing(s.Pos), own(s))
		}
	}
	propagate()
	// A send through a function without the fact is retried here first.
	for _, r := range resends(res) {
		for _, s := range resent(pass, sent, r) {
			if retried(s) && s.Callee != nil && lookup(s.Callee) == nil {
				mark(enclosing(s.Pos), own(s))
			}
		}
	}
	propagate()
	// Pending sends, callees first: a send whose function holds the
	// finding passes the request through (its caller is marked through
	// the call); one whose function cannot come to hold it (no pending
	// send is reachable from it) is the finding.
	callees := map[*types.Func][]*types.Func{}
	for _, e := range edges {
		callees[e[0]] = append(callees[e[0]], e[1])
	}
	passThrough := map[*sends.Send]*KeyPlaceFact{}
	for len(pending) > 0 {
		waiting := map[*types.Func]bool{}
		for _, p := range pending {
			waiting[p.in] = true
		}
		var next []pendingSend
		progress := false
		for _, p := range pending {
			if f := local[p.to]; f != nil {
				passThrough[p.s] = f
				progress = true
				continue
			}
			if reachesAny(p.to, waiting, callees) {
				next = append(next, p)
				continue
			}
			mark(p.in, own(p.s))
			propagate()
			progress = true
		}
		if !progress {
			// A cycle of functions passing to each other: each is the
			// finding.
			for _, p := range next {
				mark(p.in, own(p.s))
			}
			propagate()
			next = nil
		}
		pending = next
	}
	for _, fn := range decls {
		if f := local[fn]; f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	return lookup, passThrough
}

// reachesAny reports whether fn, or a function it calls through any chain
// of calls of the package, is in set.
func reachesAny(fn *types.Func, set map[*types.Func]bool, callees map[*types.Func][]*types.Func) bool {
	seen := map[*types.Func]bool{}
	stack := []*types.Func{fn}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[f] {
			continue
		}
		seen[f] = true
		if set[f] {
			return true
		}
		stack = append(stack, callees[f]...)
	}
	return false
}

func allPerAttempt(hs []sends.HeaderWrite) bool {
	for _, h := range hs {
		if !h.PerAttempt {
			return false
		}
	}
	return true
}

const keyVar = "idempotencyKey"

// keyFix makes the key before the retry and sets it on the request right
// after it is made (after its error check).
func keyFix(pass *analysis.Pass, r *model.Retry, s *sends.Send, header string) *analysis.SuggestedFix {
	if s.Build == nil || s.Fact != nil {
		return nil
	}
	buildStmt, indent := analysisutil.EnclosingStmt(pass, s.Build)
	as, ok := buildStmt.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != s.Build || len(as.Lhs) == 0 {
		return nil
	}
	reqID, ok := as.Lhs[0].(*ast.Ident)
	if !ok || reqID.Name == "_" {
		return nil
	}
	file := analysisutil.FileOf(pass, s.Build.Pos())
	after := ast.Node(as)
	if next := nextStmt(pass, as); next != nil && isErrCheck(next) {
		after = next
	}
	if r.Kind == model.ClientRetry {
		// The client retries by itself: the request is made once; set the
		// key on it.
		name, edits := analysisutil.AddImport(pass, file, catalog.ResilintIdempotency, "idempotency")
		edits = append(edits, analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte(fmt.Sprintf("\n%s%s.Header.Set(%s, %s.NewKey())", indent, reqID.Name, strconv.Quote(header), name))})
		return &analysis.SuggestedFix{Message: "Set an idempotency key on the request, which the client sends again on every attempt", TextEdits: edits}
	}
	if !inOps(r, s.Build.Pos()) {
		return nil // made outside the attempt: not this fix's shape
	}
	before, rindent := insertionPoint(pass, r, s.Build.Pos())
	if before == nil || fileLookup(pass, before.Pos(), keyVar) || fileLookup(pass, s.Build.Pos(), keyVar) {
		return nil
	}
	name, edits := analysisutil.AddImport(pass, file, catalog.ResilintIdempotency, "idempotency")
	edits = append(edits,
		analysis.TextEdit{Pos: before.Pos(), End: before.Pos(), NewText: []byte(fmt.Sprintf("%s := %s.NewKey()\n%s", keyVar, name, rindent))},
		analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte(fmt.Sprintf("\n%s%s.Header.Set(%s, %s)", indent, reqID.Name, strconv.Quote(header), keyVar))})
	return &analysis.SuggestedFix{Message: "Make an idempotency key once, before the retry, and set it on every attempt's request", TextEdits: edits}
}

// inOps reports whether pos is inside one attempt of r.
func inOps(r *model.Retry, pos token.Pos) bool {
	for _, op := range r.Ops {
		if op.Pos() <= pos && pos < op.End() {
			return true
		}
	}
	return false
}

// insertionPoint is the statement before which a value made once for the
// retry r goes, and its indentation: the retry's statement, or, when the
// attempt holding pos is a closure declared before it (`op := func() error
// { ... }` then `backoff.Retry(op, b)`), the closure's statement.
func insertionPoint(pass *analysis.Pass, r *model.Retry, pos token.Pos) (ast.Stmt, string) {
	st, indent := analysisutil.EnclosingStmt(pass, r.Node)
	if st == nil {
		return nil, ""
	}
	for _, op := range r.Ops {
		if op.Pos() <= pos && pos < op.End() {
			if ost, oindent := analysisutil.EnclosingStmt(pass, op); ost != nil && ost.Pos() < st.Pos() {
				st, indent = ost, oindent
			}
		}
	}
	return st, indent
}

// hoistFix moves a key made inside the retry to just before it.
func hoistFix(pass *analysis.Pass, r *model.Retry, v ast.Expr) *analysis.SuggestedFix {
	retryStmt, rindent := insertionPoint(pass, r, v.Pos())
	if retryStmt == nil {
		return nil
	}
	info := pass.TypesInfo
	if lit, ok := ast.Unparen(v).(*ast.CompositeLit); ok && len(lit.Elts) == 1 {
		v = lit.Elts[0] // []string{NewKey()}
	}
	switch x := ast.Unparen(v).(type) {
	case *ast.CallExpr:
		if fileLookup(pass, retryStmt.Pos(), keyVar) || fileLookup(pass, x.Pos(), keyVar) || usesLocals(info, x, r) {
			return nil
		}
		return &analysis.SuggestedFix{Message: "Make the key once, before the retry", TextEdits: []analysis.TextEdit{
			{Pos: retryStmt.Pos(), End: retryStmt.Pos(), NewText: []byte(fmt.Sprintf("%s := %s\n%s", keyVar, analysisutil.Text(pass, x), rindent))},
			{Pos: x.Pos(), End: x.End(), NewText: []byte(keyVar)},
		}}
	case *ast.Ident:
		obj := info.Uses[x]
		if obj == nil {
			return nil
		}
		defID := findDef(pass, obj)
		if defID == nil {
			return nil
		}
		def, _ := analysisutil.EnclosingStmt(pass, defID)
		as, ok := def.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || usesLocals(info, as.Rhs[0], r) {
			return nil
		}
		stmtText := analysisutil.Text(pass, as)
		// Remove the statement with its line: up to the next statement.
		end := as.End()
		if next := nextStmt(pass, as); next != nil && !commentBetween(pass, end, next.Pos()) {
			end = next.Pos()
		}
		return &analysis.SuggestedFix{Message: "Make the key once, before the retry", TextEdits: []analysis.TextEdit{
			{Pos: retryStmt.Pos(), End: retryStmt.Pos(), NewText: []byte(stmtText + "\n" + rindent)},
			{Pos: as.Pos(), End: end, NewText: nil},
		}}
	}
	return nil
}

func commentBetween(pass *analysis.Pass, from, to token.Pos) bool {
	if f := analysisutil.FileOf(pass, from); f != nil {
		for _, g := range f.Comments {
			if from <= g.Pos() && g.Pos() < to {
				return true
			}
		}
	}
	return false
}

func findDef(pass *analysis.Pass, obj types.Object) ast.Node {
	for id, o := range pass.TypesInfo.Defs {
		if o != nil && o.Pos() == obj.Pos() && id.Pos() == obj.Pos() {
			return id
		}
	}
	return nil
}

// usesLocals reports whether e refers to variables declared inside the
// retry's attempt (which a hoisted statement could not see).
func usesLocals(info *types.Info, e ast.Node, r *model.Retry) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return !found
		}
		if obj := info.Uses[id]; obj != nil {
			for _, op := range r.Ops {
				if op.Pos() <= obj.Pos() && obj.Pos() < op.End() {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// validHeaderName reports whether n is an HTTP token.
func validHeaderName(n string) bool {
	for _, c := range n {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", c):
		default:
			return false
		}
	}
	return n != ""
}

func fileLookup(pass *analysis.Pass, pos token.Pos, name string) bool {
	scope := pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(name, pos)
	return obj != nil
}

func nextStmt(pass *analysis.Pass, st ast.Stmt) ast.Stmt {
	file := analysisutil.FileOf(pass, st.Pos())
	var next ast.Stmt
	ast.Inspect(file, func(n ast.Node) bool {
		list := analysisutil.StmtList(n)
		for i, s := range list {
			if s == st && i+1 < len(list) {
				next = list[i+1]
			}
		}
		return next == nil
	})
	return next
}

func isErrCheck(st ast.Stmt) bool {
	ifs, ok := st.(*ast.IfStmt)
	if !ok || ifs.Init != nil {
		return false
	}
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	id, ok := be.X.(*ast.Ident)
	return ok && id.Name == "err"
}

// meshNote says that the service mesh resends the request too, when
// resilint -mesh gave the mesh's routes and the request's host is one the
// mesh retries on conditions that resend a processed request; "" when the
// host is not known.
func meshNote(s *sends.Send) string {
	rt, ok := meshRoutes.Lookup(s.Host)
	if !ok || rt.Resends == "" || rt.Tries < 2 {
		return ""
	}
	return fmt.Sprintf("; the service mesh resends it too: %s retries %s on %s (%s, %s), whatever the code decides", rt.Host, s.Method, rt.Resends, rt.Policy, rt.Where)
}

// resends returns the retries of the package that may send a request
// again after the server carried it out. A loop that goes round only on
// a client-error response (401 while the token is refreshed, 409), or on
// a connection refused before the request was sent, resends only what
// the server refused or never saw, which it did not carry out: the
// resend cannot do it twice (model.Retry.NotDone).
func resends(res *model.Result) []*model.Retry {
	out := make([]*model.Retry, 0, len(res.Retries))
	for _, r := range res.Retries {
		if !r.ClientErrors && !r.NotDone {
			out = append(out, r)
		}
	}
	return out
}

// resent returns the requests an attempt of r sends again after they
// may have failed: not those made through a call whose every failure
// ends the retry (model.FailuresEnd). The operation goes round only
// after such a call answered and the code read its answer (a zone not
// yet active): a poll of what the call returns, whose outcome was
// never unknown, and a key would only make the server answer the same.
func resent(pass *analysis.Pass, sent *sends.Result, r *model.Retry) []*sends.Send {
	all := sent.Of(r)
	out := all[:0:0]
	for _, s := range all {
		if s.Callee != nil && s.Call != nil && model.FailuresEnd(pass.TypesInfo, r, s.Call) {
			continue
		}
		out = append(out, s)
	}
	return out
}
