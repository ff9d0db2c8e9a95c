package detach

import (
	"context"
	"errors"
	"net/http"

	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// A probe counts what the calls it made recorded: the reader collects
// from the process's own meter provider, nothing leaves the process.
// Not reported.
func probeRecorded(ctx context.Context, target string) (bool, error) {
	mr := metric.NewManualReader()
	provider := metric.NewMeterProvider(metric.WithReader(mr))
	defer provider.Shutdown(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return false, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, err
	}
	resp.Body.Close()
	var rm metricdata.ResourceMetrics
	if err := mr.Collect(context.Background(), &rm); err != nil {
		return false, err
	}
	return len(rm.ScopeMetrics) > 0, nil
}

// The near miss: flushing a periodic reader hands the measurements to
// its exporter, a call to a collector the caller's deadline no longer
// bounds.
func flushRecorded(ctx context.Context, r *metric.PeriodicReader) error {
	if r == nil {
		return errors.New("no reader")
	}
	return r.ForceFlush(context.Background()) // want `context.Background\(\) drops`
}
