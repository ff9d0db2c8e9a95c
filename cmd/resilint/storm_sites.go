package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/resilint/resilint/analyzers/retrysites"
	"github.com/resilint/resilint/runtime/retry"
	"github.com/resilint/resilint/sim"
)

// The assumptions made where the code does not say (stated in the report).
const (
	assumedAttempts = 10
	assumedBase     = retry.DefaultBaseDelay
	assumedMax      = retry.DefaultMaxDelay
	maxSimLayers    = 8
)

// siteClient is a client made from a retry site of the code.
type siteClient struct {
	client *sim.Client
	about  string
	calls  int64
}

// siteClients loads pkgs and makes a client of each top-level retry site
// (only the one at site, file.go:line, if set; then nested sites count too),
// at most maxSites of them, those with the most calls first. It also
// returns notes for the user (sites left out).
func siteClients(pkgs []string, site string, maxSites int) ([]siteClient, []string, error) {
	sites, err := retrysites.Load("", pkgs)
	if err != nil {
		return nil, nil, err
	}
	if site != "" {
		i := strings.LastIndexByte(site, ':')
		file, line := site[:i], site[i+1:]
		n, _ := strconv.Atoi(line)
		var found *retrysites.Site
		var walk func(s *retrysites.Site, depth int)
		walk = func(s *retrysites.Site, depth int) {
			if found != nil || depth > maxSimLayers {
				return
			}
			if s.Line == n && (s.File == file || filepath.Base(s.File) == filepath.Base(file) && strings.HasSuffix(s.File, filepath.Clean(file))) {
				found = s
				return
			}
			for _, in := range s.Inner {
				if in.Site != nil {
					walk(in.Site, depth+1)
				}
			}
		}
		for _, s := range sites {
			walk(s, 0)
		}
		if found == nil {
			return nil, nil, fmt.Errorf("-site %s: no retry site there (resilint recognizes %d in %s)", site, len(sites), strings.Join(pkgs, " "))
		}
		sites = []*retrysites.Site{found}
	}
	var out []siteClient
	for _, s := range sites {
		out = append(out, siteToClient(s))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].calls > out[j].calls })
	var notes []string
	if len(out) > maxSites {
		var left []string
		for _, c := range out[maxSites:] {
			left = append(left, c.client.Name)
		}
		notes = append(notes, fmt.Sprintf("%d retry sites found; simulating the %d with the most calls (-max-sites); left out: %s", len(out), maxSites, strings.Join(left, ", ")))
		out = out[:maxSites]
	}
	return out, notes, nil
}

// siteToClient makes the chain of retry layers one execution of s goes
// through: s, then the worst inner retry of each layer.
func siteToClient(s *retrysites.Site) siteClient {
	c := &sim.Client{Name: s.Pos + " " + s.What}
	var about []string
	seen := map[*retrysites.Site]bool{}
	cur := s
	for depth := 0; cur != nil; depth++ {
		if depth == maxSimLayers {
			c.Notes = append(c.Notes, fmt.Sprintf("nesting deeper than %d layers: the inner ones are not simulated", maxSimLayers))
			break
		}
		seen[cur] = true
		layer, text, notes := siteLayer(cur)
		c.Layers = append(c.Layers, layer)
		about = append(about, text)
		c.Notes = append(c.Notes, notes...)
		if len(cur.Inner) == 0 {
			break
		}
		in := cur.Inner[0]
		if len(cur.Inner) > 1 {
			var also []string
			for _, x := range cur.Inner[1:] {
				also = append(also, innerName(x))
			}
			c.Notes = append(c.Notes, fmt.Sprintf("an attempt of %s also reaches %s; one chain is simulated, the worst: %s", cur.Pos, strings.Join(also, ", "), innerName(in)))
		}
		if in.Site != nil && !seen[in.Site] {
			cur = in.Site
			continue
		}
		// A retrying function of another package: its fact gives its calls,
		// not its delays.
		n := in.Calls
		p := retry.Policy{MaxAttempts: int(n), Idempotent: true}
		if n <= 0 {
			p.MaxAttempts = assumedAttempts
			c.Notes = append(c.Notes, fmt.Sprintf("%s: calls per invocation unknown; assumed %d", innerName(in), assumedAttempts))
		}
		c.Layers = append(c.Layers, sim.Layer{Policy: p})
		about = append(about, fmt.Sprintf("%s: %d calls", innerName(in), p.MaxAttempts))
		c.Notes = append(c.Notes, fmt.Sprintf("%s: its waits are not known here (only its call count crosses packages); assumed runtime/retry's default (full jitter from %v, capped at %v)", innerName(in), assumedBase, assumedMax))
		break
	}
	return siteClient{client: c, about: strings.Join(about, "; inside it: "), calls: s.Calls}
}

