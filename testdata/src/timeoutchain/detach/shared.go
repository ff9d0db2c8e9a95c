package detach

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"
)

type schema struct{ fields []string }

func loadSchema(ctx context.Context) (*schema, error) { return &schema{}, ctx.Err() }

// A closure run once for every caller to come: a request's context there
// would cache that request's cancellation for them all.
type registry struct {
	once sync.Once
	s    *schema
	err  error
}

func (r *registry) schema(ctx context.Context) (*schema, error) {
	r.once.Do(func() { r.s, r.err = loadSchema(context.Background()) })
	return r.s, r.err
}

type lazyRegistry struct {
	get func() (*schema, error)
}

func newLazy(ctx context.Context) *lazyRegistry {
	return &lazyRegistry{get: sync.OnceValues(func() (*schema, error) { return loadSchema(context.Background()) })}
}

// One load for all the callers waiting at the time.
type shared struct{ group singleflight.Group }

func (s *shared) schema(ctx context.Context) (*schema, error) {
	v, err, _ := s.group.Do("schema", func() (any, error) { return loadSchema(context.Background()) })
	if err != nil {
		return nil, err
	}
	return v.(*schema), nil
}

// A cache of this package that keeps what its function returns in a
// field, for every later caller.
type memo struct {
	mu   sync.Mutex
	done bool
	s    *schema
	err  error
}

func (m *memo) get(fill func() (*schema, error)) (*schema, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.done {
		m.s, m.err = fill()
		m.done = true
	}
	return m.s, m.err
}

type plugin struct{ cache memo }

func (p *plugin) schema(ctx context.Context) (*schema, error) {
	return p.cache.get(func() (*schema, error) { return loadSchema(context.Background()) })
}

// The near misses. A helper that runs its function and returns what it
// returned keeps nothing: the closure runs for this caller alone.
func run(f func() (*schema, error)) (*schema, error) {
	s, err := f()
	return s, err
}

func (p *plugin) schemaNow(ctx context.Context) (*schema, error) {
	return run(func() (*schema, error) { return loadSchema(context.Background()) }) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
