package ratelimit

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/admission"
	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
	"github.com/resilint/resilint/analyzers/internal/model/respread"
)

//go:embed doc.go
var doc string

// Analyzer reports rate limits that leak, scripts across hash slots, and
// 429s and load-shedding 503s without Retry-After, or clients that ignore
// it.
var Analyzer = &analysis.Analyzer{
	Name:     "ratelimit",
	Doc:      analysisutil.MustExtractDoc(doc, "ratelimit"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/ratelimit.md",
	Requires: []*analysis.Analyzer{rediscmd.Analyzer, httpstatus.Analyzer, respread.Analyzer, admission.Analyzer, model.Analyzer},
	Run:      run,
}

const retryAfter = "Retry-After"

// maxReads bounds the reads of one key a write is compared with.
const maxReads = 8

func run(pass *analysis.Pass) (any, error) {
	redis := pass.ResultOf[rediscmd.Analyzer].(*rediscmd.Result)
	for _, f := range redis.Funcs {
		checkCommands(pass, f)
	}
	for _, s := range redis.Scripts {
		checkScript(pass, s)
	}
	adm := pass.ResultOf[admission.Analyzer].(*admission.Result)
	for _, w := range pass.ResultOf[httpstatus.Analyzer].(*httpstatus.Result).Writes {
		checkWrite(pass, w, redis, adm)
	}
	reads := pass.ResultOf[respread.Analyzer].(*respread.Result)
	for _, r := range pass.ResultOf[model.Analyzer].(*model.Result).Retries {
		checkRetry(pass, r, reads)
	}
	return nil, nil
}

// describe names a command for messages: "GET", or "GET (in
// limiter.count, at store.go:31)" when a called function issues it.
func describe(pass *analysis.Pass, c *rediscmd.Command) string {
	if c.Via == nil {
		return c.Cmd
	}
	return fmt.Sprintf("%s (in %s, at %s)", c.Cmd, analysisutil.FuncName(c.Via, pass.Pkg), c.Site)
}

func keyText(pass *analysis.Pass, c *rediscmd.Command) string {
	if c.Key != nil {
		return analysisutil.Text(pass, c.Key)
	}
	if s, ok := strings.CutPrefix(c.KeyID, "c:"); ok {
		return s
	}
	return "the key"
}

func checkCommands(pass *analysis.Pass, f *rediscmd.Func) {
	// The unguarded commands of each key, in order.
	byKey := map[string][]*rediscmd.Command{}
	var keys []string
	for _, c := range f.Cmds {
		// A write queued in a redigo MULTI/EXEC still acts on a read made
		// before it; checkKey pairs it with such reads (a read queued in
		// one has no reply yet).
		if c.Guarded && (c.Tx == 0 || c.Kind == catalog.RedisRead) || c.KeyID == "" {
			continue
		}
		if byKey[c.KeyID] == nil {
			keys = append(keys, c.KeyID)
		}
		byKey[c.KeyID] = append(byKey[c.KeyID], c)
	}
	for _, k := range keys {
		checkKey(pass, f.Node, byKey[k])
	}
}

// decides reports whether write w is decided by read r: an increment
// after a read whose reply is compared (a counter checked, then bumped), an element added after
// the elements were counted (a log), or a value computed from the reply.
// A value written after a read without using it (a cache filled on a
// miss) is not a read-modify-write.
func decides(pass *analysis.Pass, body ast.Node, r, w *rediscmd.Command) bool {
	if w.Kind == catalog.RedisIncr {
		// Checked, then bumped: unless the reply, held in variables,
		// is never compared (a name read and returned, then a view
		// counted): the increment does not depend on it.
		return !r.ValueHeld() || r.ValueCompared(pass.TypesInfo, body)
	}
	if r.Count && w.Count {
		return true
	}
	for _, u := range w.Uses {
		if slices.Contains(r.Reply, u) {
			return true
		}
	}
	return false
}

// checkKey reports the first read followed by a write of one key, or else
// the first increment followed by an expiry. A helper's own pair (both
// issued by one call) was reported in the helper.
func checkKey(pass *analysis.Pass, body ast.Node, cmds []*rediscmd.Command) {
	sameCall := func(a, b *rediscmd.Command) bool { return a.Via != nil && a.Call == b.Call }
	var reads []*rediscmd.Command
	var incr *rediscmd.Command
	var incrPair [2]*rediscmd.Command
	for _, c := range cmds {
		switch c.Kind {
		case catalog.RedisWrite, catalog.RedisIncr:
			for _, read := range reads {
				if sameCall(read, c) || !decides(pass, body, read, c) {
					continue
				}
				if c.Tx != 0 && read.Watched && c.Watched {
					continue // WATCH, read, MULTI, write, EXEC: EXEC fails if it changed
				}
				pass.Report(analysis.Diagnostic{
					Pos: read.Call.Pos(), End: read.Call.End(), Category: "read-modify-write",
					Message: fmt.Sprintf("%s of %s, then %s of it in a separate command (not atomic): concurrent requests read the same value and all pass, so a rate limit leaks under parallel traffic; decide in one Lua script (runtime/ratelimit's Redis store does) or in a WATCH and MULTI/EXEC transaction",
						describe(pass, read), keyText(pass, read), describe(pass, c)),
					Related: []analysis.RelatedInformation{{Pos: c.Call.Pos(), End: c.Call.End(), Message: c.Cmd + " of the same key"}},
				})
				return
			}
			if c.Kind == catalog.RedisIncr && incr == nil {
				incr = c
			}
		case catalog.RedisRead:
			if len(reads) < maxReads {
				reads = append(reads, c)
			}
		case catalog.RedisExpire:
			if c.Cmd == "EXPIRE NX" && (incr == nil || !incr.Tests(pass.TypesInfo, body, c.Call)) {
				// INCR, then EXPIRE NX whatever the count: a TTL lost
				// between the two is set by the next request.
				continue
			}
			if incr != nil && incrPair[0] == nil && !sameCall(incr, c) && (incr.Tx == 0 || incr.Tx != c.Tx) {
				// (an INCR and its EXPIRE in one transaction run together)
				incrPair = [2]*rediscmd.Command{incr, c}
			}
		}
	}
	if r, w := incrPair[0], incrPair[1]; r != nil {
		pass.Report(analysis.Diagnostic{
			Pos: r.Call.Pos(), End: r.Call.End(), Category: "incr-expire",
			Message: fmt.Sprintf("%s of %s, then %s in a separate command: a crash or a lost connection between them leaves a counter that never expires (the caller stays limited for ever); send both in TxPipelined or one Lua script, or use runtime/ratelimit",
				describe(pass, r), keyText(pass, r), describe(pass, w)),
			Related: []analysis.RelatedInformation{{Pos: w.Call.Pos(), End: w.Call.End(), Message: w.Cmd + " of the same key"}},
		})
	}
}

func checkScript(pass *analysis.Pass, s *rediscmd.Script) {
	if !s.KeysKnown || len(s.Keys) < 2 {
		return
	}
	var slots, shown []string
	for _, k := range s.Keys {
		if !k.Known {
			return
		}
		if !slices.Contains(slots, k.Slot) {
			slots = append(slots, k.Slot)
			shown = append(shown, fmt.Sprintf("%q", k.Display))
		}
	}
	if len(slots) < 2 {
		return
	}
	pass.Report(analysis.Diagnostic{
		Pos: s.Call.Pos(), End: s.Call.End(), Category: "cross-slot",
		Message: fmt.Sprintf("%s script gets keys that do not share a hash tag (%s): Redis Cluster refuses it with CROSSSLOT; put the limited identity in braces in every key, as in \"rl:{user}:cur\"",
			s.Cmd, strings.Join(shown, ", ")),
	})
}

func checkWrite(pass *analysis.Pass, w *httpstatus.Write, redis *rediscmd.Result, adm *admission.Result) {
	if w.Status != http.StatusTooManyRequests && w.Status != http.StatusServiceUnavailable {
		return
	}
	for _, h := range w.Before {
		if slices.Contains(catalog.ComeBackHeaders, h) {
			return // it says when to come back
		}
		if h == httpstatus.UnknownHeader {
			return // a header named by a field or a computed name: it may be Retry-After
		}
	}
	if w.WriterParam >= 0 && !w.Handler {
		return // a helper's write: reported where it is called
	}
	if w.Status == http.StatusServiceUnavailable && !adm.Sheds(w) {
		// Not ready, stopping, a dependency down: the server does not
		// know when it will serve again, and a Retry-After would be a
		// guess. Only a limiter that refused knows when it has room.
		return
	}
	what := fmt.Sprintf("%d %s", w.Status, http.StatusText(w.Status))
	where := ""
	if w.Via != nil {
		where = fmt.Sprintf(" by %s (at %s)", analysisutil.FuncName(w.Via, pass.Pkg), w.Site)
	}
	consequence := "clients retry at once, and the clients that are limited send more traffic than before"
	if w.Status == http.StatusServiceUnavailable {
		consequence = "clients retry at once and keep an overloaded service down"
	}
	d := analysis.Diagnostic{
		Pos: w.Call.Pos(), End: w.Call.End(), Category: "no-retry-after",
		Message: fmt.Sprintf("%s written%s without a Retry-After header on this path: %s; set Retry-After before writing the status (runtime/ratelimit's middleware sets it, with the RateLimit headers)", what, where, consequence),
	}
	if fix := retryAfterFix(pass, w, redis); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	pass.Report(d)
}

// retryAfterFix sets Retry-After before a 429 or 503 that a Redis counter
// decided, to the counter's time to live: the write is under an if whose
// condition calls, or uses a variable assigned from a call of, a function
// of this package that counts a key (INCR, or a read of it) and sets its
// expiry with a constant (EXPIRE key 60, Expire(ctx, key, time.Minute));
// or uses the reply of such a count in the function itself. A counter
// that no request touches for its time to live is gone, so a client that
// waits that long finds it reset (unless other requests on the same key
// kept it alive): an upper bound, and the only value the code states. One time to live only, and only for a
// direct write (http.Error(w, ...), w.WriteHeader(...)) on a named
// writer; otherwise no fix.
func retryAfterFix(pass *analysis.Pass, w *httpstatus.Write, redis *rediscmd.Result) *analysis.SuggestedFix {
	if w.Via != nil || w.Func == nil {
		return nil
	}
	var writer ast.Expr
	if fn := analysisutil.Callee(pass.TypesInfo, w.Call); analysisutil.IsFunc(fn, "net/http", "Error") && len(w.Call.Args) == 3 {
		writer = w.Call.Args[0]
	} else if sel, ok := analysisutil.Unparen(w.Call.Fun).(*ast.SelectorExpr); ok && fn != nil && fn.Name() == "WriteHeader" {
		writer = sel.X
	}
	if id, ok := analysisutil.Unparen(writer).(*ast.Ident); !ok || pass.TypesInfo.Uses[id] == nil {
		return nil
	}
	g := admission.GuardOf(pass, w.Func, w.Call)
	if g == nil || len(g.Conds) == 0 {
		return nil
	}
	info := pass.TypesInfo
	vars, calls := g.Vars, g.Calls
	var ttls []int64
	var sites []*rediscmd.Command
	unknown := false
	add := func(f *rediscmd.Func, keep func(*rediscmd.Command) bool) {
		for _, c := range f.CountedExpiries(keep) {
			if c.Via != nil {
				continue
			}
			sec, ok := ttlSeconds(info, c)
			if !ok {
				unknown = true
				continue
			}
			if !slices.Contains(ttls, sec) {
				ttls = append(ttls, sec)
			}
			sites = append(sites, c)
		}
	}
	for _, f := range redis.Funcs {
		switch {
		case f.Obj != nil && slices.ContainsFunc(calls, func(call *ast.CallExpr) bool { return analysisutil.Callee(info, call) == f.Obj }):
			add(f, func(*rediscmd.Command) bool { return true })
		case f.Node == w.Func:
			// The count's reply decides, in the function itself.
			add(f, func(o *rediscmd.Command) bool {
				return slices.ContainsFunc(o.Reply, func(v types.Object) bool { return vars[v] })
			})
		}
	}
	if unknown || len(ttls) != 1 {
		return nil
	}
	st, indent := analysisutil.EnclosingStmt(pass, w.Call)
	if st == nil {
		return nil
	}
	return &analysis.SuggestedFix{
		Message: fmt.Sprintf("Set Retry-After to %d seconds, the time to live of the counter that refuses the request (%s at %s)",
			ttls[0], sites[0].Cmd, analysisutil.ShortPos(pass.Fset, sites[0].Call.Pos())),
		TextEdits: []analysis.TextEdit{{Pos: st.Pos(), End: st.Pos(),
			NewText: []byte(fmt.Sprintf("%s.Header().Set(%q, \"%d\")\n%s", analysisutil.Text(pass, writer), retryAfter, ttls[0], indent))}},
	}
}

// ttlSeconds returns the constant time to live an expiry command c sets,
// in whole seconds rounded up: the argument after the key, a
// time.Duration (go-redis) or a number of seconds (EXPIRE) or
// milliseconds (PEXPIRE).
func ttlSeconds(info *types.Info, c *rediscmd.Command) (int64, bool) {
	if c.Key == nil {
		return 0, false
	}
	i := slices.Index(c.Call.Args, c.Key)
	if i < 0 || i+1 >= len(c.Call.Args) {
		return 0, false
	}
	arg := c.Call.Args[i+1]
	tv, ok := info.Types[arg]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	if !exact || n <= 0 {
		return 0, false
	}
	var unit int64
	switch {
	case analysisutil.IsNamedType(tv.Type, "time", "Duration"):
		unit = int64(time.Second)
	case c.Cmd == "EXPIRE" || c.Cmd == "EXPIRE NX":
		unit = 1
	case c.Cmd == "PEXPIRE":
		unit = 1000
	default:
		return 0, false
	}
	return (n + unit - 1) / unit, true
}

func checkRetry(pass *analysis.Pass, r *model.Retry, reads *respread.Result) {
	if r.Kind != model.LoopRetry && r.Kind != model.GotoRetry && r.Kind != model.RecursiveRetry || len(r.Delays) == 0 {
		return
	}
	rs, ts := reads.In(r.Ops...)
	for _, x := range rs {
		switch {
		case x.Header == respread.AnyHeader:
			return // a header read the model cannot name
		case slices.Contains(catalog.ComeBackHeaders, x.Header):
			return // it reads when to come back
		case slices.Contains(catalog.RetryAdviceHeaders, x.Header):
			return // it defers to the server's word on retrying
		}
	}
	var statuses []int
	var at token.Pos
	for _, t := range ts {
		for _, s := range t.Statuses {
			if !slices.Contains(statuses, s) {
				statuses = append(statuses, s)
			}
		}
		if !at.IsValid() {
			at = t.Node.Pos()
		}
	}
	if len(statuses) == 0 {
		return
	}
	slices.Sort(statuses)
	var names []string
	for _, s := range statuses {
		names = append(names, fmt.Sprintf("%d", s))
	}
	d := r.Delays[0]
	node := ast.Node(d.Call)
	if node == nil {
		node = d.Dur
	}
	pass.Report(analysis.Diagnostic{
		Pos: node.Pos(), End: node.End(), Category: "ignores-retry-after",
		Message: fmt.Sprintf("%s retries on %s but waits its own delay without reading the response's Retry-After: the server said when to come back, and earlier attempts are refused again and counted against the limit; wait at least Retry-After (runtime/retry honours it)",
			r.Describe(), strings.Join(names, " and ")),
		Related: []analysis.RelatedInformation{{Pos: at, Message: "the status test"}},
	})
}
