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

// CodeHostCandidates are the FQDNs a host name written in a Go program
// (the host of a URL) may stand for in the cluster: itself, and for a
// name of one or two labels ("payments", "payments.shop"), the Kubernetes
// names DNS search paths complete it to. A name of one label stands for
// the service of that name in any namespace: Lookup accepts it only when
// one host of the mesh has that name.
func CodeHostCandidates(host string) (exact []string, firstLabel string) {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.Contains(host, "]") {
		host = h
	}
	switch strings.Count(host, ".") {
	case 0:
		return nil, host
	case 1:
		return []string{host, host + "." + ClusterDomain}, ""
	}
	if strings.HasSuffix(host, ".svc") {
		return []string{host + ".cluster.local"}, ""
	}
	return []string{host}, ""
}
