package sends

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// Analyzer is the sends pass.
var Analyzer = &analysis.Analyzer{
	Name:       "resilsends",
	Doc:        "state the HTTP requests each retry's attempts send, with their method, headers and host (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{model.Analyzer, provenance.Analyzer, waits.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*SendFact)(nil), (*RequestFact)(nil)},
}

// Result is the sends layer of one package.
type Result struct {
	sends    map[*model.Retry][]*Send
	deferred []*Send
	mu       sync.Mutex
	m        *layer // nil for the standard library
}

// Of returns the HTTP requests one attempt of r sends (directly or in a
// called function); a retrying client's send is its own. A send after
// which every path leaves the loop is not among them (model.SentOnce).
func (r *Result) Of(rt *model.Retry) []*Send {
	if r == nil {
		return nil
	}
	return r.sends[rt]
}

// Deferred returns the package's calls of functions that send a request
// inside a retry of their own, with a method or headers the call gives
// (SendFact.Retry): the request is judged at the call, where they are
// known, whether or not the call is itself inside a retry.
func (r *Result) Deferred() []*Send {
	if r == nil {
		return nil
	}
	return r.deferred
}

// SendOf returns the HTTP send a call makes (a catalogued send, or a
// call of a function with a SendFact), or nil.
func (r *Result) SendOf(call *ast.CallExpr) *Send {
	if r == nil || r.m == nil {
		return nil
	}
	// sendOf fills the memo of send summaries: one caller at a time
	// (layers built on this one may run in parallel).
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m.sendOf(call)
}

type layer struct {
	pass      *analysis.Pass
	res       *model.Result
	vals      *provenance.Values
	headers   map[types.Object][]HeaderWrite
	summaries *provenance.Summaries[SendFact]
	requests  map[*types.Func]*RequestFact // memo of requestOf
	waits     *waits.Result
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[model.Analyzer].(*model.Result)
	out := &Result{sends: map[*model.Retry][]*Send{}}
	if res.Opaque() {
		// The standard library is opaque to the model.
		return out, nil
	}
	m := &layer{
		pass:      pass,
		res:       res,
		vals:      pass.ResultOf[provenance.Analyzer].(*provenance.Values),
		summaries: provenance.NewSummaries[SendFact](),
		requests:  map[*types.Func]*RequestFact{},
		waits:     pass.ResultOf[waits.Analyzer].(*waits.Result),
	}
	out.m = m
	m.headers = m.headerIndex()
	for _, r := range res.Retries {
		if s := m.findSends(r); len(s) > 0 {
			out.sends[r] = s
		}
	}
	for _, fn := range m.vals.Funcs() {
		if f := m.sendSummary(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
		if f := m.requestOf(fn); f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	for _, fn := range m.vals.Funcs() {
		for _, s := range m.sendsIn(m.vals.Decls[fn].Body) {
			if s.Fact != nil && s.Fact.Retry != "" {
				out.deferred = append(out.deferred, s)
			}
		}
	}
	return out, nil
}
