package ratelimit

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/netip"
	"strings"
)

// KeyFunc returns the key a request is limited by. An error makes the
// middleware answer 400 Bad Request without calling the handler.
type KeyFunc func(r *http.Request) (string, error)

// RemoteIP is a KeyFunc that limits by the address of the connection's
// peer (Request.RemoteAddr): "ip:" and the IPv4 address, or "ip:" and the
// /64 prefix of an IPv6 address (one host usually holds a whole /64, and
// could otherwise pick a fresh address per request). It ignores
// X-Forwarded-For and Forwarded, which any client can set: behind a proxy
// every request would seem to come from the proxy; use [ForwardedIP] there.
func RemoteIP(r *http.Request) (string, error) {
	a, ok := peer(r)
	if !ok {
		return "", ErrNoKey
	}
	return ipKey(a), nil
}

func peer(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(r.RemoteAddr)
	return a.Unmap(), err == nil
}

func ipKey(a netip.Addr) string {
	if a.Is6() {
		p, _ := a.Prefix(64) // cannot fail for an IPv6 address
		return "ip:" + p.String()
	}
	return "ip:" + a.String()
}

// ForwardedIP returns a KeyFunc that limits by the client address that
// trusted proxies report in X-Forwarded-For. It believes the header only
// as far as it was written by the proxies in trusted: starting from the
// connection's peer, it walks the header from right to left while the
// address it holds is a trusted proxy, and keys by the first address that
// is not (in the form of [RemoteIP]). A request from a peer that is not
// trusted is keyed by the peer, whatever its header says, so a client
// cannot pick its own key. A malformed entry where a trusted proxy's entry
// should be gives [ErrNoKey]. With no trusted prefix it is RemoteIP.
func ForwardedIP(trusted ...netip.Prefix) KeyFunc {
	trusted = append([]netip.Prefix(nil), trusted...)
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return func(r *http.Request) (string, error) {
		a, ok := peer(r)
		if !ok {
			return "", ErrNoKey
		}
		values := r.Header.Values("X-Forwarded-For")
		for i := len(values) - 1; i >= 0 && isTrusted(a); i-- {
			hops := strings.Split(values[i], ",")
			for j := len(hops) - 1; j >= 0 && isTrusted(a); j-- {
				h := strings.TrimSpace(hops[j])
				if h == "" {
					continue
				}
				next, err := netip.ParseAddr(h)
				if err != nil {
					return "", ErrNoKey
				}
				a = next.Unmap()
			}
		}
		return ipKey(a), nil
	}
}

// Header returns a KeyFunc that limits by the value of the request header
// name (an API key, say): "h:" and the hex of the first 16 bytes of the
// value's SHA-256, so that secrets are not kept in memory or in Redis as
// they are. A request without the header, or with an empty one, gives
// [ErrNoKey].
func Header(name string) KeyFunc {
	name = http.CanonicalHeaderKey(name)
	return func(r *http.Request) (string, error) {
		v := r.Header.Get(name)
		if v == "" {
			return "", ErrNoKey
		}
		sum := sha256.Sum256([]byte(v))
		return "h:" + hex.EncodeToString(sum[:16]), nil
	}
}
