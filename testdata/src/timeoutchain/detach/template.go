package detach

import (
	"context"
	"errors"
	"net/http"
)

// A client that prepares the requests its user configured once, with
// the headers every call sends, and sends a copy per call. The helper
// given a configured request re-homes its copy under a context of its
// own: the request is no server's, its context whatever its maker gave
// it. Not reported.
type poster struct {
	client    *http.Client
	templates []*http.Request
}

type posterConfig struct {
	Client    *http.Client
	Endpoints []*http.Request
}

func newPoster(cfg posterConfig) *poster {
	p := &poster{client: cfg.Client}
	for _, e := range cfg.Endpoints {
		p.templates = append(p.templates, prepare(e))
	}
	return p
}

func prepare(t *http.Request) *http.Request {
	r := t.Clone(context.Background())
	r.Header.Set("Content-Type", "application/json")
	return r
}

func (p *poster) post() error {
	for _, t := range p.templates {
		resp, err := p.client.Do(again(t))
		if err != nil {
			continue
		}
		return resp.Body.Close()
	}
	return errors.New("no endpoint answered")
}

func again(t *http.Request) *http.Request {
	r := t.Clone(context.Background())
	r.Header.Set("X-Sent", "again")
	return r
}

// The near miss: a handler's request carries the server's context, which
// ends when the client goes away; its copy sent on under a new one
// outlives it.
func forward(w http.ResponseWriter, r *http.Request) {
	out := r.Clone(context.Background()) // want `context.Background\(\) drops`
	resp, err := http.DefaultClient.Do(out)
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	resp.Body.Close()
}

type signer interface {
	Token(ctx context.Context) (string, error)
}

// The near miss: the request's context, given up for another call.
func sign(req *http.Request, s signer) error {
	tok, err := s.Token(context.Background()) // want `context.Background\(\) drops`
	if err != nil {
		return err
	}
	if tok == "" {
		return errors.New("no token")
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}
