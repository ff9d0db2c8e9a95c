// Package loops holds hand-written loops: the retries the model must
// recognize, with their attempt counts (as facts on the enclosing
// function), and the near misses it must not take for retries.
package loops

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

func call() error                              { return nil }
func callCtx(ctx context.Context) error        { return nil }
func get() (*http.Response, error)             { return nil, nil }
func fetch(id int) (string, error)             { return "", nil }
func sleep()                                   { time.Sleep(time.Millisecond) }
func isRetryable(err error) bool               { return true }
func list(token string) ([]int, string, error) { return nil, "", nil }
func pop() (int, error)                        { return 0, nil }
func handle(int)                               {}
func ready() (bool, error)                     { return false, nil } // want ready:"never true"

var errTransient = errors.New("transient")

const maxAttempts = 4

var retries = 2 // a constant bound (provenance.ConstFact; asserted in testdata/src/provenance)

var mutable = 3

func bump() { mutable++ }

// ---- retries -------------------------------------------------------------

func classic() error { // want classic:`retries\(3\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		sleep()
	}
	return err
}

func rangeInt() error { // want rangeInt:`retries\(5\)`
	var err error
	for range 5 {
		err = call()
		if err == nil {
			break
		}
	}
	return err
}

func rangeIntKey() (err error) { // want rangeIntKey:`retries\(4\)`
	for attempt := range maxAttempts {
		if err = call(); err != nil {
			time.Sleep(time.Duration(attempt) * time.Second)
			continue
		}
		return nil
	}
	return err
}

func infiniteWithBreak() error { // want infiniteWithBreak:`retries\(4\)`
	attempt := 0
	for {
		attempt++
		err := call()
		if err == nil {
			return nil
		}
		if attempt >= maxAttempts {
			return err
		}
		sleep()
	}
}

func countAfterCheck() error { // want countAfterCheck:`retries\(3\)`
	attempts := 0
	for {
		err := call()
		if err == nil {
			break
		}
		attempts++
		if attempts == 3 {
			return err
		}
	}
	return nil
}

func zeroBasedInclusive() error { // want zeroBasedInclusive:`retries\(3\)`
	var lastErr error
	for i := 0; i <= retries; i++ {
		err := call()
		if err == nil {
			return nil
		}
		lastErr = err
	}
	return lastErr
}

