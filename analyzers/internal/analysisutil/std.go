package analysisutil

import "strings"

// stdRoots are the first elements of the standard library's import paths.
var stdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true,
	"context": true, "crypto": true, "database": true, "debug": true, "embed": true, "encoding": true,
	"errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "plugin": true, "reflect": true,
	"regexp": true, "runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true, "time": true,
	"unicode": true, "unique": true, "unsafe": true, "weak": true, "vendor": true, "cmd": true,
}

// IsStd reports whether path is a package of the standard library.
func IsStd(path string) bool {
	first := path
	if i := strings.IndexByte(path, '/'); i >= 0 {
		first = path[:i]
	}
	return stdRoots[first]
}
