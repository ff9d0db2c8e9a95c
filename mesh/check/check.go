package check

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	networking "istio.io/api/networking/v1alpha3"

	"github.com/resilint/resilint/mesh/config"
)

// Categories, the headings of docs/checks/mesh.md.
const (
	RetryBudget        = "retry-budget"
	RetryTimeout       = "retry-timeout"
	PerTryTimeout      = "per-try-timeout"
	RetryNonIdempotent = "retry-non-idempotent"
	PendingUnbounded   = "pending-unbounded"
	EjectionAll        = "ejection-all"
	EjectionThreshold  = "ejection-threshold"
)

// Defaults the checks rely on, with whose they are.
const (
	// Istio 1.32 (istio.io/api v1.32.0): a route without retries retries
	// twice on these conditions, 503 being the retriable status code.
	IstioDefaultRetries = 2
	IstioDefaultRetryOn = "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes"
	// Istio's connectionPool.http.maxRetries and http1MaxPendingRequests
	// when not set: 2^32-1, no limit.
	IstioUnlimited = math.MaxUint32
	// Istio's outlierDetection defaults.
	IstioDefaultMaxEjectionPercent = 10
	IstioDefaultConsecutive5xx     = 5
	// Envoy v3 (go-control-plane/envoy v1.40.0): a route's timeout when
	// not set, num_retries when a retry policy does not say, the
	// cluster's max_retries and max_pending_requests when not set.
	EnvoyDefaultRouteTimeout   = 15 * time.Second
	EnvoyDefaultNumRetries     = 1
	EnvoyDefaultMaxRetries     = 3
	EnvoyDefaultMaxPending     = 1024
	EnvoyDefaultMaxEjection    = 10
	EnvoyDefaultConsecutive5xx = 5
)

// unlimited is the value from which a limit is taken to be none: Istio's
// and Envoy's "unlimited" is 2^32-1, and anything over 2^31 is the same in
// practice.
const unlimited = math.MaxInt32

// A Finding is one problem in the mesh configuration.
type Finding struct {
	Pos      config.Position
	Category string
	Message  string
	Related  []Related
}

// Related is another place a finding concerns.
type Related struct {
	Pos     config.Position
	Message string
}

// Run runs every mesh check on s and returns the findings in file, line
// and column order.
func Run(s *config.Set) []Finding {
	c := &checker{set: s}
	for _, vs := range s.VirtualServices {
		c.virtualService(vs)
	}
	for _, dr := range s.DestinationRules {
		c.destinationRule(dr)
	}
	for _, rc := range s.Routes {
		c.routeConfig(rc)
	}
	for _, cl := range s.Clusters {
		c.cluster(cl)
	}
	slices.SortStableFunc(c.out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column), cmp.Compare(a.Message, b.Message))
	})
	return suppress(s, c.out)
}

// ignoreRE is a suppression comment in a manifest, with its reason:
// "# resilint:ignore mesh the gateway's retries are the only ones".
var ignoreRE = regexp.MustCompile(`#\s*resilint:ignore\s+(\S+)\s+\S`)

// suppress drops the findings silenced by a "# resilint:ignore mesh
// <reason>" comment on their line or the line above, as
// //resilint:ignore does in Go. A comment without a reason silences
// nothing.
func suppress(s *config.Set, fs []Finding) []Finding {
	lines := map[string][]string{}
	for _, f := range s.Files {
		lines[f.Name] = strings.Split(string(f.Data), "\n")
	}
	ignored := func(p config.Position) bool {
		ls := lines[p.File]
		for _, n := range []int{p.Line, p.Line - 1} {
			if n < 1 || n > len(ls) {
				continue
			}
			if m := ignoreRE.FindStringSubmatch(ls[n-1]); m != nil && slices.Contains(strings.Split(m[1], ","), "mesh") {
				return true
			}
		}
		return false
	}
	out := fs[:0]
	for _, f := range fs {
		if !ignored(f.Pos) {
			out = append(out, f)
		}
	}
	return out
}

type checker struct {
	set      *config.Set
	out      []Finding
	routed   map[string]bool
	drs      map[string]*config.DestinationRule // by FQDN host
	wildDRs  []*config.DestinationRule          // with a wildcard host
	clusters map[string]*config.Cluster         // by name
}

