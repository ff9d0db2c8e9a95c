package ratelimit

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"net/http"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
	"github.com/resilint/resilint/analyzers/internal/model/respread"
)

//go:embed doc.go
var doc string

// Analyzer reports rate limits that leak, scripts across hash slots, and
// 429/503 responses without Retry-After or clients that ignore it.
var Analyzer = &analysis.Analyzer{
	Name:     "ratelimit",
	Doc:      analysisutil.MustExtractDoc(doc, "ratelimit"),
	URL:      "https://github.com/resilint/resilint/blob/main/docs/checks/ratelimit.md",
	Requires: []*analysis.Analyzer{rediscmd.Analyzer, httpstatus.Analyzer, respread.Analyzer, model.Analyzer},
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
	for _, w := range pass.ResultOf[httpstatus.Analyzer].(*httpstatus.Result).Writes {
		checkWrite(pass, w)
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
		if c.Guarded || c.KeyID == "" {
			continue
		}
		if byKey[c.KeyID] == nil {
			keys = append(keys, c.KeyID)
		}
		byKey[c.KeyID] = append(byKey[c.KeyID], c)
	}
	for _, k := range keys {
		checkKey(pass, byKey[k])
	}
}

// decides reports whether write w is decided by read r: an increment
// after a read (a counter checked, then bumped), an element added after
// the elements were counted (a log), or a value computed from the reply.
// A value written after a read without using it (a cache filled on a
// miss) is not a read-modify-write.
func decides(r, w *rediscmd.Command) bool {
	if w.Kind == catalog.RedisIncr || r.Count && w.Count {
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
func checkKey(pass *analysis.Pass, cmds []*rediscmd.Command) {
	sameCall := func(a, b *rediscmd.Command) bool { return a.Via != nil && a.Call == b.Call }
	var reads []*rediscmd.Command
	var incr *rediscmd.Command
	var incrPair [2]*rediscmd.Command
	for _, c := range cmds {
		switch c.Kind {
		case catalog.RedisWrite, catalog.RedisIncr:
			for _, read := range reads {
				if sameCall(read, c) || !decides(read, c) {
					continue
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
			if incr != nil && incrPair[0] == nil && !sameCall(incr, c) {
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

func checkWrite(pass *analysis.Pass, w *httpstatus.Write) {
	if w.Status != http.StatusTooManyRequests && w.Status != http.StatusServiceUnavailable {
		return
	}
	if slices.Contains(w.Before, retryAfter) {
		return
	}
	if w.WriterParam >= 0 && !w.Handler {
		return // a helper's write: reported where it is called
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
	pass.Report(analysis.Diagnostic{
		Pos: w.Call.Pos(), End: w.Call.End(), Category: "no-retry-after",
		Message: fmt.Sprintf("%s written%s without a Retry-After header on this path: %s; set Retry-After before writing the status (runtime/ratelimit's middleware sets it, with the RateLimit headers)", what, where, consequence),
	})
}

func checkRetry(pass *analysis.Pass, r *model.Retry, reads *respread.Result) {
	if r.Kind != model.LoopRetry && r.Kind != model.GotoRetry || len(r.Delays) == 0 {
		return
	}
	rs, ts := reads.In(r.Ops...)
	for _, x := range rs {
		if x.Header == retryAfter {
			return
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
