package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// jsonFinding is the part of the driver's -json output (one array of
// findings, each naming its package and check; analysis errors go to
// standard error) that the corpus reads.
type jsonFinding struct {
	Package  string `json:"package"`
	Check    string `json:"check"`
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
}

// parsed is what one run of the driver over a module found.
type parsed struct {
	Findings  []finding // outside test files, deduplicated, in position order
	TestFiles int       // findings in _test.go files, dropped
	Errors    []string  // findings whose position is outside the module
}

// parseOutput reads the driver's -json output for the module mod rooted
// at dir. Positions become dir-relative file:line. A package analyzed
// both alone and as its test variant may report the same diagnostic
// twice; it is kept once. Findings in _test.go files are counted and
// dropped: the corpus judges non-test code.
func parseOutput(data []byte, mod, dir string) (parsed, error) {
	var all []jsonFinding
	if err := json.Unmarshal(data, &all); err != nil {
		return parsed{}, fmt.Errorf("driver output is not resilint's -json array: %v", err)
	}
	var p parsed
	type seenKey struct{ posn, check, category, message string }
	seen := make(map[seenKey]bool)
	for _, d := range all {
		k := seenKey{d.Posn, d.Check, d.Category, d.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		file, line, err := relPos(d.Posn, dir)
		if err != nil {
			p.Errors = append(p.Errors, fmt.Sprintf("%s: %s: %v (%s)", d.Package, d.Check, err, d.Message))
			continue
		}
		if strings.HasSuffix(file, "_test.go") {
			p.TestFiles++
			continue
		}
		p.Findings = append(p.Findings, finding{
			Module:   mod,
			Pos:      fmt.Sprintf("%s:%d", file, line),
			Check:    d.Check,
			Category: d.Category,
			Message:  d.Message,
		})
	}
	slices.SortStableFunc(p.Findings, func(a, b finding) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.Check, b.Check), cmp.Compare(a.Category, b.Category))
	})
	return p, nil
}

// relPos turns the checker's "file:line:col" (absolute file) into a
// slash-separated file relative to dir, and the line.
func relPos(posn, dir string) (string, int, error) {
	rest := posn
	var nums []int
	for range 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 || !isDigits(rest[i+1:]) {
			break
		}
		var n int
		fmt.Sscanf(rest[i+1:], "%d", &n)
		nums = append(nums, n)
		rest = rest[:i]
	}
	if len(nums) == 0 {
		return "", 0, fmt.Errorf("position %q has no line", posn)
	}
	line := nums[len(nums)-1] // file:line:col → [col line]; file:line → [line]
	rel, err := filepath.Rel(dir, rest)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", 0, fmt.Errorf("position %q is outside the module at %s", posn, dir)
	}
	return filepath.ToSlash(rel), line, nil
}