func innerName(in *retrysites.Inner) string {
	if in.Site != nil {
		return in.Site.Pos + " " + in.Site.What
	}
	if in.Where != "" {
		return in.Callee + " (" + in.Where + ")"
	}
	return in.Callee
}

var jitters = map[string]retry.Jitter{"none": retry.JitterNone, "equal": retry.JitterEqual, "full": retry.JitterFull}

// siteLayer makes one retry layer of a site: the layer, a description and
// the assumptions made.
func siteLayer(s *retrysites.Site) (sim.Layer, string, []string) {
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, s.Pos+": "+fmt.Sprintf(format, args...)) }
	p := retry.Policy{MaxAttempts: int(s.Attempts), Idempotent: true}
	if s.Attempts <= 0 {
		p.MaxAttempts = assumedAttempts
		note("no constant attempt bound; assumed %d attempts", assumedAttempts)
	}
	l := sim.Layer{}
	text := fmt.Sprintf("%s at %s, %d attempts", s.What, s.Pos, p.MaxAttempts)
	jit := s.Jitter
	switch jit {
	case "seeded":
		note("jitter drawn from a constant-seeded source: every process draws the same delays; simulated as full jitter per client, which understates the synchrony")
		jit = "full"
	case "unknown":
		note("jitter unknown (a helper the model cannot see into); assumed none")
		jit = "none"
	}
	switch {
	case len(s.Delays) > 0 && jit == "none":
		l.Schedule = s.Delays
		text += ", waits " + durs(s.Delays) + " as written (" + s.DelayText + "), no jitter"
	case len(s.Delays) > 0:
		p.Jitter, p.BaseDelay, p.MaxDelay = jitters[jit], s.Delays[0], maxDur(s.Delays)
		text += fmt.Sprintf(", %s jitter below caps %s (%s)", jit, durs(s.Delays), s.DelayText)
	case s.DelayText != "":
		p.Jitter, p.BaseDelay, p.MaxDelay = jitters[jit], assumedBase, assumedMax
		if s.Exponential {
			note("the wait %s is not made of constants; it grows exponentially (as the model reads it): assumed %v doubling to %v, %s", s.DelayText, assumedBase, assumedMax, jitterText(jit))
		} else {
			p.MaxDelay = assumedBase
			note("the wait %s is not made of constants and does not grow exponentially (as the model reads it): assumed a fixed %v, %s", s.DelayText, assumedBase, jitterText(jit))
		}
		text += fmt.Sprintf(", waits not read (%s), %s", s.DelayText, jitterText(jit))
	case s.Library:
		p.BaseDelay, p.MaxDelay = assumedBase, assumedMax
		if s.NoJitterConfig != "" {
			p.Jitter = retry.JitterNone
			note("library waits not read; configured without jitter (%s); assumed %v doubling to %v", s.NoJitterConfig, assumedBase, assumedMax)
			text += ", no jitter (" + s.NoJitterConfig + ")"
		} else {
			note("library waits not read by the model; assumed runtime/retry's default (full jitter from %v, capped at %v)", assumedBase, assumedMax)
			text += ", library waits not read"
		}
	default:
		l.Schedule = []time.Duration{0}
		text += ", no wait between attempts"
	}
	if s.Immediate && len(l.Schedule) == 0 || s.Immediate && l.Schedule[0] != 0 {
		note("some attempts follow the failed one at once; simulated with the waits above")
	}
	l.Policy = p
	return l, text, notes
}

func durs(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.String())
	}
	return strings.Join(s, ", ")
}

func maxDur(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func jitterText(j string) string {
	if j == "none" {
		return "no jitter"
	}
	return j + " jitter"
}
