// Package report draws the storm simulator's results: SVG plots made with
// gonum.org/v1/plot (downstream calls per second over time, one line per
// client, the outage, recovery and crashes marked; attempts per logical
// request) and a self-contained HTML report and a Markdown report with the
// table and the plots.
package report

import (
	"bytes"
	"fmt"
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/resilint/resilint/sim"
)

// size of the plots.
const (
	width  = 9 * vg.Inch
	height = 4.5 * vg.Inch
)

// CallsSVG plots the downstream calls per second over time, one line per
// result, with the outage's start (grey, dashed), the recovery (green,
// dashed), a shared store's outage (blue, dashed) and the times the
// dependency fell over (black) marked.
func CallsSVG(s *sim.Scenario, rs []*sim.Result) ([]byte, error) {
	return Calls(s, rs, "svg")
}

// Calls is CallsSVG in another format of gonum's: "svg", "png", "pdf".
func Calls(s *sim.Scenario, rs []*sim.Result, format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: downstream calls per second", s.Name)
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "calls / s"
	p.Legend.Top = true
	var ymax, xmax float64
	for i, r := range rs {
		res := r.Resolution.Seconds()
		xy := make(plotter.XYs, 0, len(r.Series)+1)
		for j, b := range r.Series {
			v := float64(b.Calls) / res
			xy = append(xy, plotter.XY{X: float64(j) * res, Y: v})
			ymax = max(ymax, v)
		}
		if len(xy) == 0 {
			continue
		}
		xmax = max(xmax, xy[len(xy)-1].X+res)
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.2)
		l.StepStyle = plotter.PostStep
		p.Add(l)
		p.Legend.Add(r.Client, l)
	}
	if ymax == 0 {
		ymax = 1
	}
	mark := func(at time.Duration, c color.Color, dashed bool, label string) error {
		l, err := plotter.NewLine(plotter.XYs{{X: at.Seconds(), Y: 0}, {X: at.Seconds(), Y: ymax * 1.05}})
		if err != nil {
			return err
		}
		l.Color = c
		l.Width = vg.Points(1)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		if label != "" {
			p.Legend.Add(label, l)
		}
		return nil
	}
	grey := color.Gray{Y: 110}
	if o := s.Downstream.Outage; o.Duration > 0 {
		if err := mark(o.Start, grey, true, "outage starts"); err != nil {
			return nil, err
		}
		if err := mark(o.End(), color.RGBA{G: 140, A: 255}, true, "recovery"); err != nil {
			return nil, err
		}
	}
	if o := s.Downstream.StoreOutage; o.Duration > 0 {
		if err := mark(o.Start, color.RGBA{B: 200, A: 255}, true, "store down"); err != nil {
			return nil, err
		}
		if err := mark(o.End(), color.RGBA{B: 200, A: 255}, true, ""); err != nil {
			return nil, err
		}
	}
	crashLabel := "dependency falls over"
	for _, r := range rs {
		for _, c := range r.Crashes {
			if err := mark(c, color.Black, false, crashLabel); err != nil {
				return nil, err
			}
			crashLabel = ""
		}
	}
	p.X.Min, p.X.Max = 0, max(xmax, 1)
	p.Y.Min, p.Y.Max = 0, ymax*1.1
	return render(p, format)
}

// AttemptsSVG plots, per result, the share of logical requests that made
// each number of attempts.
func AttemptsSVG(s *sim.Scenario, rs []*sim.Result) ([]byte, error) {
	return Attempts(s, rs, "svg")
}

// Attempts is AttemptsSVG in another format of gonum's.
func Attempts(s *sim.Scenario, rs []*sim.Result, format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: attempts per logical request", s.Name)
	p.X.Label.Text = "attempts"
	p.Y.Label.Text = "share of requests"
	p.Legend.Top = true
	xmax := 1.0
	for i, r := range rs {
		var n int64
		for _, c := range r.AttemptsHist {
			n += c
		}
		if n == 0 {
			continue
		}
		xy := make(plotter.XYs, 0, len(r.AttemptsHist))
		for k := 1; k < len(r.AttemptsHist); k++ {
			xy = append(xy, plotter.XY{X: float64(k), Y: float64(r.AttemptsHist[k]) / float64(n)})
		}
		if len(xy) == 0 {
			continue
		}
		xmax = max(xmax, xy[len(xy)-1].X)
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		pts.Color = plotutil.Color(i)
		pts.Shape = draw.CircleGlyph{}
		p.Add(l, pts)
		p.Legend.Add(r.Client, l, pts)
	}
	p.X.Min, p.X.Max = 0.5, xmax+0.5
	p.Y.Min, p.Y.Max = 0, 1.05
	return render(p, format)
}

func render(p *plot.Plot, format string) ([]byte, error) {
	w, err := p.WriterTo(width, height, format)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