func (c *checker) report(pos config.Position, category, format string, args ...any) *Finding {
	c.out = append(c.out, Finding{Pos: pos, Category: category, Message: fmt.Sprintf(format, args...)})
	return &c.out[len(c.out)-1]
}

// AppliesToSidecars reports whether a VirtualService configures the
// sidecars (its gateways are none, or include "mesh").
func AppliesToSidecars(vs *networking.VirtualService) bool {
	return len(vs.GetGateways()) == 0 || slices.Contains(vs.GetGateways(), "mesh")
}

// IstioRetry is what a route's retries are, Istio's defaults applied.
type IstioRetry struct {
	Retries int             // retries after the first try
	RetryOn string          // the conditions
	PerTry  time.Duration   // 0: none
	Default bool            // no retries block: Istio's default applies
	Pos     config.Position // the retries block, or the route when Default
}

// Tries is the calls one request may make: the first and the retries.
func (r IstioRetry) Tries() int { return r.Retries + 1 }

// Describe words the policy: "3 retries on 5xx,reset at vs.yaml:14",
// "2 retries on connect-failure,... (Istio's default, no retries configured)".
func (r IstioRetry) Describe() string {
	if r.Default {
		return fmt.Sprintf("%d retries on %s(503) (Istio's default: no retries configured)", r.Retries, r.RetryOn)
	}
	return fmt.Sprintf("%d retries on %s", r.Retries, r.RetryOn)
}

// RouteRetry returns the retry policy of the HTTP route i of vs.
func RouteRetry(vs *config.VirtualService, i int) IstioRetry {
	h := vs.Spec.GetHttp()[i]
	r := h.GetRetries()
	if r == nil {
		return IstioRetry{Retries: IstioDefaultRetries, RetryOn: IstioDefaultRetryOn, Default: true, Pos: vs.Fields.Pos("http", i)}
	}
	out := IstioRetry{Retries: int(max(r.GetAttempts(), 0)), RetryOn: r.GetRetryOn(), Pos: vs.Fields.Pos("http", i, "retries")}
	if out.RetryOn == "" {
		out.RetryOn = IstioDefaultRetryOn
	}
	if r.GetPerTryTimeout() != nil {
		out.PerTry = r.GetPerTryTimeout().AsDuration()
	}
	return out
}

func (c *checker) virtualService(vs *config.VirtualService) {
	if !AppliesToSidecars(vs.Spec) && len(vs.Spec.GetHttp()) == 0 {
		return
	}
	for i, h := range vs.Spec.GetHttp() {
		if len(h.GetRoute()) == 0 {
			continue // a redirect, a direct response, a delegate
		}
		r := RouteRetry(vs, i)
		if r.Retries == 0 {
			continue
		}
		c.istioBudget(vs, i, r)
		c.istioTimeouts(vs, i, r)
		c.istioIdempotent(vs, i, r)
	}
}

// drFor returns the DestinationRule of an FQDN host: the one for that
// host, or else the first whose wildcard host covers it.
func (c *checker) drFor(host string) *config.DestinationRule {
	if c.drs == nil {
		c.drs = map[string]*config.DestinationRule{}
		for _, dr := range c.set.DestinationRules {
			h := FQDN(dr.Spec.GetHost(), dr.Namespace)
			if strings.Contains(h, "*") {
				c.wildDRs = append(c.wildDRs, dr)
			} else if c.drs[h] == nil {
				c.drs[h] = dr
			}
		}
	}
	if dr := c.drs[host]; dr != nil {
		return dr
	}
	for _, dr := range c.wildDRs {
		if hostMatch(FQDN(dr.Spec.GetHost(), dr.Namespace), host) {
			return dr
		}
	}
	return nil
}

