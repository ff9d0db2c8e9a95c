package detach

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// tokenSource refreshes its token later, under the context it was made
// with.
type tokenSource struct {
	ctx context.Context
	url string
}

func (s *tokenSource) token() (string, error) { return s.url, s.ctx.Err() }

func newTokenSource(ctx context.Context, url string) *tokenSource {
	return &tokenSource{ctx: ctx, url: url}
}

func dialSource(ctx context.Context, url string) (*tokenSource, error) {
	return &tokenSource{ctx: ctx, url: url}, ctx.Err()
}

type authorizer struct {
	mu  sync.Mutex
	src *tokenSource
}

// The source outlives this call: it is kept in a field, and refreshes
// after the request is over. Its context is its own.
func (a *authorizer) authorize(ctx context.Context, url string) error {
	src := newTokenSource(context.Background(), url)
	a.mu.Lock()
	a.src = src
	a.mu.Unlock()
	return ctx.Err()
}

func (a *authorizer) authorizeField(ctx context.Context, url string) {
	a.src = newTokenSource(context.Background(), url)
}

// The near misses. A constructor that can fail with its context's error
// runs under it.
func (a *authorizer) authorizeDial(ctx context.Context, url string) error {
	src, err := dialSource(context.Background(), url) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if err != nil {
		return err
	}
	a.src = src
	return nil
}

// The source is also used at once, within the request.
func (a *authorizer) authorizeAndFetch(ctx context.Context, url string) (string, error) {
	src := newTokenSource(context.Background(), url) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	a.src = src
	return src.token()
}

// feed reads a long-lived streamed response: Connect opens it, Next reads
// it after Connect has returned.
type feed struct {
	body io.ReadCloser
}

func openStream(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// The stream outlives Connect: its body is kept in a field, read by
// Next. The caller's context would cut it once Connect's caller is done;
// the call's own context governs it.
func (f *feed) Connect(ctx context.Context, url string) error {
	res, err := openStream(context.Background(), url)
	if err != nil {
		return err
	}
	f.body = res.Body
	return nil
}

func (f *feed) Next(p []byte) (int, error) { return f.body.Read(p) }

// The near miss: the body is read at once, within the call.
func (f *feed) Fetch(ctx context.Context, url string) ([]byte, error) {
	res, err := openStream(context.Background(), url) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	return io.ReadAll(res.Body)
}
