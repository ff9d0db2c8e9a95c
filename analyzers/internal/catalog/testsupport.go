package catalog

import "strings"

// TestSupportElems are the import-path elements that, by the Go
// community's convention, name a package of test support rather than of
// the product: an end-to-end or integration harness (e2e, integration:
// a spec-test runner, a wait for a bucket the tests made), the helpers
// and fakes that tests share (testutil, testing, mock, fakes). The plural
// "integrations" (connectors to other products) is not one. The code of such a package runs in
// tests, with the fixed delays and immediate retries tests use on
// purpose, and is test code as much as a _test.go file.
var TestSupportElems = map[string]bool{
	"e2e": true, "e2etest": true, "e2etests": true, "e2e_test": true, "e2e-tests": true,
	"test": true, "tests": true, "testing": true,
	"testutil": true, "testutils": true, "testhelper": true, "testhelpers": true,
	"testsupport": true, "testenv": true,
	"mock": true, "mocks": true, "fake": true, "fakes": true,
	"integration": true, "integrationtest": true, "integrationtests": true, "itest": true, "itests": true,
}

// testWords are the words that, last in a path element of words joined
// by hyphens or underscores, name a harness of tests: upgrade-tests,
// smoke_test, api-e2e, load-testing.
var testWords = map[string]bool{"test": true, "tests": true, "e2e": true, "testing": true}

// TestSupportPath reports whether the package at path is test support: an
// element of its path is one of TestSupportElems (also written with
// underscores or hyphens: test_helpers, test-utils), ends in a word of
// testWords after a hyphen or an underscore (cmd/dendrite-upgrade-tests,
// a CI harness), or names the package of
// another element followed by "test" (net/http/httptest,
// acme/autocert/internal/acmetest: the test kit of package http, of
// package acme). An element that merely ends in "test" (latest, contest)
// is not one.
func TestSupportPath(path string) bool {
	elems := strings.Split(path, "/")
	for i, e := range elems {
		// test_helpers, test-utils: the same names, with a separator.
		if TestSupportElems[e] || TestSupportElems[strings.NewReplacer("_", "", "-", "").Replace(e)] {
			return true
		}
		if i := strings.LastIndexAny(e, "-_"); i >= 0 && testWords[e[i+1:]] {
			return true
		}
		base, ok := strings.CutSuffix(e, "test")
		if !ok || base == "" {
			continue
		}
		for _, a := range elems[:i] {
			if a == base {
				return true
			}
		}
	}
	return false
}