// retryLimit reports whether a traffic policy (or one of its port or
// subset policies) limits concurrent retries, and where.
func retryLimit(dr *config.DestinationRule) bool {
	limits := func(tp *networking.TrafficPolicy) bool {
		if tp == nil {
			return false
		}
		if tp.GetRetryBudget() != nil {
			return true
		}
		if m := tp.GetConnectionPool().GetHttp().GetMaxRetries(); m > 0 && m < unlimited {
			return true
		}
		for _, p := range tp.GetPortLevelSettings() {
			if p.GetConnectionPool().GetHttp().GetMaxRetries() > 0 && p.GetConnectionPool().GetHttp().GetMaxRetries() < unlimited {
				return true
			}
		}
		return false
	}
	if limits(dr.Spec.GetTrafficPolicy()) {
		return true
	}
	for _, s := range dr.Spec.GetSubsets() {
		if limits(s.GetTrafficPolicy()) {
			return true
		}
	}
	return false
}

func (c *checker) istioBudget(vs *config.VirtualService, i int, r IstioRetry) {
	var missing []string
	var related []Related
	seen := map[string]bool{}
	for _, d := range vs.Spec.GetHttp()[i].GetRoute() {
		host := FQDN(d.GetDestination().GetHost(), vs.Namespace)
		if seen[host] {
			continue
		}
		seen[host] = true
		dr := c.drFor(host)
		if dr != nil && retryLimit(dr) {
			continue
		}
		missing = append(missing, host)
		if dr != nil {
			related = append(related, Related{Pos: dr.Fields.Pos("traffic_policy"), Message: "DestinationRule " + dr.Name + ": no retryBudget, no connectionPool.http.maxRetries"})
		}
	}
	if len(missing) == 0 {
		return
	}
	f := c.report(r.Pos, RetryBudget,
		"%s, and %s has no retry budget nor limit on concurrent retries (connectionPool.http.maxRetries unset: Istio's default %d, no limit): in an outage every request retries at once, up to %d× the load on a failing service; set trafficPolicy.retryBudget or connectionPool.http.maxRetries in its DestinationRule",
		retriesLead(r), strings.Join(missing, ", "), uint32(IstioUnlimited), r.Tries())
	f.Related = related
}

// retriesLead opens a finding with the route's retries, stating Istio's
// default when it is what applies.
func retriesLead(r IstioRetry) string {
	if r.Default {
		return fmt.Sprintf("no retries configured: Istio's default, %d retries on %s(503), applies", r.Retries, r.RetryOn)
	}
	return fmt.Sprintf("route retries %d times (%s)", r.Retries, r.RetryOn)
}

func (c *checker) istioTimeouts(vs *config.VirtualService, i int, r IstioRetry) {
	if r.Default {
		return // Istio's default has no per-try timeout: the retry-budget finding says the default applies
	}
	h := vs.Spec.GetHttp()[i]
	if r.PerTry == 0 {
		timeout := "no route timeout (Istio's default)"
		if h.GetTimeout() != nil {
			timeout = "the route timeout " + h.GetTimeout().AsDuration().String()
		}
		c.report(r.Pos, PerTryTimeout,
			"route retries %d times without perTryTimeout: each try may take %s, so a hung upstream is never retried and holds the request until then; set retries.perTryTimeout",
			r.Retries, timeout)
		return
	}
	if h.GetTimeout() == nil {
		return // Istio's default: no route timeout, every try fits
	}
	timeout := h.GetTimeout().AsDuration()
	if timeout <= 0 {
		return
	}
	need := r.PerTry * time.Duration(r.Tries())
	if timeout < need {
		f := c.report(vs.Fields.Pos("http", i, "timeout"), RetryTimeout,
			"route timeout %v is shorter than perTryTimeout %v × %d tries (%d retries + 1) = %v: the retries configured cannot all happen before the route gives up; raise the timeout or lower attempts or perTryTimeout",
			timeout, r.PerTry, r.Tries(), r.Retries, need)
		f.Related = []Related{{Pos: vs.Fields.Pos("http", i, "retries", "per_try_timeout"), Message: "perTryTimeout " + r.PerTry.String()}}
	}
}

// UnsafeRetryOn returns the conditions of a retryOn list under which a
// request that reached the upstream may be sent again: 5xx,
// gateway-error, reset, retriable-status-codes and status codes.
func UnsafeRetryOn(retryOn string) []string {
	var out []string
	for _, c := range strings.Split(retryOn, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "5xx", c == "gateway-error", c == "reset", c == "retriable-status-codes", c == "retriable-4xx":
			out = append(out, c)
		case len(c) == 3 && strings.Trim(c, "0123456789") == "":
			out = append(out, c)
		}
	}
	return out
}

