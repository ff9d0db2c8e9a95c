// Reductions of the corpus's wrong and disputed findings: small shapes,
// written here, of what real modules do (the ledger names the modules and
// lines). Each should stay silent; the suite at the commit that made the
// ledger reports every one of them. For the model's near-miss fixtures.
// Not compiled with the repository (testdata); `go vet` clean on its own.
package reductions

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var ErrExists = errors.New("exists")

func create(ctx context.Context, key string) error { return nil }
func send(ctx context.Context) error               { return nil }

// A1: the loop consumes its input; a failed parse moves on to the next block.
func firstKey(data []byte) (any, error) {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return nil, errors.New("no key")
		}
		if k, err := x509.ParsePKCS8PrivateKey(b.Bytes); err == nil {
			return k, nil
		}
	}
}

// A1: a decode loop, an iterator, that hands each error to the consumer.
func each(dec *json.Decoder) func(yield func(map[string]any, error) bool) {
	return func(yield func(map[string]any, error) bool) {
		for {
			var v map[string]any
			err := dec.Decode(&v)
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(v, err) {
				return
			}
		}
	}
}

// A2: a fresh key each pass; repeats only on a conflict.
func uniqueKey(ctx context.Context, prefix string) (string, error) {
	for {
		key := fmt.Sprintf("%s/%d", prefix, time.Now().UnixNano())
		err := create(ctx, key)
		if err == nil {
			return key, nil
		}
		if !errors.Is(err, ErrExists) {
			return "", err
		}
	}
}

