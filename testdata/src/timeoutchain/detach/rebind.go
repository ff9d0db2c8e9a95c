package detach

import "context"

// Once the peer answered, the rest is processed whatever the caller does:
// the function puts its caller's context aside by name, for everything
// that follows. Not reported.
func (w *worker) settle(ctx context.Context) error {
	if err := w.work(ctx); err != nil {
		return err
	}
	ctx = context.Background()
	return w.work(ctx)
}

// The near miss: TODO is a placeholder, not a choice.
func (w *worker) settleLater(ctx context.Context) error {
	if err := w.work(ctx); err != nil {
		return err
	}
	ctx = context.TODO() // want `context.TODO\(\) drops`
	return w.work(ctx)
}
