package storetest

import (
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resilint/resilint/runtime/idempotency"
)

// Duplicates is how many concurrent duplicates RunExactlyOnce and
// RunOutage fire at once, and how many more they send one after another.
const Duplicates = 24

// counter is a handler that counts its executions per key and answers each
// with a body no other execution could produce.
type counter struct {
	mu    sync.Mutex
	runs  map[string]int
	enter func(key string) // called on entry, if set
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get(idempotency.DefaultHeader)
	c.mu.Lock()
	c.runs[key]++
	n := c.runs[key]
	c.mu.Unlock()
	if c.enter != nil {
		c.enter(key)
	}
	body, _ := io.ReadAll(r.Body)
	id := rand.Text() // unique per execution: a replay must carry the first one's
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Order-Id", id)
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"order":%q,"execution":%d,"request":%q}`, id, n, body)
}

func (c *counter) count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs[key]
}

// response is what a client saw.
type response struct {
	status   int
	order    string
	replayed string
	body     string
	err      error
}

func (r response) String() string {
	return fmt.Sprintf("%d %q (order %q, replayed %q, err %v)", r.status, r.body, r.order, r.replayed, r.err)
}

func post(client *http.Client, url, key, body string) response {
	req, err := http.NewRequest(http.MethodPost, url+"/orders", strings.NewReader(body))
	if err != nil {
		return response{err: err}
	}
	req.Header.Set(idempotency.DefaultHeader, key)
	resp, err := client.Do(req)
	if err != nil {
		return response{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{
		status:   resp.StatusCode,
		order:    resp.Header.Get("X-Order-Id"),
		replayed: resp.Header.Get(idempotency.ReplayedHeader),
		body:     string(b),
		err:      err,
	}
}

func serve(t *testing.T, cfg idempotency.Config, h http.Handler) (*httptest.Server, *http.Client) {
	t.Helper()
	if cfg.Scope == nil {
		cfg.Scope = func(*http.Request) string { return "storetest" }
	}
	mw, err := idempotency.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mw.Wrap(h))
	t.Cleanup(srv.Close)
	tr := &http.Transport{MaxIdleConnsPerHost: Duplicates}
	t.Cleanup(tr.CloseIdleConnections)
	return srv, &http.Client{Transport: tr, Timeout: time.Minute}
}

// fire sends n duplicates at once and returns their responses on a channel
// as they come.
func fire(client *http.Client, url, key, body string, n int) <-chan response {
	out := make(chan response, n)
	for range n {
		go func() { out <- post(client, url, key, body) }()
	}
	return out
}

// RunExactlyOnce is the proof: it fires Duplicates concurrent duplicates
// of one request, then Duplicates more one after another, at a handler
// that counts its executions, through the middleware with store, over
// HTTP. The handler must run exactly once per key and every duplicate must
// get the first response back, status, header and body, marked as a
// replay. It runs the two ways a duplicate can meet a request still in
// progress: answered 409 at once, and waiting for the first to finish.
func RunExactlyOnce(t *testing.T, store idempotency.Store) {
	t.Run("NoWait", func(t *testing.T) {
		gate := make(chan struct{})
		started := make(chan struct{})
		var once sync.Once
		h := &counter{runs: map[string]int{}, enter: func(string) {
			once.Do(func() { close(started) })
			<-gate
		}}
		srv, client := serve(t, idempotency.Config{Store: store, Required: true}, h)
		openGate := sync.OnceFunc(func() { close(gate) })
		t.Cleanup(openGate) // before the server closes, should the test fail
		key, body := idempotency.NewKey(), `{"amount":100}`

		results := fire(client, srv.URL, key, body, Duplicates)
		// One request claims the key and is held at the gate inside the
		// handler; every other one must be turned away with 409 before the
		// gate opens.
		for range Duplicates - 1 {
			r := recv(t, results)
			if r.err != nil || r.status != http.StatusConflict || !strings.Contains(r.body, "still being processed") || r.order != "" {
				t.Errorf("a duplicate during the first request got %v; want 409 Conflict", r)
			}
		}
		wait(t, started)
		openGate()
		first := recv(t, results)
		if first.err != nil || first.status != http.StatusCreated || first.replayed != "" {
			t.Fatalf("the first request got %v; want 201 Created, not a replay", first)
		}
		checkReplays(t, client, srv.URL, key, body, first)
		if n := h.count(key); n != 1 {
			t.Fatalf("the handler ran %d times for one key; want exactly once", n)
		}
	})

	t.Run("Wait", func(t *testing.T) {
		gate := make(chan struct{})
		started := make(chan struct{})
		var once sync.Once
		h := &counter{runs: map[string]int{}, enter: func(string) {
			once.Do(func() { close(started) })
			<-gate
		}}
		srv, client := serve(t, idempotency.Config{
			Store: store, WaitTimeout: time.Minute, PollInterval: time.Millisecond,
		}, h)
		openGate := sync.OnceFunc(func() { close(gate) })
		t.Cleanup(openGate) // before the server closes, should the test fail
		key, body := idempotency.NewKey(), `{"amount":200}`

		results := fire(client, srv.URL, key, body, Duplicates)
		wait(t, started)
		openGate()
		var first *response
		var all []response
		for range Duplicates {
			r := recv(t, results)
			if r.err != nil || r.status != http.StatusCreated {
				t.Fatalf("a concurrent duplicate got %v; want 201 Created", r)
			}
			if r.replayed == "" {
				if first != nil {
					t.Fatalf("two responses are not replays: %v and %v", *first, r)
				}
				first = &r
			}
			all = append(all, r)
		}
		if first == nil {
			t.Fatal("every response is a replay; one must be the first execution")
		}
		for _, r := range all {
			if r.order != first.order || r.body != first.body {
				t.Errorf("a duplicate got %v; want the first response %v", r, *first)
			}
		}
		checkReplays(t, client, srv.URL, key, body, *first)
		if n := h.count(key); n != 1 {
			t.Fatalf("the handler ran %d times for one key; want exactly once", n)
		}
	})
}

// stuck bounds every wait of these tests, so that a broken store fails
// them instead of hanging them.
const stuck = time.Minute

func recv(t *testing.T, results <-chan response) response {
	t.Helper()
	select {
	case r := <-results:
		return r
	case <-time.After(stuck):
		t.Fatalf("no response after %v", stuck)
		panic("unreachable")
	}
}

func wait(t *testing.T, started <-chan struct{}) {
	t.Helper()
	select {
	case <-started:
	case <-time.After(stuck):
		t.Fatalf("the handler did not start within %v", stuck)
	}
}

// checkReplays sends Duplicates sequential duplicates and checks that each
// gets first's response back, marked as a replay.
func checkReplays(t *testing.T, client *http.Client, url, key, body string, first response) {
	t.Helper()
	for i := range Duplicates {
		r := post(client, url, key, body)
		if r.err != nil || r.status != first.status || r.order != first.order || r.body != first.body || r.replayed != "true" {
			t.Fatalf("sequential duplicate %d got %v; want a replay of %v", i, r, first)
		}
	}
}

// RunOutage checks that the middleware never runs the handler twice, nor
// runs it without a record, when the store goes away: stop must make store
// unreachable (close the Redis server, cut the connection). A request whose
// handler is running when the store goes away still gets its response;
// after that, duplicates of every request and new requests alike get 503
// with a body that says why.
func RunOutage(t *testing.T, store idempotency.Store, stop func()) {
	var stopOnce sync.Once
	h := &counter{runs: map[string]int{}, enter: func(key string) {
		if strings.HasPrefix(key, "stop-") {
			stopOnce.Do(stop) // the store goes away while the handler runs
		}
	}}
	srv, client := serve(t, idempotency.Config{
		Store: store, Required: true, StoreTimeout: 5 * time.Second, WaitTimeout: time.Second, PollInterval: time.Millisecond,
	}, h)
	done, during, fresh := "done-"+idempotency.NewKey(), "stop-"+idempotency.NewKey(), "new-"+idempotency.NewKey()
	body := `{"amount":300}`

	if r := post(client, srv.URL, done, body); r.status != http.StatusCreated {
		t.Fatalf("the request before the outage got %v; want 201", r)
	}
	if r := post(client, srv.URL, during, body); r.status != http.StatusCreated || r.replayed != "" {
		t.Fatalf("the request during which the store went away got %v; want its 201", r)
	}
	for _, key := range []string{done, during, fresh} {
		results := fire(client, srv.URL, key, body, Duplicates)
		for range Duplicates {
			checkUnavailable(t, recv(t, results))
		}
		for range Duplicates {
			checkUnavailable(t, post(client, srv.URL, key, body))
		}
	}
	for key, want := range map[string]int{done: 1, during: 1, fresh: 0} {
		if n := h.count(key); n != want {
			t.Errorf("the handler ran %d times for key %s; want %d", n, key, want)
		}
	}
}

func checkUnavailable(t *testing.T, r response) {
	t.Helper()
	if r.err != nil || r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, "idempotency store unavailable; the request was not processed") {
		t.Errorf("a request while the store is down got %v; want 503 Service Unavailable saying why", r)
	}
}
