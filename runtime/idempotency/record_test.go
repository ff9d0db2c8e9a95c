package idempotency

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"net/http"
	"testing"

	"github.com/resilint/resilint/runtime/internal/assert"
	"github.com/resilint/resilint/runtime/internal/require"
)

func sampleRecords() []*record {
	fp := fingerprint{1, 2, 3}
	return []*record{
		{kind: kindClaimed, fp: fp, token: newToken()},
		{kind: kindUnstored, fp: fp, token: newToken(), status: 201},
		{kind: kindDone, fp: fp, token: newToken(), status: 200, header: http.Header{}, body: []byte{}},
		{kind: kindDone, fp: fp, token: newToken(), status: 201, header: http.Header{
			"Content-Type": {"application/json"},
			"Set-Cookie":   {"a=1", "b=2"},
			"X-Empty":      {},
		}, body: []byte(`{"id":1}` + "\x00\xff")},
	}
}

func TestRecordRoundTrip(t *testing.T) {
	for _, r := range sampleRecords() {
		got, err := decodeRecord(r.encode())
		require.NoError(t, err)
		if r.kind == kindDone && len(r.body) == 0 {
			r.body = nil
		}
		if r.kind == kindDone && len(got.body) == 0 {
			got.body = nil
		}
		assert.Equal(t, r, got)
	}
}

func TestRecordMalformed(t *testing.T) {
	good := sampleRecords()[3].encode()
	cases := map[string][]byte{
		"empty":     nil,
		"short":     good[:10],
		"truncated": good[:len(good)-1],
		"garbage":   []byte("this is not a record at all, but it is long enough to be one"),
		"json":      []byte(`{"status":200,"body":"aGVsbG8="}`),
	}
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		cases[fmt.Sprintf("bit 6 of byte %d flipped", i)] = b
	}
	// A well-formed checksum over a bad version, kind or status.
	for name, mutate := range map[string]func(r *record) []byte{
		"version": func(r *record) []byte { b := r.encode(); b[4] = 2; return resum(b) },
		"kind":    func(r *record) []byte { b := r.encode(); b[5] = 'X'; return resum(b) },
		"status":  func(r *record) []byte { r.status = 99; return r.encode() },
		"trailing": func(r *record) []byte {
			b := r.encode()
			b = append(b[:len(b)-4:len(b)-4], 0)
			return resum(append(b, 0, 0, 0, 0))
		},
	} {
		cases[name] = mutate(sampleRecords()[3])
	}
	// Every truncation of a valid payload, with a valid checksum.
	payload := good[:len(good)-4]
	for i := range len(payload) {
		cases[fmt.Sprintf("payload cut at %d", i)] = resum(append(bytes.Clone(payload[:i]), 0, 0, 0, 0))
	}
	for name, b := range cases {
		_, err := decodeRecord(b)
		assert.ErrorIs(t, err, errMalformed, name)
	}
}

// resum recomputes the checksum of an encoded record.
func resum(b []byte) []byte {
	p := b[: len(b)-4 : len(b)-4]
	return binary.BigEndian.AppendUint32(p, crc32.Checksum(p, crcTable))
}

func FuzzDecodeRecord(f *testing.F) {
	for _, r := range sampleRecords() {
		f.Add(r.encode())
	}
	f.Add([]byte("idem"))
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeRecord(b) // must not panic
		// Past the checksum: the same bytes with a valid one.
		r, err := decodeRecord(resum(append(bytes.Clone(b), 0, 0, 0, 0)))
		if err != nil {
			return
		}
		// Whatever decodes encodes back to the same bytes (header order
		// aside, so compare by decoding again).
		again, err := decodeRecord(r.encode())
		if err != nil {
			t.Fatalf("re-encoding a decoded record gives a malformed record: %v", err)
		}
		if again.kind != r.kind || again.fp != r.fp || again.status != r.status || !bytes.Equal(again.body, r.body) || len(again.header) != len(r.header) {
			t.Fatalf("round trip changed the record: %+v -> %+v", r, again)
		}
	})
}
