package bgcallers

import (
	"context"
	"net/http"
)

type poster struct{ rt http.RoundTripper }

func newPost(url string) *http.Request {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		panic(err)
	}
	return req
}

func (p *poster) roundTrip(ctx context.Context, req *http.Request) error {
	resp, err := p.rt.RoundTrip(req.WithContext(ctx))
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// post is given only requests made by http.NewRequest, whose context is
// Background: a context of its own drops nothing.
func (p *poster) post(req *http.Request) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return p.roundTrip(ctx, req)
}

func (p *poster) Send(url string) error { return p.post(newPost(url)) }

// The near miss: postFor is also given a request that carries a caller's
// context.
func (p *poster) postFor(req *http.Request) error {
	ctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of req.Context\(\)`
	defer cancel()
	return p.roundTrip(ctx, req)
}

func (p *poster) SendFor(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	if err := p.postFor(newPost(url)); err != nil {
		return err
	}
	return p.postFor(req)
}
