package cache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func key(s string) Key { return sha256.Sum256([]byte(s)) }

func TestPutGet(t *testing.T) {
	c, err := Open(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("a"), "f"); ok {
		t.Fatal("hit in an empty cache")
	}
	if err := c.Put(key("a"), "f", []byte("facts")); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key("a"), "f"); !ok || string(got) != "facts" {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	if _, ok := c.Get(key("a"), "a"); ok {
		t.Fatal("another kind of the same key hit")
	}
	if !c.Has(key("a"), "f") || c.Has(key("b"), "f") {
		t.Fatal("Has is wrong")
	}
}

// A damaged entry (truncated, or its bytes changed) is a miss.
func TestDamagedEntryIsAMiss(t *testing.T) {
	c, _ := Open(t.TempDir(), 1<<20)
	c.Put(key("a"), "f", []byte("some facts"))
	name := c.path(key("a"), "f")
	b, _ := os.ReadFile(name)
	os.WriteFile(name, b[:len(b)-3], 0o666)
	if _, ok := c.Get(key("a"), "f"); ok {
		t.Error("truncated entry hit")
	}
	b[len(b)-1] ^= 1
	os.WriteFile(name, b, 0o666)
	if _, ok := c.Get(key("a"), "f"); ok {
		t.Error("changed entry hit")
	}
}

// Writers of the same entry and readers at the same time: a reader sees
// no entry or a whole one, never a mix.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("0123456789"), 100_000)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			c, _ := Open(dir, 1<<30) // each its own, as separate processes have
			for range 5 {
				if err := c.Put(key("same"), "a", want); err != nil {
					t.Errorf("writer %d: %v", i, err)
				}
				if got, ok := c.Get(key("same"), "a"); ok && !bytes.Equal(got, want) {
					t.Errorf("reader %d: a damaged entry was returned", i)
				}
			}
		})
	}
	wg.Wait()
	c, _ := Open(dir, 1<<30)
	if got, ok := c.Get(key("same"), "a"); !ok || !bytes.Equal(got, want) {
		t.Fatal("entry missing or damaged after concurrent writes")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Trim removes the least recently used entries down to the bound.
func TestTrim(t *testing.T) {
	c, _ := Open(t.TempDir(), 10_000)
	data := make([]byte, 1000)
	old := time.Now().Add(-48 * time.Hour)
	for i := range 30 {
		k := key(fmt.Sprint(i))
		c.Put(k, "a", data)
		mod := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(c.path(k, "a"), mod, mod)
	}
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	var total int64
	var kept []int
	for i := range 30 {
		if fi, err := os.Stat(c.path(key(fmt.Sprint(i)), "a")); err == nil {
			total += fi.Size()
			kept = append(kept, i)
		}
	}
	if total > 10_000 || len(kept) == 0 {
		t.Fatalf("after Trim: %d bytes in %d entries, want at most 10000 and some", total, len(kept))
	}
	for _, i := range kept {
		if i < 30-len(kept) {
			t.Errorf("entry %d kept, but it is older than a removed one (kept %v)", i, kept)
		}
	}
}
