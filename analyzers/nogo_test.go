package analyzers_test

import (
	"bytes"
	"encoding/gob"
	"flag"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/analyzers"
	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/decoratororder"
	"github.com/resilint/resilint/analyzers/idempotency"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/admission"
	"github.com/resilint/resilint/analyzers/internal/model/breakers"
	"github.com/resilint/resilint/analyzers/internal/model/hostlocal"
	"github.com/resilint/resilint/analyzers/internal/model/httpstatus"
	"github.com/resilint/resilint/analyzers/internal/model/libconfig"
	"github.com/resilint/resilint/analyzers/internal/model/provenance"
	"github.com/resilint/resilint/analyzers/internal/model/rediscmd"
	"github.com/resilint/resilint/analyzers/internal/model/respread"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/analyzers/internal/model/timeouts"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
	"github.com/resilint/resilint/analyzers/ratelimit"
	"github.com/resilint/resilint/analyzers/retrynesting"
	"github.com/resilint/resilint/analyzers/timeoutchain"
)

// Drivers that analyze one package per process (go vet, Bazel's nogo on
// remote executors) carry facts between processes gob-encoded. Every fact
// type the model exports must survive that with every field intact.

// factSamples holds one realistic value of each fact type (the model's
// and the checks' own), every field
// set. A new fact type or field fails TestFactsGobRoundTrip until it has a
// sample here.
var factSamples = []analysis.Fact{
	&waits.MayWaitFact{},
	&model.RetryFact{Calls: 12, Depth: 2, Via: []string{"(*payments.Client).Charge", "payments.post"}, Site: "retryablehttp.Client.Do (4 attempts) at payments.go:43", Disable: "set RetryMax to 0 on the retryablehttp.Client", AttemptsParam: 2, AttemptsSign: -1, AttemptsOffset: 4, PerAttempt: 3},
	&provenance.ConstFact{Value: 5},
	&breakers.BreakerFact{Via: []string{"(*pricing.Client).Quote"}, Site: "breaker.Breaker.Do at pricing.go:33", Path: "github.com/resilint/resilint/runtime/breaker"},
	&sends.SendFact{Method: "POST", Site: "http.Client.Do at pay.go:31", Keys: []string{"Idempotency-Key"}, Given: []string{"X-Request-Id"}, Host: "pay.shop.svc.cluster.local", MethodParam: 2, HeaderSets: []int{3}, HeaderNames: []sends.HeaderName{{Name: 4, Value: 5}}, HeadersUnknown: true, Retry: "retry loop at pay.go:28", RetryAttempts: 3},
	&sends.RequestFact{Method: "PATCH", Keys: []string{"Idempotency-Key"}, Given: []string{"X-Idempotency-Key"}, Host: "orders.example.com", MethodParam: 2},
	&waits.FreshIDFact{},
	&timeouts.TimeoutFact{Param: 1, Timeout: 5e9, Site: "context.WithTimeout at client.go:20"},
	&timeouts.CarrierFact{Param: 1},
	&timeouts.ValueContextFact{Param: 1},
	&timeouts.UnreadFact{Params: []int{0, 2}},
	&timeouts.DetachFact{Params: []int{1}},
	&timeouts.LifetimeFact{Params: []int{0}},
	&timeouts.BgWrapperFact{Sibling: "PutContext"},
	&timeouts.NoContextFact{Work: "http.Get", At: "ocsp.go:193", Pkg: "example.com/certs"},
	&timeouts.BoundsFact{Params: []int{0}},
	&waits.DelayFact{Exponential: true, Capped: true},
	&timeouts.HijackFact{},
	&model.RetryHelperFact{OpParam: 2, Attempts: 3, AttemptsParam: 1, AttemptsPlus: 1, Site: "retry loop (3 attempts) at retry.go:12", Blind: true, ClientErrors: true, NotDone: true, Spaced: true},
	&waits.CtxCheckFact{Param: 1},
	&model.IdentifyFact{Param: 1, Specific: true, Forwards: "Is", Target: 2},
	&model.OutageFact{},
	&model.StatusTestFact{Param: 1, Codes: []int64{401, 403}},
	&model.NeverTrueFact{},
	&model.StatefulPredFact{},
	&model.StopWaitFact{},
	&model.SessionFact{},
	&model.RunsSessionFact{},
	&model.ProbeFact{},
	&model.StateGetterFact{},
	&model.StatusFieldsFact{Fields: []string{"example.com/api.Error.Status"}},
	&model.KeepsFuncFact{Params: []int{0, 2}},
	&model.DelayParamFact{Param: 2, Site: "retry loop at publish.go:281", Local: true, ClientErrors: true, Specific: true, Probe: true, Grows: true, Next: [3]string{"github.com/jpillora/backoff", "Backoff", "Duration"}, Made: true},
	&admission.AdmitsFact{},
	&idempotency.KeyPlaceFact{Site: "retryablehttp.Client.Do at payments.go:43"},
	&hostlocal.LocalFact{Binds: true, Memory: true, Syncs: true, Runs: []int{0}},
	&hostlocal.DialsParamFact{Param: 1},
	&hostlocal.StreamParamFact{Param: 2},
	&model.FieldsFact{Writes: []string{"example.com/lookup.Client.next"}, Picks: []string{"example.com/lookup.Client.next"}},
	&waits.WaitFact{Pure: true, Jitters: true, Fixed: true, Blind: true, Terminal: true, Timeouts: []int{1}},
	&waits.RandomFact{Result: 1},
	&waits.CapFact{Params: []int{0, 1}, Const: true},
	&waits.MakerFact{},
	&rediscmd.CmdsFact{Cmds: []rediscmd.FactCmd{{Cmd: "GET", Kind: 1, KeyParam: 2, Site: "store.go:12"}, {Cmd: "INCR", Kind: 3, KeyParam: -1, KeyConst: "global", Site: "store.go:14"}}},
	&httpstatus.RespFact{Sets: []httpstatus.ParamHeaders{{Param: 0, Headers: []string{"Retry-After"}}}, SetsIfTrue: []httpstatus.ParamHeaders{{Param: 1, Headers: []string{"Retry-After"}}}, Writes: []httpstatus.FactWrite{{Param: 0, Status: 429, StatusParam: -1, Before: []string{"Retry-After"}, Site: "respond.go:20"}}},
	&respread.ReadFact{Headers: []string{"Retry-After"}, ParamStatuses: []respread.ParamStatus{{Param: 0, Statuses: []int{503}}}},
}

