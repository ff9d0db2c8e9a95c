// Package ladders: loops each of whose ways round first changes what
// chose to go round, so that the next pass asks differently (verified
// TLS, then unverified, then plaintext; a token, then none). Each rung is
// taken once: a fallback, not a resend. Loops that go round on the same
// request, or whose rungs re-arm each other, are reported.
package ladders

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
)

var dialer net.Dialer

type level int

const (
	verified level = iota
	encrypted
	plain
)

// Negotiate steps down from verified TLS to unverified TLS to plaintext:
// the first rung moves the level off verified, the second drops the
// config its test needs. Not reported.
func Negotiate(ctx context.Context, addr string, cfg *tls.Config) (net.Conn, level, error) {
	lvl := verified
again:
	c, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, plain, err
	}
	if cfg != nil {
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			var ve *tls.CertificateVerificationError
			if errors.As(err, &ve) && lvl == verified {
				cfg = cfg.Clone()
				cfg.InsecureSkipVerify = true
				lvl = encrypted
				goto again
			}
			cfg = nil
			lvl = plain
			goto again
		}
		return tc, lvl, nil
	}
	return c, plain, nil
}

// Fetch tries with the token, then once without it, in a for loop.
// Not reported.
func Fetch(ctx context.Context, addr, token string) (net.Conn, error) {
	for {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		_, err = c.Write([]byte("HELLO " + token))
		if err != nil {
			c.Close()
			if token != "" {
				token = ""
				continue
			}
		}
		return c, err
	}
}

// The near miss: the handshake's failure goes round on the same request,
// at once and for ever.
func Redial(ctx context.Context, addr string, cfg *tls.Config) (net.Conn, error) {
again: // want `goto retry loop tries again at once`
	c, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	tc := tls.Client(c, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		c.Close()
		goto again
	}
	return tc, nil
}

// The near miss: the loop sets the token back at the top of every pass,
// so the rung is taken every time.
func FetchRearmed(ctx context.Context, addr, fallback string) (net.Conn, error) {
	token := ""
	for { // want `retry loop tries again at once`
		if token == "" {
			token = fallback
		}
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		_, err = c.Write([]byte("HELLO " + token))
		if err != nil {
			c.Close()
			if token != "" {
				token = ""
				continue
			}
		}
		return c, err
	}
}

// The near miss: each rung re-arms the other, so the loop flips between
// the two for ever.
func Flip(ctx context.Context, addr string) (net.Conn, error) {
	useA, useB := true, false
	for { // want `retry loop tries again at once`
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		_, err = c.Write([]byte("HELLO"))
		if err != nil {
			c.Close()
			if useA {
				useA, useB = false, true
				continue
			}
			if useB {
				useA, useB = true, false
				continue
			}
		}
		return c, err
	}
}
