package check

import (
	"path"
	"strings"
)

// ClusterDomain is the DNS suffix of Kubernetes services that short host
// names are completed with, as Istio does.
const ClusterDomain = "svc.cluster.local"

// FQDN completes a host name as Istio reads the hosts of a resource in
// namespace ns: "reviews" is reviews.<ns>.svc.cluster.local ("default"
// when ns is empty), "reviews.shop.svc" gains the cluster domain, other
// names are kept (lowercased, without a port).
func FQDN(host, ns string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.Contains(host, "]") {
		host = h
	}
	if ns == "" {
		ns = "default"
	}
	switch {
	case host == "" || host == "*":
		return host
	case !strings.Contains(host, "."):
		return host + "." + ns + "." + ClusterDomain
	case strings.HasSuffix(host, ".svc"):
		return host + ".cluster.local"
	}
	return host
}

// hostMatch reports whether the host pattern (possibly "*.example.com"
// or "*") covers the FQDN host.
func hostMatch(pattern, host string) bool {
	if pattern == host {
		return true
	}
	if strings.HasPrefix(pattern, "*") {
		ok, _ := path.Match(pattern, host)
		return ok || strings.HasSuffix(host, pattern[1:])
	}
	return false
}
