package main_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Findings in _test.go files are off by default under every mode of the
// command; -include-tests brings them back, standalone, under go vet and
// in SARIF.
func TestIncludeTests(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module withtests\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "client.go"), `package withtests

import "errors"

func call() error { return errors.New("down") }

// Inner retries on its own.
func Inner() error {
	var err error
	//resilint:ignore backoff the test is about the nesting only
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}
`)
	write(t, filepath.Join(dir, "client_test.go"), `package withtests

import "testing"

func TestInner(t *testing.T) {
	var err error
	for i := 0; i < 3; i++ {
		if err = Inner(); err == nil {
			return
		}
	}
	t.Fatal(err)
}
`)
	finding := regexp.MustCompile(`client_test\.go:7:2: nested retry`)

	_, stderr, code := run(t, dir, bin, "./...")
	if code != 0 || finding.MatchString(stderr) {
		t.Errorf("standalone, default: exit %d, want 0 and no finding in the test file:\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, bin, "-include-tests", "./...")
	if code != 3 || !finding.MatchString(stderr) {
		t.Errorf("standalone -include-tests: exit %d, want 3 and %s:\n%s", code, finding, stderr)
	}

	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code != 0 || finding.MatchString(stderr) {
		t.Errorf("go vet, default: exit %d, want 0 and no finding in the test file:\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "-include-tests", "./...")
	if code == 0 || !finding.MatchString(stderr) {
		t.Errorf("go vet -include-tests: exit %d, want failure and %s:\n%s", code, finding, stderr)
	}

	stdout, _, _ := run(t, dir, bin, "-sarif", "./...")
	if strings.Contains(stdout, "client_test.go") {
		t.Errorf("-sarif, default: a result in the test file:\n%s", stdout)
	}
	stdout, _, _ = run(t, dir, bin, "-sarif", "-include-tests", "./...")
	if !strings.Contains(stdout, "client_test.go") {
		t.Errorf("-sarif -include-tests: no result in the test file:\n%s", stdout)
	}
}
