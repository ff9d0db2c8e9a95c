// Package cache is resilint's on-disk cache of analysis results: entries
// named by a key (a SHA-256 of everything the result depends on), in the
// user's cache directory, bounded in size, and safe when several
// processes read and write it at once.
//
// An entry is written to a temporary file in the cache directory and
// renamed into place, so a reader sees either no entry or a whole one;
// two runs writing the same entry write the same bytes, and the last
// rename wins. Each entry carries a checksum of its contents: a damaged
// file is a miss, never a wrong result.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Key names an entry.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// DefaultMaxSize is the size bound of a cache opened by [Default].
const DefaultMaxSize = 512 << 20

// A Cache is a directory of entries. Its methods are safe for concurrent
// use, by goroutines and by processes.
type Cache struct {
	dir     string
	maxSize int64
}

// Open opens (creating it if needed) the cache in dir, which holds at most
// about maxSize bytes after [Cache.Trim].
func Open(dir string, maxSize int64) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cache: %v", err)
	}
	return &Cache{dir: dir, maxSize: maxSize}, nil
}

// Default opens the cache named by the RESILINT_CACHE environment
// variable, else os.UserCacheDir()/resilint. It returns nil, nil when
// RESILINT_CACHE is "off".
func Default() (*Cache, error) {
	dir := os.Getenv("RESILINT_CACHE")
	if dir == "off" {
		return nil, nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("cache: no cache directory (set RESILINT_CACHE to a directory, or to off): %v", err)
		}
		dir = filepath.Join(base, "resilint")
	}
	return Open(dir, DefaultMaxSize)
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key, kind string) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s+"-"+kind)
}

// The layout of an entry: magic, the SHA-256 of the data, the data.
var magic = []byte("resilint-cache-1\n")

// Get returns the data of the entry (k, kind), or ok false when there is
// none or it is damaged.
func (c *Cache) Get(k Key, kind string) (data []byte, ok bool) {
	name := c.path(k, kind)
	b, err := os.ReadFile(name)
	if err != nil || len(b) < len(magic)+sha256.Size || !bytes.HasPrefix(b, magic) {
		return nil, false
	}
	sum := b[len(magic) : len(magic)+sha256.Size]
	data = b[len(magic)+sha256.Size:]
	if got := sha256.Sum256(data); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	// Mark it used, for Trim; at most once an hour, as the go command
	// does, to spare the writes.
	if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > time.Hour {
		now := time.Now()
		os.Chtimes(name, now, now)
	}
	return data, true
}

// Has reports whether the entry exists, without reading it.
func (c *Cache) Has(k Key, kind string) bool {
	_, err := os.Stat(c.path(k, kind))
	return err == nil
}

// Put stores data as the entry (k, kind), atomically.
func (c *Cache) Put(k Key, kind string, data []byte) error {
	name := c.path(k, kind)
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	_, err = f.Write(slices.Concat(magic, sum[:], data))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Trim removes the least recently used entries until the cache holds at
// most its size bound, and leftover temporary files older than an hour.
// It does the work at most once every ten minutes per cache directory.
func (c *Cache) Trim() error {
	stamp := filepath.Join(c.dir, "trim.txt")
	if b, err := os.ReadFile(stamp); err == nil {
		if t, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && time.Since(time.Unix(t, 0)) < 10*time.Minute {
			return nil
		}
	}
	os.WriteFile(stamp, []byte(strconv.FormatInt(time.Now().Unix(), 10)), 0o666)
	return c.trim()
}

func (c *Cache) trim() error {
	type entry struct {
		name string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(p) == c.dir {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(p)
			}
			return nil
		}
		entries = append(entries, entry{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if total <= c.maxSize {
		return nil
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.mod.Compare(b.mod) })
	for _, e := range entries {
		if total <= c.maxSize*3/4 { // leave room, so that trimming is rare
			break
		}
		if os.Remove(e.name) == nil {
			total -= e.size
		}
	}
	return nil
}
