package idempotency

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"net/http"
)

// The record format. A record is
//
//	magic "idem" | version 1 | kind | fingerprint (32) | token (16)
//	(kind C claimed, S suspected claim, D done, N done but not stored)
//	[kind done or unstored: status (uint16, big endian)]
//	[kind done: header count, then per header its name and its value
//	 count and values; body; every count and length a uvarint]
//	CRC-32C of all of the above (4, big endian)
//
// Anything else — wrong magic, version or kind, a length past the end,
// bytes left over, a bad checksum — is malformed.
const (
	recordMagic   = "idem"
	recordVersion = 1

	kindClaimed = 'C' // the handler is running
	// kindSuspected is a claim a duplicate found: it lives for one Lease
	// unless the claim's owner, alive, turns it back into its claim.
	kindSuspected = 'S'
	kindDone      = 'D' // the response is stored
	kindUnstored  = 'N' // the handler ran; its response was too large to store
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type fingerprint [sha256.Size]byte

// record is a decoded record.
type record struct {
	kind   byte
	fp     fingerprint
	token  [16]byte
	status int
	header http.Header
	body   []byte
}

var errMalformed = errors.New("idempotency: malformed record")

func newToken() (t [16]byte) {
	rand.Read(t[:])
	return t
}

func (r *record) encode() []byte {
	n := len(recordMagic) + 2 + len(r.fp) + len(r.token) + 4
	if r.kind != kindClaimed && r.kind != kindSuspected {
		n += 2
	}
	if r.kind == kindDone {
		n += binary.MaxVarintLen64 * 2
		for name, vals := range r.header {
			n += 2*binary.MaxVarintLen64 + len(name)
			for _, v := range vals {
				n += binary.MaxVarintLen64 + len(v)
			}
		}
		n += len(r.body)
	}
	b := make([]byte, 0, n)
	b = append(b, recordMagic...)
	b = append(b, recordVersion, r.kind)
	b = append(b, r.fp[:]...)
	b = append(b, r.token[:]...)
	if r.kind != kindClaimed && r.kind != kindSuspected {
		b = binary.BigEndian.AppendUint16(b, uint16(r.status))
	}
	if r.kind == kindDone {
		b = binary.AppendUvarint(b, uint64(len(r.header)))
		for name, vals := range r.header {
			b = appendString(b, name)
			b = binary.AppendUvarint(b, uint64(len(vals)))
			for _, v := range vals {
				b = appendString(b, v)
			}
		}
		b = appendString(b, string(r.body)) // no copy: the compiler sees through the conversion
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// claimLen is the length of an encoded claim or suspected claim.
const claimLen = len(recordMagic) + 2 + len(fingerprint{}) + 16 + 4

// isClaim reports whether b looks like an encoded claim, suspected or not
// (a request whose handler may be running). It does not verify the
// checksum.
func isClaim(b []byte) bool {
	return len(b) == claimLen && string(b[:len(recordMagic)]) == recordMagic &&
		b[len(recordMagic)] == recordVersion &&
		(b[len(recordMagic)+1] == kindClaimed || b[len(recordMagic)+1] == kindSuspected)
}

// suspicionOf returns the suspected form of the encoded claim c: the same
// claim (fingerprint and token) with kind kindSuspected.
func suspicionOf(c []byte) []byte {
	b := append([]byte(nil), c[:len(c)-4]...)
	b[len(recordMagic)+1] = kindSuspected
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// decodeRecord parses b. The body of the result aliases b.
func decodeRecord(b []byte) (*record, error) {
	if len(b) < len(recordMagic)+2+len(fingerprint{})+16+4 {
		return nil, errMalformed
	}
	payload, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(payload, crcTable) != sum {
		return nil, errMalformed
	}
	if string(payload[:len(recordMagic)]) != recordMagic || payload[len(recordMagic)] != recordVersion {
		return nil, errMalformed
	}
	d := decoder{b: payload[len(recordMagic)+1:]}
	r := &record{kind: d.byte()}
	copy(r.fp[:], d.bytes(len(r.fp)))
	copy(r.token[:], d.bytes(len(r.token)))
	switch r.kind {
	case kindClaimed, kindSuspected:
	case kindDone, kindUnstored:
		r.status = int(binary.BigEndian.Uint16(d.bytes(2)))
		if !d.bad && (r.status < 200 || r.status > 999) {
			return nil, errMalformed
		}
	default:
		return nil, errMalformed
	}
	if r.kind == kindDone {
		n := d.count()
		r.header = make(http.Header, n)
		for range n {
			name := string(d.str())
			vals := make([]string, d.count())
			for i := range vals {
				vals[i] = string(d.str())
			}
			if d.bad {
				break
			}
			r.header[name] = vals
		}
		r.body = d.str()
	}
	if d.bad || len(d.b) != 0 {
		return nil, errMalformed
	}
	return r, nil
}

// decoder reads from b; after the first error it returns zero values and
// sets bad.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) bytes(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return make([]byte, max(n, 0)) // n is a fixed size or at most len(d.b): see count
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) byte() byte { return d.bytes(1)[0] }

func (d *decoder) uvarint() uint64 {
	if d.bad {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a number of items, each at least one byte long, so it is
// never more than the bytes left.
func (d *decoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	return int(v)
}

func (d *decoder) str() []byte {
	return d.bytes(d.count())
}
