package check

import (
	"fmt"
	"strings"

	"github.com/resilint/resilint/mesh/config"
	"github.com/resilint/resilint/mesh/routes"
)

// HostRoute is what the mesh does to the requests for one host through
// one route: the data of a routes.Route, with where it comes from.
type HostRoute struct {
	routes.Route
	// Kind is "VirtualService", "RouteConfiguration" (Envoy), or the
	// resource that put the host in the mesh when Istio's default applies
	// ("DestinationRule", "Service").
	Kind string
	Name string // the resource's name
	Pos  config.Position
}

// Routes returns, for every host the configuration names, what the mesh
// does to a request for it, worst route first for each host: the retries
// of its VirtualService's HTTP routes (Istio's default when a route
// configures none), of an Envoy virtual host's routes (by domain), and
// Istio's default for hosts that are in the mesh (a DestinationRule, a
// Kubernetes Service) without a VirtualService.
func Routes(s *config.Set) []HostRoute {
	var out []HostRoute
	routed := map[string]bool{}
	for _, vs := range s.VirtualServices {
		if !AppliesToSidecars(vs.Spec) {
			continue
		}
		var hosts []string
		for _, h := range vs.Spec.GetHosts() {
			if h = FQDN(h, vs.Namespace); h != "" && !strings.Contains(h, "*") {
				hosts = append(hosts, h)
			}
		}
		best := HostRoute{Kind: "VirtualService", Name: vs.Name, Pos: vs.Pos}
		for i, h := range vs.Spec.GetHttp() {
			if len(h.GetRoute()) == 0 {
				continue
			}
			r := RouteRetry(vs, i)
			hr := HostRoute{Kind: "VirtualService", Name: vs.Name, Pos: r.Pos}
			hr.Tries = r.Tries()
			hr.Default = r.Default
			hr.Policy = policyText(r)
			hr.Where = lineOf(r.Pos)
			if unsafe := UnsafeRetryOn(r.RetryOn); r.Retries > 0 && len(unsafe) > 0 && len(istioServesUnkeyed(h)) > 0 {
				hr.Resends = strings.Join(unsafe, ",")
			}
			if hr.Tries > best.Tries || hr.Tries == best.Tries && best.Resends == "" && hr.Resends != "" {
				best = hr
			}
		}
		if best.Tries == 0 {
			continue
		}
		for _, h := range hosts {
			b := best
			b.Host = h
			out = append(out, b)
			routed[h] = true
		}
	}
	for _, rc := range s.Routes {
		for i, vh := range rc.Config.GetVirtualHosts() {
			best := HostRoute{Kind: "RouteConfiguration", Name: rc.Name, Pos: rc.Fields.Pos("virtual_hosts", i)}
			best.Tries, best.Policy, best.Where = 1, "no retries", lineOf(best.Pos)
			for j, rt := range vh.GetRoutes() {
				if rt.GetRoute() == nil {
					continue
				}
				r, ok := EnvoyRouteRetry(rc, i, j)
				if !ok || r.Retries+1 <= best.Tries {
					continue
				}
				best.Tries = r.Retries + 1
				best.Policy = fmt.Sprintf("%d retries on %s", r.Retries, r.RetryOn)
				best.Where = lineOf(r.Pos)
				best.Pos = r.Pos
				best.Resends = ""
				if unsafe := UnsafeRetryOn(r.RetryOn); len(unsafe) > 0 && len(envoyServesUnkeyed(rt.GetMatch())) > 0 {
					best.Resends = strings.Join(unsafe, ",")
				}
			}
			for _, d := range vh.GetDomains() {
				h := FQDN(d, "")
				if h == "" || strings.Contains(h, "*") || routed[h] {
					continue
				}
				b := best
				b.Host = h
				out = append(out, b)
			}
		}
	}
	// Hosts in the mesh with no route of their own: Istio's default.
	def := func(host, kind, name string, pos config.Position) {
		if host == "" || strings.Contains(host, "*") || routed[host] {
			return
		}
		routed[host] = true
		hr := HostRoute{Kind: kind, Name: name, Pos: pos}
		hr.Host = host
		hr.Tries = IstioDefaultRetries + 1
		hr.Default = true
		hr.Policy = fmt.Sprintf("%d retries on %s(503), Istio's default: no VirtualService", IstioDefaultRetries, IstioDefaultRetryOn)
		hr.Where = lineOf(pos)
		hr.Resends = "retriable-status-codes(503)"
		out = append(out, hr)
	}
	for _, dr := range s.DestinationRules {
		def(FQDN(dr.Spec.GetHost(), dr.Namespace), "DestinationRule", dr.Name, dr.Pos)
	}
	for _, svc := range s.Services {
		def(FQDN(svc.Name, svc.Namespace), "Service", svc.Name, svc.Pos)
	}
	return out
}

func policyText(r IstioRetry) string {
	switch {
	case r.Retries == 0:
		return "no retries (attempts: 0)"
	case r.Default:
		return fmt.Sprintf("%d retries on %s(503), Istio's default: no retries configured", r.Retries, r.RetryOn)
	}
	return fmt.Sprintf("%d retries on %s", r.Retries, r.RetryOn)
}

// Table makes the routes the analyzers read from the routes of a
// configuration.
func Table(hrs []HostRoute) *routes.Table {
	rs := make([]routes.Route, len(hrs))
	for i, h := range hrs {
		rs[i] = h.Route
	}
	return routes.NewTable(rs)
}

// lineOf is "file:line", for messages.
func lineOf(p config.Position) string {
	p.Column = 0
	return p.String()
}
