package search

import "context"

// fallback holds the candidates still to try, taken off one by one.
type fallback struct {
	st        kvStore
	remaining []string
}

// A queue kept in a field of the receiver that the loop takes each
// candidate off: each pass asks the next address.
func (f *fallback) pull(ctx context.Context, key string) ([]byte, error) {
	var lastErr error
	for len(f.remaining) > 0 {
		addr := f.remaining[0]
		f.remaining = f.remaining[1:]
		v, err := f.st.Get(ctx, addr, key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// The near miss: what is shortened is another value's queue; this one's
// head is asked every pass.
func (f *fallback) pullOther(ctx context.Context, key string, other *fallback) ([]byte, error) {
	var lastErr error
	for n := 0; n < 3 && len(f.remaining) > 0; n++ { // want `retry loop tries again at once after a failure`
		addr := f.remaining[0]
		other.remaining = f.remaining[1:]
		v, err := f.st.Get(ctx, addr, key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}