func countDown() error { // want countDown:`retries\(3\)`
	var err error
	for n := 3; n > 0; n-- {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func continueOnError(ctx context.Context) (*http.Response, error) { // want continueOnError:`retries\(3\)`
	var lastErr error
	for i := 0; i < 3; i++ {
		resp, err := get()
		if err != nil {
			lastErr = err
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}

func httpStatus() (*http.Response, error) { // want httpStatus:`retries\(3\)`
	for attempt := 1; attempt <= 3; attempt++ {
		resp, err := get()
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if resp != nil {
			resp.Body.Close()
		}
		sleep()
	}
	return nil, errors.New("gave up")
}

func httpStatusSwitch() (*http.Response, error) { // want httpStatusSwitch:`retries\(2\)`
	for i := 0; i < 2; i++ {
		resp, err := get()
		if err != nil {
			continue
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			resp.Body.Close()
			continue
		}
		return resp, nil
	}
	return nil, io.EOF
}

func labeled() error { // want labeled:`retries\(3\)`
	var err error
retry:
	for i := 0; i < 3; i++ {
		for _, id := range []int{1, 2} {
			if _, err = fetch(id); err != nil {
				continue retry
			}
		}
		return nil
	}
	return err
}

func withGoto() error { // want withGoto:`retries\(3\)`
	attempt := 0
again:
	err := call()
	if err != nil && attempt < 2 {
		attempt++
		sleep()
		goto again
	}
	return err
}

func conditionTestsErr() error { // want conditionTestsErr:`retries\(4\)`
	i := 0
	var err error
	for err = call(); err != nil && i < 3; err = call() {
		i++
		sleep()
	}
	return err
}

func flagLoop() error { // want flagLoop:`retries\(3\)`
	done := false
	tries := 0
	var err error
	for !done && tries < 3 {
		tries++
		if err = call(); err == nil {
			done = true
		}
	}
	return err
}

func predicate() error { // want predicate:`retries\(3\)`
	var err error
	for i := 0; i < 3; i++ {
		err = call()
		if !isRetryable(err) {
			return err
		}
	}
	return err
}

func errorsIs() error { // want errorsIs:`retries\(6\)`
	for i := 0; ; i++ {
		err := call()
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errTransient) && i < 5:
			sleep()
		default:
			return err
		}
	}
}

func unbounded() error { // want unbounded:`retries\(\?\)`
	for {
		if err := call(); err == nil {
			return nil
		}
		sleep()
	}
}

func timeBounded(ctx context.Context) error { // want timeBounded:`retries\(\?\)`
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := callCtx(ctx); err == nil {
			return nil
		}
	}
	return errors.New("timeout")
}

func boundFromParam(n int) error { // want boundFromParam:`retries\(\?\)`
	var err error
	for i := 0; i < n; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func mutableBound() error { // want mutableBound:`retries\(\?\)`
	var err error
	for i := 0; i < mutable; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func inClosure() func() error {
	return func() error {
		var err error
		for i := 0; i < 3; i++ {
			if err = call(); err == nil {
				return nil
			}
		}
		return err
	}
}

func decodeToo() (string, error) { // want decodeToo:`retries\(3\)`
	for i := 0; i < 3; i++ {
		resp, err := get()
		if err != nil {
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			continue
		}
		return string(body), nil
	}
	return "", errors.New("failed")
}

// ---- not retries ----------------------------------------------------------

func pagination() ([]int, error) {
	var all []int
	token := ""
	for {
		items, next, err := list(token)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if next == "" {
			return all, nil
		}
		token = next
	}
}

func workQueue(ctx context.Context) {
	for ctx.Err() == nil {
		job, err := pop()
		if err != nil {
			sleep()
			continue
		}
		handle(job)
	}
}

func polling(ctx context.Context) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		ok, err := ready()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
}

func pollingTolerant(ctx context.Context) error {
	for {
		ok, err := ready()
		if err != nil {
			sleep()
			continue
		}
		if ok {
			return nil
		}
		sleep()
	}
}

func rangeItems(ids []int) error {
	for _, id := range ids {
		if _, err := fetch(id); err != nil {
			return err
		}
	}
	return nil
}

func rangeItemsSkip(ids []int) (out []string) {
	for _, id := range ids {
		s, err := fetch(id)
		if err != nil {
			continue
		}
		out = append(out, s)
	}
	return out
}

func failureReturns() error {
	for i := 0; i < 3; i++ {
		if err := call(); err != nil {
			return err
		}
	}
	return nil
}

func nothingFallible() int {
	n := 0
	for i := 0; i < 3; i++ {
		n += i
	}
	return n
}

func doThreeTimes() {
	for i := 0; i < 3; i++ {
		err := call()
		_ = err
	}
}

func reader(r io.Reader) error {
	buf := make([]byte, 512)
	for {
		_, err := r.Read(buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func consumer(ch <-chan int) {
	for v := range ch {
		if err := call(); err != nil {
			continue
		}
		handle(v)
	}
}

func fatalOnFailure() {
	for i := 0; i < 3; i++ {
		if err := call(); err != nil {
			panic(err)
		}
	}
}

func consumerFatalCheck() error {
	for {
		v, err := pop()
		if isRetryable(err) {
			return err
		}
		if err != nil {
			continue
		}
		handle(v)
	}
}

type batch struct{}

func (batch) readRecord() (string, error) { return "", nil }

type multi struct {
	batches []batch
	index   int
}

// Iterating over batches: the "failure" advances to the next one.
func (m *multi) next() (string, error) { // want next:`fields\(writes model/loops.multi.index; picks by model/loops.multi.index\)`
	for {
		if m.index == len(m.batches) {
			return "", io.EOF
		}
		r, err := m.batches[m.index].readRecord()
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, io.EOF) {
			return "", err
		}
		m.index++
	}
}

func decode(dst []byte, src []byte) ([]byte, error) { return nil, nil }

var errTooSmall = errors.New("too small")

// Adapting the input after each failure is a search, not a retry.
func growBuffer(src []byte) ([]byte, error) {
	size := 1024
	for {
		out, err := decode(make([]byte, 0, size), src)
		if !errors.Is(err, errTooSmall) || size >= 1<<20 {
			return out, err
		}
		size *= 2
	}
}

func lookup(name string) (string, error) { return "", nil }

func parentLookup(name string) (string, error) {
	for {
		v, err := lookup(name)
		if err == nil {
			return v, nil
		}
		i := len(name) - 1
		if i < 0 {
			return "", err
		}
		name = name[:i]
	}
}

// A write loop continues with what was written so far.
func writeAll(w io.Writer, b []byte) error {
	for len(b) > 0 {
		n, err := w.Write(b)
		b = b[n:]
		if err != nil && !errors.Is(err, io.ErrShortWrite) {
			return err
		}
	}
	return nil
}

// A reader hands every frame, error or not, to its consumer.
func readFrames(next func() ([]byte, error), out chan<- []byte, stop func(error) bool) {
	for {
		f, err := next()
		select {
		case out <- f:
		}
		if stop(err) {
			return
		}
	}
}

// Reading until the end of a stream.
func drain(r io.Reader) (n int64, err error) {
	buf := make([]byte, 1024)
	for {
		m, err := r.Read(buf)
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// A retry that passes the attempt number to the operation is still a retry.
func attemptArg() error { // want attemptArg:`retries\(3\)`
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = callN(attempt); err == nil {
			return nil
		}
	}
	return err
}

func callN(int) error { return nil }

// A retry with a growing per-attempt timeout is still a retry.
func growingTimeout(ctx context.Context) error { // want growingTimeout:`retries\(4\)`
	timeout := time.Second
	var err error
	for i := 0; i < 4; i++ {
		actx, cancel := context.WithTimeout(ctx, timeout)
		err = callCtx(actx)
		cancel()
		if err == nil {
			return nil
		}
		timeout *= 2
	}
	return err
}

type broker struct{}

func (*broker) send() error { return nil }

func leastLoaded() *broker { return nil }

// Walking candidates, each tried once, is a failover, not a retry.
func failover() error {
	for b := leastLoaded(); b != nil; b = leastLoaded() {
		if err := b.send(); err == nil {
			return nil
		}
	}
	return errors.New("no broker")
}

func stat(path string) error { return nil }
func dir(path string) string { return path }

// Walking up directories until a marker is found is a search.
func findRoot(d string) string {
	for {
		if err := stat(d + "/.git"); err == nil {
			return d
		}
		parent := dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}