func TestFactsGobRoundTrip(t *testing.T) {
	byType := make(map[reflect.Type]analysis.Fact)
	for _, f := range factSamples {
		byType[reflect.TypeOf(f)] = f
	}
	var factTypes []analysis.Fact
	for _, a := range []*analysis.Analyzer{model.Analyzer, provenance.Analyzer, waits.Analyzer, sends.Analyzer, timeouts.Analyzer, breakers.Analyzer, rediscmd.Analyzer, httpstatus.Analyzer, respread.Analyzer, admission.Analyzer, hostlocal.Analyzer, libconfig.Analyzer, idempotency.Analyzer} {
		factTypes = append(factTypes, a.FactTypes...)
	}
	for _, ft := range factTypes {
		typ := reflect.TypeOf(ft)
		sample, ok := byType[typ]
		if !ok {
			t.Errorf("fact type %v has no sample in factSamples", typ)
			continue
		}
		v := reflect.ValueOf(sample).Elem()
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).IsZero() {
				t.Errorf("sample %v: field %s is zero; set every field so that the round trip covers it", typ, v.Type().Field(i).Name)
			}
		}
		roundTrip(t, sample)
	}
}

// roundTrip encodes a fact alone and as an interface value (as the
// drivers' fact files hold them) and checks both decode equal.
func roundTrip(t *testing.T, f analysis.Fact) {
	t.Helper()
	typ := reflect.TypeOf(f)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		t.Errorf("%v: encode: %v", typ, err)
		return
	}
	got := reflect.New(typ.Elem()).Interface().(analysis.Fact)
	if err := gob.NewDecoder(&buf).Decode(got); err != nil {
		t.Errorf("%v: decode: %v", typ, err)
		return
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("%v: round trip changed the fact:\n got %#v\nwant %#v", typ, got, f)
	}
	if s, ok := f.(interface{ String() string }); ok && s.String() != got.(interface{ String() string }).String() {
		t.Errorf("%v: String() differs after the round trip", typ)
	}

	gob.Register(f)
	type envelope struct {
		Object string
		Fact   analysis.Fact
	}
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(envelope{"F", f}); err != nil {
		t.Errorf("%v: encode as interface: %v", typ, err)
		return
	}
	var env envelope
	if err := gob.NewDecoder(&buf).Decode(&env); err != nil {
		t.Errorf("%v: decode as interface: %v", typ, err)
		return
	}
	if !reflect.DeepEqual(env.Fact, f) {
		t.Errorf("%v: interface round trip changed the fact:\n got %#v\nwant %#v", typ, env.Fact, f)
	}
}

// The facts the model really exports on the demo round-trip too, and the
// checker's own sanity check (encode, decode, re-encode identically)
// passes for them.
func TestDemoFactsRoundTrip(t *testing.T) {
	pkgs := loadExamples(t)
	graph, err := checker.Analyze([]*analysis.Analyzer{model.Analyzer, breakers.Analyzer, sends.Analyzer, timeouts.Analyzer}, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[reflect.Type]int)
	for act := range graph.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, of := range act.AllObjectFacts() {
			seen[reflect.TypeOf(of.Fact)]++
			roundTrip(t, of.Fact)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[*model.RetryFact](), reflect.TypeFor[*breakers.BreakerFact](), reflect.TypeFor[*sends.SendFact](), reflect.TypeFor[*waits.WaitFact]()} {
		if seen[typ] == 0 {
			t.Errorf("the demo exports no %v: the test does not see real facts", typ)
		}
	}
	t.Logf("facts round-tripped: %v", seen)
}

// nogo runs each package's Analyzer as it is: no flag may be needed, and
// each must run alone (with only what it Requires) at its defaults.
func TestEachAnalyzerRunsWithDefaults(t *testing.T) {
	pkgs := loadExamples(t)
	for _, a := range []*analysis.Analyzer{retrynesting.Analyzer, decoratororder.Analyzer, idempotency.Analyzer, timeoutchain.Analyzer, backoff.Analyzer, ratelimit.Analyzer} {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if f.Value.String() != f.DefValue {
				t.Errorf("%s: flag -%s is %q, not its default %q", a.Name, f.Name, f.Value, f.DefValue)
			}
		})
		if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, act := range graph.Roots {
			if act.Err != nil {
				t.Errorf("%s: %v", act, act.Err)
			}
			n += len(act.Diagnostics)
		}
		if n == 0 && a != timeoutchain.Analyzer {
			t.Errorf("%s alone at its defaults reports nothing on the demo", a.Name)
		}
	}
	// And the suite as a whole validates (no fact type claimed twice, no
	// cycle) with the wrapped copies beside the originals' Requires.
	if err := analysis.Validate(analyzers.All()); err != nil {
		t.Error(err)
	}
}

func loadExamples(t *testing.T) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "..", Tests: false}
	pkgs, err := packages.Load(cfg, "./examples/...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) == 0 {
		t.Fatal("examples do not load")
	}
	return pkgs
}