// A3: the POST is on the success path of a readiness poll; its failure returns.
func startAndRegister(c *http.Client, base string) error {
	for i := 0; i < 10; i++ {
		resp, err := c.Get(base + "/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				r, err := c.Post(base+"/nodes", "application/json", nil)
				if err != nil {
					return err
				}
				r.Body.Close()
				break
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil
}

// B1: bounded by stop channels in the wait.
func reconnect(dial func() error, stop, closed <-chan struct{}) error {
	for {
		if err := dial(); err == nil {
			return nil
		}
		select {
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
		case <-stop:
			return errors.New("stopped")
		case <-closed:
			return errors.New("closed")
		}
	}
}

// B2: ended by another goroutine through an atomic flag.
type pool struct{ closedFlag atomic.Bool }

func (p *pool) dial() error { return nil }
func (p *pool) probe() {
	for {
		if p.closedFlag.Load() {
			return
		}
		if err := p.dial(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return
	}
}

// B3: the context is checked inside a helper.
func halt(ctx context.Context, err error) bool {
	return ctx.Err() != nil || !errors.Is(err, io.ErrUnexpectedEOF)
}
func once(ctx context.Context) (int, error) { return 0, nil }
func keepAliveOnce(ctx context.Context) (int, error) {
	for {
		v, err := once(ctx)
		if err == nil {
			return v, nil
		}
		if halt(ctx, err) {
			return 0, err
		}
	}
}

// B4: bounded by a timer polled without blocking.
func commitLoop(commit func() error, unknown func(error) bool) error {
	deadline := time.NewTimer(2 * time.Minute)
	defer deadline.Stop()
	for {
		err := commit()
		if err == nil || !unknown(err) {
			return err
		}
		select {
		case <-deadline.C:
			return errors.New("timed out")
		default:
		}
	}
}

// C: the wait goes through a sleeper given as a parameter.
type sleeper func(context.Context, time.Duration) error

func invoke(ctx context.Context, call func() error, sp sleeper) error {
	for {
		err := call()
		if err == nil {
			return nil
		}
		if err := sp(ctx, time.Second); err != nil {
			return err
		}
	}
}

// D: a test helper outside a _test.go file.
func WaitReady(t testing.TB, addr string) error {
	t.Helper()
	for i := 0; i < 50; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("not ready")
}

// E1: a context type whose purpose is to drop cancellation.
type detached struct {
	context.Context
	vals context.Context
}

func (d detached) Value(k any) any { return d.vals.Value(k) }
func Detach(ctx context.Context) context.Context {
	return detached{Context: context.Background(), vals: ctx}
}

// E1: Background only compared, then a merged context cancelled by hand.
func merge(a, b context.Context) (context.Context, context.CancelFunc) {
	bg := context.Background()
	if a == bg {
		return b, func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-a.Done():
		case <-b.Done():
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx, cancel
}

// E2: deferred cleanup with its own bound.
func withTemp(ctx context.Context, remove func(context.Context, string) error) (err error) {
	id := "tmp"
	if err := create(ctx, id); err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err = errors.Join(err, remove(cctx, id))
	}()
	return send(ctx)
}

// E3: a dial shared with other waiters must not die with one caller.
type conn struct{}
type waiter struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan *conn
}

func (p *pool) dialFor(w *waiter) { w.ch <- &conn{} }
func (p *pool) get(ctx context.Context) (*conn, error) {
	dctx, cancel := context.WithCancel(context.Background())
	w := &waiter{ctx: dctx, cancel: cancel, ch: make(chan *conn, 1)}
	go p.dialFor(w)
	select {
	case c := <-w.ch:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// E4: a stored closure runs later, not under New's ctx.
type Conn interface{ Close(context.Context) error }
type Pool struct{ destroy func(Conn) }

func New(ctx context.Context) *Pool {
	return &Pool{destroy: func(c Conn) {
		cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		c.Close(cctx)
	}}
}

// F: the method is a constant at the caller, passed to a generic send.
type Client struct {
	hc   *http.Client
	base string
}

func (c *Client) do(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}
func (c *Client) Get(ctx context.Context, key string) (*http.Response, error) {
	return c.do(ctx, http.MethodGet, "/kv/"+key)
}
func (c *Client) request(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/location", nil)
}
func (c *Client) Watch(ctx context.Context, key string) error {
	for i := 0; i < 3; i++ {
		resp, err := c.Get(ctx, key)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		req, err := c.request(ctx)
		if err != nil {
			return err
		}
		if resp, err := c.hc.Do(req); err == nil {
			resp.Body.Close()
		}
		if err := pause(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// pause waits a jittered, capped delay or until ctx is done.
func pause(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(rand.Int64N(int64(100*time.Millisecond) << min(attempt, 6))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// G1: the inner client is built never to retry.
type inner struct{ retries int }

func newInner() *inner { return &inner{retries: 0} }
func (c *inner) Do(ctx context.Context) error {
	var err error
	for i := 0; i <= c.retries; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		if err := pause(ctx, i); err != nil {
			return err
		}
	}
	return err
}

type outer struct{ in *inner }

func newOuter() *outer { return &outer{in: newInner()} }
func (o *outer) Do(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = o.in.Do(ctx); err == nil {
			return nil
		}
		if err := pause(ctx, i); err != nil {
			return err
		}
	}
	return err
}

// G3: an error-unwrapping loop is not a retry.
type causer interface{ Cause() error }

func Cause(err error) error {
	for err != nil {
		c, ok := err.(causer)
		if !ok {
			break
		}
		err = c.Cause()
	}
	return err
}

// A2: a listener on port 0 opened again after an address-in-use race:
// each pass the kernel picks another port, and nothing remote is retried.
func listenAny(open func(port int) (net.Listener, error), tries int) (net.Listener, error) {
	var err error
	for range tries {
		var l net.Listener
		if l, err = open(0); err == nil {
			return l, nil
		}
	}
	return nil, err
}

// A4: a status poll of a long-running operation: the loop waits for a
// state, not for a failure to pass, under a deadline.
type opState struct{ Phase string }

func awaitPhase(ctx context.Context, get func(context.Context) (opState, error), every, limit time.Duration) error {
	pctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for {
		s, err := get(pctx)
		if err != nil {
			return err
		}
		if s.Phase == "Ready" {
			return nil
		}
		select {
		case <-time.After(every):
		case <-pctx.Done():
			return pctx.Err()
		}
	}
}

// B5: a reconnect loop meant to run until Close, which sets a flag under
// a mutex; a method reads it after every failed attempt.
type listener struct {
	mu       sync.Mutex
	isClosed bool
}

func (l *listener) closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.isClosed
}
func (l *listener) connect() error { return nil }
func (l *listener) run(min, max time.Duration) {
	d := min
	for {
		if err := l.connect(); err == nil {
			return
		}
		if l.closed() {
			return
		}
		time.Sleep(d + rand.N(d))
		d *= 2
		if d > max {
			d = max
		}
	}
}

// H1: a retry library's own convenience for a policy the caller names:
// the caller chose a constant delay; jitter is the library's opt-in wrapper.
type Policy interface{ Next() (time.Duration, bool) }
type constPolicy time.Duration

func (p constPolicy) Next() (time.Duration, bool) { return time.Duration(p), false }
func Do(ctx context.Context, p Policy, f func(context.Context) error) error {
	for {
		err := f(ctx)
		if err == nil {
			return nil
		}
		d, stop := p.Next()
		if stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}
func Constant(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	return Do(ctx, constPolicy(d), f)
}

// H2: proportional jitter, a random factor around 1, is a deliberate
// policy (not a fixed part plus a random part to argue over).
func scaledDelay(base time.Duration, try int) time.Duration {
	d := base * time.Duration(1<<min(try, 20)-1)
	return time.Duration(float64(d) * (0.8 + rand.Float64()/2))
}

// C2: the wait is an interface method; the package's only implementation
// waits a jittered delay (or gives up at the ctx deadline).
type waiter2 interface {
	WaitOrSkip(ctx context.Context, attempt int, err error) bool
}
type jitterWaiter struct{}

func (jitterWaiter) WaitOrSkip(ctx context.Context, attempt int, err error) bool {
	d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 10)))
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

type wireClient struct {
	w    waiter2
	call func(context.Context) error
}

// A5: the one immediate resend is on the client's own sentinel for a
// connection that reached its lifetime: nothing failed, the next pass gets
// a fresh connection.
var errExpired = errors.New("connection expired")

func (c *wireClient) Do(ctx context.Context) (err error) {
	attempts := 1
retry:
	err = c.call(ctx)
	if err == errExpired {
		goto retry
	}
	if err != nil && c.w.WaitOrSkip(ctx, attempts, err) {
		attempts++
		goto retry
	}
	return err
}

// A1: a recursive reader: on a chunk marker it calls itself to copy the
// next chunk; it consumes the stream, it does not retry.
var errMoreChunks = errors.New("chunked")

func copyChunks(r io.ByteReader, w io.Writer, readChunk func(io.ByteReader, io.Writer) (int64, error)) (int64, error) {
	n, err := readChunk(r, w)
	if err == errMoreChunks {
		m, err := copyChunks(r, w, readChunk)
		return n + m, err
	}
	return n, err
}

// B2: the loop condition reads the stop flag Close sets; the wait polls it too.
type refresher struct{ stop atomic.Uint32 }

func (r *refresher) refreshRound() error { return nil }
func (r *refresher) pause(d time.Duration) {
	for d > 0 && r.stop.Load() == 0 {
		s := min(d, 20*time.Millisecond)
		time.Sleep(s)
		d -= s
	}
}
func (r *refresher) refreshLoop() {
	for n := 0; r.stop.Load() == 0; n++ {
		if err := r.refreshRound(); err == nil {
			return
		}
		r.pause(time.Duration(rand.Int64N(int64(time.Millisecond) << min(n, 10))))
	}
}

// A6: the inner loop is one round over a list of instances, each visited
// once (a fail-over), not a retry nested in the outer one.
func roundOverAll(addrs []string, try func(string) error) error {
	var err error
	for _, a := range addrs {
		if err = try(a); err == nil {
			return nil
		}
	}
	return err
}

// K1: the chain to another retry crosses a go statement: the inner retry
// runs in its own goroutine, not inside the outer attempt.
type sinkish struct{ draining atomic.Bool }

func (s *sinkish) initID(ctx context.Context) error {
	for i := 0; ; i++ {
		if err := send(ctx); err == nil {
			return nil
		}
		if err := pause(ctx, i); err != nil {
			return err
		}
	}
}
func (s *sinkish) drain() { _ = s.initID(context.Background()) }
func (s *sinkish) maybeDrain() {
	if s.draining.CompareAndSwap(false, true) {
		go s.drain()
	}
}
func (s *sinkish) addToTxn(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		s.maybeDrain()
		if err := send(ctx); err == nil {
			return nil
		}
		if err := pause(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// A7 (disputed): a protocol fallback: the server resets the connection on
// a handshake version it does not know; the next tries reconnect, the last
// downgrades the request.
var errVersionReset = errors.New("reset on version probe")

func handshake(dial func(version int) error) error {
	for tries := 1; ; tries++ {
		version := 4
		if tries >= 3 {
			version = 0
		}
		err := dial(version)
		if errors.Is(err, errVersionReset) && tries < 3 {
			continue
		}
		return err
	}
}

// H3 (disputed): waiting out a state of this client's own session at the
// server (one writer per id), with a small base and floors that grow with
// the time stalled: no fleet fails together here.
var errConcurrent = errors.New("concurrent transactions")

func withConcurrent(ctx context.Context, base time.Duration, fn func() error) error {
	start := time.Now()
	d := base
	for {
		err := fn()
		if !errors.Is(err, errConcurrent) {
			return err
		}
		if time.Since(start) > time.Second && d < 200*time.Millisecond {
			d = 200 * time.Millisecond
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return err
		}
	}
}

// D: a shared acceptance suite in a non-test file (the package imports
// testing and is run by other packages' tests); its helper takes no t.
func RunPublishTests(t *testing.T, publish func(string) error) {
	if err := publishAgain(publish, "topic"); err != nil {
		t.Fatal(err)
	}
}
func publishAgain(publish func(string) error, topic string) error {
	for left := 5; ; left-- {
		err := publish(topic)
		if err == nil || left == 1 {
			return err
		}
	}
}

// L1 (disputed): a retrying decorator in an internal package that only
// the module's own tests construct: no user can reach it.
type publisherIface interface{ Publish(string) error }
type retryPublisher struct {
	pub   publisherIface
	max   int
	first time.Duration
}

func newRetryPublisher(p publisherIface) *retryPublisher {
	return &retryPublisher{pub: p, max: 5, first: time.Second}
}
func (p *retryPublisher) send(topic string) error {
	var err error
	d := p.first
	for i := 0; i < p.max; i++ {
		if err = p.pub.Publish(topic); err == nil {
			return nil
		}
		time.Sleep(d)
		d *= 2
	}
	return err
}

// H5 (disputed): a start-up-only subscribe, one per process, retried at a
// fixed interval until it works or the server stops; the client library
// reconnects by itself afterwards.
func subscribeAtStart(subscribe func() (<-chan string, error), done <-chan struct{}) <-chan string {
	for {
		ch, err := subscribe()
		if err == nil {
			return ch
		}
		select {
		case <-time.After(5 * time.Second):
		case <-done:
			return nil
		}
	}
}

// E5: a context from Background only drives a ticker goroutine and is
// cancelled by the function's own defer; the loop selects on the caller's
// ctx.Done() and returns, which stops the ticks.
func pollUntil(ctx context.Context, every time.Duration, cond func(context.Context) (bool, error)) error {
	tickCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := make(chan struct{})
	go func() {
		defer close(ticks)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-tickCtx.Done():
				return
			case <-t.C:
				select {
				case ticks <- struct{}{}:
				case <-tickCtx.Done():
					return
				}
			}
		}
	}()
	for {
		select {
		case _, open := <-ticks:
			ok, err := cond(ctx)
			if err != nil || ok {
				return err
			}
			if !open {
				return errors.New("timed out")
			}
		case <-ctx.Done():
			return errors.New("timed out")
		}
	}
}

// C3: time.Sleep reached only when ctx.Done() is nil (a context that can
// never be cancelled); a cancellable ctx takes the select.
func retryWith(ctx context.Context, op func() error, next func() (time.Duration, bool)) error {
	for {
		err := op()
		if err == nil {
			return nil
		}
		d, ok := next()
		if !ok {
			return err
		}
		if done := ctx.Done(); done != nil {
			t := time.NewTimer(d)
			select {
			case <-done:
				t.Stop()
				return err
			case <-t.C:
				continue
			}
		}
		time.Sleep(d)
	}
}

// C4: the loop's ctx is Background (it cannot be cancelled); the wait
// selects on the worker's stop channel, which is what ends it.
type processor struct{ stopC chan struct{} }

func (p *processor) resend(ctx context.Context, pages func(context.Context) error, lost func(error) bool) error {
	d := 100 * time.Millisecond
	for {
		err := pages(ctx)
		if err == nil || !lost(err) {
			return err
		}
		t := time.NewTimer(d + rand.N(d))
		select {
		case <-p.stopC:
			t.Stop()
			return err
		case <-t.C:
		}
		d = min(2*d, 5*time.Second)
	}
}
func (p *processor) complete(pages func(context.Context) error, lost func(error) bool) error {
	return p.resend(context.Background(), pages, lost)
}

// A1: a receive loop that drops a value that fails to decode and takes
// the next one: it consumes the channel, it does not retry.
func receiveValid(ch <-chan []byte, decode func([]byte) (any, error)) (any, bool) {
	for {
		b, ok := <-ch
		if !ok {
			return nil, false
		}
		v, err := decode(b)
		if err != nil {
			continue
		}
		return v, true
	}
}

// A1: an incremental read: a "need more" sentinel means the buffer holds
// no complete header yet; the next pass peeks one byte more than is
// buffered, which blocks on the connection until it arrives.
var errNeedMore = errors.New("need more data")

func readHeader(r *bufio.Reader, parse func([]byte) error) error {
	n := 1
	for {
		b, err := r.Peek(n)
		if err != nil {
			return err
		}
		err = parse(b)
		if err == nil {
			return nil
		}
		if err != errNeedMore {
			return err
		}
		n = r.Buffered() + 1
	}
}

// L1: binding a listener pair on a port the kernel picks, again at once
// after an address-in-use race: every attempt stays on this host.
func bindPair() (net.Listener, net.PacketConn, error) {
	var err error
	for range 10 {
		var l net.Listener
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			continue
		}
		var p net.PacketConn
		if p, err = net.ListenPacket("udp", l.Addr().String()); err == nil {
			return l, p, nil
		}
		l.Close()
	}
	return nil, nil, err
}

// L2: the delay lives in a handler of a list run between attempts.
type hooks struct{ list []func(*call) }

func (h *hooks) run(c *call) {
	for _, f := range h.list {
		f(c)
	}
}

type call struct {
	afterRetry hooks
	retryable  bool
	send       func() error
}

func (c *call) do() error {
	for {
		err := c.send()
		if err == nil {
			return nil
		}
		c.afterRetry.run(c)
		if !c.retryable {
			return err
		}
	}
}

// L3: one more try around a retrying call, only after the server said
// the account is gone and it was made again.
type problemErr struct{ kind string }

func (p *problemErr) Error() string { return p.kind }

func obtain(ctx context.Context, fetch, recreate func(context.Context) error) error {
	var err error
	for range 2 {
		if err = fetch(ctx); err == nil {
			return nil
		}
		var p *problemErr
		if errors.As(err, &p) && p.kind == "accountDoesNotExist" {
			if err := recreate(ctx); err != nil {
				return err
			}
			continue
		}
		return err
	}
	return err
}

// L4: resends only on 401 while another goroutine refreshes the token
// (no-jitter wrong; the sleep that ignores the request's context is
// disputed, and still reported).
func sendAuthed(hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for range 3 {
		resp, err = hc.Do(req)
		if resp == nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return resp, err
}
