// Package metric is a stub of OpenTelemetry's metric SDK for tests: a
// meter provider aggregates measurements in memory, a reader collects
// them, an exporter sends them on.
package metric

import (
	"context"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

type Reader interface {
	Collect(ctx context.Context, rm *metricdata.ResourceMetrics) error
}

type ManualReader struct{ last metricdata.ResourceMetrics }

func NewManualReader() *ManualReader { return &ManualReader{} }

func (mr *ManualReader) Collect(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	*rm = mr.last
	return nil
}

type Exporter interface {
	Export(ctx context.Context, rm *metricdata.ResourceMetrics) error
}

type PeriodicReader struct {
	exp  Exporter
	last metricdata.ResourceMetrics
}

func NewPeriodicReader(exp Exporter) *PeriodicReader { return &PeriodicReader{exp: exp} }

func (r *PeriodicReader) Collect(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	*rm = r.last
	return nil
}

func (r *PeriodicReader) ForceFlush(ctx context.Context) error {
	return r.exp.Export(ctx, &r.last)
}

type Option interface{ apply() }

type readerOption struct{ r Reader }

func (readerOption) apply() {}

func WithReader(r Reader) Option { return readerOption{r} }

type MeterProvider struct{ readers []Reader }

func NewMeterProvider(opts ...Option) *MeterProvider { return &MeterProvider{} }

func (p *MeterProvider) Shutdown(ctx context.Context) error { return ctx.Err() }