var nonIdempotent = []string{"POST", "PATCH"}

// stringMatches reports whether an Istio StringMatch can match s.
func stringMatches(m *networking.StringMatch, s string, fold bool) bool {
	if m == nil {
		return true
	}
	eq := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	switch x := m.GetMatchType().(type) {
	case *networking.StringMatch_Exact:
		return eq(x.Exact, s)
	case *networking.StringMatch_Prefix:
		return len(s) >= len(x.Prefix) && eq(s[:len(x.Prefix)], x.Prefix)
	case *networking.StringMatch_Regex:
		re, err := regexp.Compile("^(?:" + x.Regex + ")$")
		return err != nil || re.MatchString(s)
	}
	return true
}

// IsIdempotencyHeader reports whether a header name is an idempotency
// key's (Idempotency-Key, as the IETF draft and the runtime name it).
func IsIdempotencyHeader(name string) bool {
	return strings.EqualFold(name, "idempotency-key")
}

// istioServesUnkeyed returns the methods of nonIdempotent that the route
// accepts without an idempotency-key header.
func istioServesUnkeyed(h *networking.HTTPRoute) []string {
	matches := h.GetMatch()
	if len(matches) == 0 {
		return nonIdempotent
	}
	var out []string
	for _, m := range nonIdempotent {
		for _, mr := range matches {
			keyed := false
			for name, v := range mr.GetHeaders() {
				if IsIdempotencyHeader(name) && v != nil {
					keyed = true
				}
			}
			if !keyed && stringMatches(mr.GetMethod(), m, false) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

func (c *checker) istioIdempotent(vs *config.VirtualService, i int, r IstioRetry) {
	unsafe := UnsafeRetryOn(r.RetryOn)
	if len(unsafe) == 0 {
		return
	}
	methods := istioServesUnkeyed(vs.Spec.GetHttp()[i])
	if len(methods) == 0 {
		return
	}
	at := r.Pos
	if !r.Default && vs.Fields.Has("http", i, "retries", "retry_on") {
		at = vs.Fields.Pos("http", i, "retries", "retry_on")
	}
	lead := fmt.Sprintf("retryOn %s", r.RetryOn)
	if r.Default {
		lead = fmt.Sprintf("no retries configured: Istio's default, %d retries on %s(503), applies:", r.Retries, r.RetryOn)
	}
	c.report(at, RetryNonIdempotent,
		"%s resends %s requests on %s, and this route serves %s without an idempotency-key header match: a request the upstream processed before failing is processed again (a double charge); retry only connect-failure,refused-stream,reset-before-request here, or route keyed requests apart",
		lead, strings.Join(methods, "/"), strings.Join(unsafe, ","), strings.Join(methods, "/"))
}

// routedHosts are the hosts some VirtualService routes for the sidecars.
func (c *checker) routedHosts() map[string]bool {
	if c.routed == nil {
		c.routed = map[string]bool{}
		for _, vs := range c.set.VirtualServices {
			if !AppliesToSidecars(vs.Spec) {
				continue
			}
			for _, h := range vs.Spec.GetHosts() {
				c.routed[FQDN(h, vs.Namespace)] = true
			}
		}
	}
	return c.routed
}

func (c *checker) destinationRule(dr *config.DestinationRule) {
	// A host with a DestinationRule and no VirtualService gets Istio's
	// default retries: the budget belongs in this rule.
	if host := FQDN(dr.Spec.GetHost(), dr.Namespace); !strings.Contains(host, "*") && !c.routedHosts()[host] && !retryLimit(dr) {
		c.report(dr.Fields.Pos("traffic_policy"), RetryBudget,
			"no VirtualService routes %s: Istio's default, %d retries on %s(503), applies, and it has no retry budget nor limit on concurrent retries (connectionPool.http.maxRetries unset: Istio's default %d, no limit): in an outage every request retries at once, up to %d× the load on a failing service; set trafficPolicy.retryBudget or connectionPool.http.maxRetries here",
			host, IstioDefaultRetries, IstioDefaultRetryOn, uint32(IstioUnlimited), IstioDefaultRetries+1)
	}
	c.istioPolicy(dr, dr.Spec.GetTrafficPolicy(), "traffic_policy")
	for i, s := range dr.Spec.GetSubsets() {
		c.istioPolicy(dr, s.GetTrafficPolicy(), "subsets", i, "traffic_policy")
	}
}

func (c *checker) istioPolicy(dr *config.DestinationRule, tp *networking.TrafficPolicy, path ...any) {
	if tp == nil {
		return
	}
	at := func(p ...any) config.Position { return dr.Fields.Pos(append(slices.Clone(path), p...)...) }
	if cp := tp.GetConnectionPool(); cp != nil {
		pending := cp.GetHttp().GetHttp1MaxPendingRequests()
		if pending <= 0 || pending >= unlimited {
			what := fmt.Sprintf("http1MaxPendingRequests unset: Istio's default %d", uint32(IstioUnlimited))
			if pending != 0 {
				what = fmt.Sprintf("http1MaxPendingRequests %d", pending)
			}
			c.report(at("connection_pool", "http", "http1_max_pending_requests"), PendingUnbounded,
				"connection pool of %s leaves the requests waiting for a connection unbounded (%s): when the upstream slows down, requests queue in the sidecar instead of failing fast, and the callers' timeouts and retries pile onto the queue; set connectionPool.http.http1MaxPendingRequests",
				dr.Spec.GetHost(), what)
		}
	}
	od := tp.GetOutlierDetection()
	if od == nil {
		return
	}
	maxEj := int(od.GetMaxEjectionPercent())
	maxEjText := fmt.Sprintf("maxEjectionPercent %d", maxEj)
	if !dr.Fields.Has(append(slices.Clone(path), "outlier_detection", "max_ejection_percent")...) {
		maxEj = IstioDefaultMaxEjectionPercent
		maxEjText = fmt.Sprintf("maxEjectionPercent unset: Istio's default %d%%", maxEj)
	}
	threshold, field := 0, ""
	switch {
	case od.GetConsecutive_5XxErrors() != nil:
		threshold, field = int(od.GetConsecutive_5XxErrors().GetValue()), "consecutive_5xx_errors"
	case od.GetConsecutiveErrors() > 0:
		threshold, field = int(od.GetConsecutiveErrors()), "consecutive_errors"
	}
	if g := od.GetConsecutiveGatewayErrors(); g != nil && g.GetValue() > 0 && (threshold == 0 || int(g.GetValue()) < threshold) {
		threshold, field = int(g.GetValue()), "consecutive_gateway_errors"
	}
	if maxEj >= 100 {
		panicText := "minHealthPercent unset: Istio's default 0, no panic routing"
		if od.GetMinHealthPercent() > 0 {
			panicText = fmt.Sprintf("minHealthPercent %d", od.GetMinHealthPercent())
		}
		f := c.report(at("outlier_detection", "max_ejection_percent"), EjectionAll,
			"outlier detection of %s may eject every endpoint (maxEjectionPercent %d, %s): when all endpoints fail together — a bad deploy, a shared dependency down — the pool is emptied and every request fails with 503 no healthy upstream, long after the cause is fixed; keep maxEjectionPercent well under 100 (Istio's default is %d)",
			dr.Spec.GetHost(), maxEj, panicText, IstioDefaultMaxEjectionPercent)
		if threshold > 0 && threshold <= 2 {
			f.Related = []Related{{Pos: at("outlier_detection", field), Message: "an endpoint is ejected after " + errorsText(threshold)}}
		}
		return
	}
	if threshold > 0 && threshold <= 2 && maxEj >= 50 {
		c.report(at("outlier_detection", field), EjectionThreshold,
			"outlier detection of %s ejects an endpoint after %s with %s: one bad deploy (or one slow dependency behind every endpoint) ejects %d%% of the endpoints within seconds and the rest take their load; eject after 5 or more errors (Istio's default consecutive5xxErrors is %d), or lower maxEjectionPercent",
			dr.Spec.GetHost(), errorsText(threshold), maxEjText, maxEj, IstioDefaultConsecutive5xx)
	}
}

// EnvoyRetry is an Envoy route's retry policy, Envoy's defaults applied.
type EnvoyRetry struct {
	Retries  int
	RetryOn  string
	PerTry   time.Duration
	Pos      config.Position
	Inherits bool // the virtual host's policy
}

// EnvoyRouteRetry returns the retry policy of route j of virtual host i,
// or false when the route does not retry.
func EnvoyRouteRetry(rc *config.RouteConfiguration, i, j int) (EnvoyRetry, bool) {
	vh := rc.Config.GetVirtualHosts()[i]
	rt := vh.GetRoutes()[j]
	p := rt.GetRoute().GetRetryPolicy()
	at := rc.Fields.Pos("virtual_hosts", i, "routes", j, "route", "retry_policy")
	inherits := false
	if p == nil {
		p, at, inherits = vh.GetRetryPolicy(), rc.Fields.Pos("virtual_hosts", i, "retry_policy"), true
	}
	if p == nil || p.GetRetryOn() == "" {
		return EnvoyRetry{}, false
	}
	r := EnvoyRetry{Retries: EnvoyDefaultNumRetries, RetryOn: p.GetRetryOn(), Pos: at, Inherits: inherits}
	if p.GetNumRetries() != nil {
		r.Retries = int(p.GetNumRetries().GetValue())
	}
	if p.GetPerTryTimeout() != nil {
		r.PerTry = p.GetPerTryTimeout().AsDuration()
	}
	return r, r.Retries > 0
}

func (c *checker) clusterNamed(name string) *config.Cluster {
	if c.clusters == nil {
		c.clusters = map[string]*config.Cluster{}
		for _, cl := range c.set.Clusters {
			if c.clusters[cl.Name] == nil {
				c.clusters[cl.Name] = cl
			}
		}
	}
	return c.clusters[name]
}

// defaultThresholds returns the DEFAULT-priority thresholds of a cluster
// and their index.
func defaultThresholds(cl *clusterv3.Cluster) (*clusterv3.CircuitBreakers_Thresholds, int) {
	for i, t := range cl.GetCircuitBreakers().GetThresholds() {
		if t.GetPriority() == 0 {
			return t, i
		}
	}
	return nil, -1
}

func (c *checker) routeConfig(rc *config.RouteConfiguration) {
	for i, vh := range rc.Config.GetVirtualHosts() {
		for j, rt := range vh.GetRoutes() {
			ra := rt.GetRoute()
			if ra == nil {
				continue
			}
			r, ok := EnvoyRouteRetry(rc, i, j)
			if !ok {
				continue
			}
			lead := fmt.Sprintf("route retries %d times (%s)", r.Retries, r.RetryOn)
			if r.Inherits {
				lead = fmt.Sprintf("route retries %d times (%s, the virtual host's policy)", r.Retries, r.RetryOn)
			}
			// retry-budget: a cluster whose concurrent retries are unlimited.
			for _, name := range routeClusters(ra) {
				cl := c.clusterNamed(name)
				if cl == nil {
					continue
				}
				t, ti := defaultThresholds(cl.Config)
				if t == nil || t.GetRetryBudget() != nil || t.GetMaxRetries() == nil || t.GetMaxRetries().GetValue() < unlimited {
					continue // Envoy's default max_retries (3) limits them
				}
				f := c.report(r.Pos, RetryBudget,
					"%s, and cluster %s allows unlimited concurrent retries (max_retries %d, no retry_budget): in an outage every request retries at once, up to %d× the load on a failing service; set a retry_budget (or keep max_retries small: Envoy's default is %d)",
					lead, name, t.GetMaxRetries().GetValue(), r.Retries+1, EnvoyDefaultMaxRetries)
				f.Related = []Related{{Pos: cl.Fields.Pos("circuit_breakers", "thresholds", ti, "max_retries"), Message: "max_retries of cluster " + name}}
			}
			// Timeouts.
			timeout, timeoutText := EnvoyDefaultRouteTimeout, fmt.Sprintf("route timeout unset: Envoy's default %v", EnvoyDefaultRouteTimeout)
			if ra.GetTimeout() != nil {
				timeout, timeoutText = ra.GetTimeout().AsDuration(), "route timeout "+ra.GetTimeout().AsDuration().String()
			}
			if r.PerTry == 0 {
				c.report(r.Pos, PerTryTimeout,
					"%s without per_try_timeout: each try may take the whole route timeout (%s), so a hung upstream is never retried and holds the request; set retry_policy.per_try_timeout",
					lead, timeoutText)
			} else if need := r.PerTry * time.Duration(r.Retries+1); timeout > 0 && timeout < need {
				at := rc.Fields.Pos("virtual_hosts", i, "routes", j, "route", "timeout")
				c.report(at, RetryTimeout,
					"%s is shorter than per_try_timeout %v × %d tries (%d retries + 1) = %v: the retries configured cannot all happen before the route gives up; raise the timeout or lower num_retries or per_try_timeout",
					timeoutText, r.PerTry, r.Retries+1, r.Retries, need)
			}
			// Non-idempotent requests.
			if unsafe := UnsafeRetryOn(r.RetryOn); len(unsafe) > 0 {
				if methods := envoyServesUnkeyed(rt.GetMatch()); len(methods) > 0 {
					c.report(r.Pos, RetryNonIdempotent,
						"retry_on %s resends %s requests on %s, and this route serves %s without an idempotency-key header match: a request the upstream processed before failing is processed again (a double charge); retry only connect-failure,refused-stream,reset-before-request here, or route keyed requests apart",
						r.RetryOn, strings.Join(methods, "/"), strings.Join(unsafe, ","), strings.Join(methods, "/"))
				}
			}
		}
	}
}

func routeClusters(ra *routev3.RouteAction) []string {
	if n := ra.GetCluster(); n != "" {
		return []string{n}
	}
	var out []string
	for _, w := range ra.GetWeightedClusters().GetClusters() {
		out = append(out, w.GetName())
	}
	return out
}

// envoyStringMatches reports whether an Envoy StringMatcher can match s.
func envoyStringMatches(m *matcherv3.StringMatcher, s string) bool {
	fold := m.GetIgnoreCase()
	eq := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	switch x := m.GetMatchPattern().(type) {
	case *matcherv3.StringMatcher_Exact:
		return eq(x.Exact, s)
	case *matcherv3.StringMatcher_Prefix:
		return len(s) >= len(x.Prefix) && eq(s[:len(x.Prefix)], x.Prefix)
	case *matcherv3.StringMatcher_Suffix:
		return len(s) >= len(x.Suffix) && eq(s[len(s)-len(x.Suffix):], x.Suffix)
	case *matcherv3.StringMatcher_Contains:
		return strings.Contains(s, x.Contains)
	case *matcherv3.StringMatcher_SafeRegex:
		re, err := regexp.Compile("^(?:" + x.SafeRegex.GetRegex() + ")$")
		return err != nil || re.MatchString(s)
	}
	return true
}

// envoyServesUnkeyed returns the methods of nonIdempotent an Envoy route
// match accepts without an idempotency-key header.
func envoyServesUnkeyed(m *routev3.RouteMatch) []string {
	keyed := false
	var out []string
	for _, h := range m.GetHeaders() {
		if IsIdempotencyHeader(h.GetName()) && !h.GetInvertMatch() && !h.GetTreatMissingHeaderAsEmpty() {
			if pm, ok := h.GetHeaderMatchSpecifier().(*routev3.HeaderMatcher_PresentMatch); !ok || pm.PresentMatch {
				keyed = true
			}
		}
	}
	if keyed {
		return nil
	}
	for _, meth := range nonIdempotent {
		ok := true
		for _, h := range m.GetHeaders() {
			if h.GetName() != ":method" {
				continue
			}
			var match bool
			switch x := h.GetHeaderMatchSpecifier().(type) {
			case *routev3.HeaderMatcher_StringMatch:
				match = envoyStringMatches(x.StringMatch, meth)
			case *routev3.HeaderMatcher_ExactMatch:
				match = x.ExactMatch == meth
			case *routev3.HeaderMatcher_PrefixMatch:
				match = strings.HasPrefix(meth, x.PrefixMatch)
			case *routev3.HeaderMatcher_SafeRegexMatch:
				re, err := regexp.Compile("^(?:" + x.SafeRegexMatch.GetRegex() + ")$")
				match = err != nil || re.MatchString(meth)
			default:
				match = true
			}
			if h.GetInvertMatch() {
				match = !match
			}
			ok = ok && match
		}
		if ok {
			out = append(out, meth)
		}
	}
	return out
}

func (c *checker) cluster(cl *config.Cluster) {
	name := cl.Name
	if t, ti := defaultThresholds(cl.Config); t != nil && t.GetMaxPendingRequests() != nil && t.GetMaxPendingRequests().GetValue() >= unlimited {
		c.report(cl.Fields.Pos("circuit_breakers", "thresholds", ti, "max_pending_requests"), PendingUnbounded,
			"cluster %s leaves the requests waiting for a connection unbounded (max_pending_requests %d): when the upstream slows down, requests queue in the proxy instead of failing fast, and the callers' timeouts and retries pile onto the queue; keep a bound (Envoy's default is %d)",
			name, t.GetMaxPendingRequests().GetValue(), EnvoyDefaultMaxPending)
	}
	od := cl.Config.GetOutlierDetection()
	if od == nil {
		return
	}
	maxEj, maxEjText := EnvoyDefaultMaxEjection, fmt.Sprintf("max_ejection_percent unset: Envoy's default %d%%", EnvoyDefaultMaxEjection)
	if od.GetMaxEjectionPercent() != nil {
		maxEj = int(od.GetMaxEjectionPercent().GetValue())
		maxEjText = fmt.Sprintf("max_ejection_percent %d", maxEj)
	}
	threshold, field := 0, ""
	if v := od.GetConsecutive_5Xx(); v != nil {
		threshold, field = int(v.GetValue()), "consecutive_5xx"
	}
	// Gateway failures eject only when enforcing_consecutive_gateway_failure is set (Envoy's default 0).
	if g := od.GetConsecutiveGatewayFailure(); g != nil && g.GetValue() > 0 && od.GetEnforcingConsecutiveGatewayFailure().GetValue() > 0 && (threshold == 0 || int(g.GetValue()) < threshold) {
		threshold, field = int(g.GetValue()), "consecutive_gateway_failure"
	}
	if od.GetEnforcingConsecutive_5Xx() != nil && od.GetEnforcingConsecutive_5Xx().GetValue() == 0 && field == "consecutive_5xx" {
		threshold = 0 // detected, never enforced
	}
	if maxEj >= 100 {
		panicText := "the healthy panic threshold (Envoy's default 50%) then sends traffic to every endpoint, ejected or not, so outlier detection stops protecting anything"
		if pt := cl.Config.GetCommonLbConfig().GetHealthyPanicThreshold(); pt != nil && pt.GetValue() == 0 {
			panicText = "with healthy_panic_threshold 0 the pool is emptied and every request fails with 503 no healthy upstream"
		}
		f := c.report(cl.Fields.Pos("outlier_detection", "max_ejection_percent"), EjectionAll,
			"outlier detection of cluster %s may eject every endpoint (max_ejection_percent %d): when all endpoints fail together — a bad deploy, a shared dependency down — %s; keep max_ejection_percent well under 100 (Envoy's default is %d)",
			name, maxEj, panicText, EnvoyDefaultMaxEjection)
		if threshold > 0 && threshold <= 2 {
			f.Related = []Related{{Pos: cl.Fields.Pos("outlier_detection", field), Message: "an endpoint is ejected after " + errorsText(threshold)}}
		}
		return
	}
	if threshold > 0 && threshold <= 2 && maxEj >= 50 {
		c.report(cl.Fields.Pos("outlier_detection", field), EjectionThreshold,
			"outlier detection of cluster %s ejects an endpoint after %s with %s: one bad deploy ejects %d%% of the endpoints within seconds and the rest take their load; eject after 5 or more errors (Envoy's default consecutive_5xx is %d), or lower max_ejection_percent",
			name, errorsText(threshold), maxEjText, maxEj, EnvoyDefaultConsecutive5xx)
	}
}

func errorsText(n int) string {
	if n == 1 {
		return "1 consecutive error"
	}
	return fmt.Sprintf("%d consecutive errors", n)
}
