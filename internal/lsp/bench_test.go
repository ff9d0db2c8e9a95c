package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkReanalysis measures, after a first analysis of
// examples/payments, the time from an edit (didChange, then didSave of
// the unsaved text) to the diagnostics of the edited version: the edited
// package and its test variants are analyzed again, the dependencies'
// types and facts come from the server's memory.
func BenchmarkReanalysis(b *testing.B) {
	path, err := filepath.Abs(filepath.Join("..", "..", "examples", "payments", "payments.go"))
	if err != nil {
		b.Fatal(err)
	}
	uri := pathToURI(path)
	text := readFile(b, path)
	c := benchServer(b)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: text}})
	first := c.diagnostics(uri)
	if len(first.Diagnostics) == 0 {
		b.Fatal("no diagnostics in examples/payments")
	}
	idle()
	version := 1
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		version++
		edited := text + fmt.Sprintf("\n// edit %d\n", version)
		if n := c.save(uri, version, edited); n != len(first.Diagnostics) {
			b.Fatalf("version %d: %d diagnostics, want %d", version, n, len(first.Diagnostics))
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time per operation since cpu, the go command
// included: on a loaded machine it varies less than the wall time.
func reportCPU(b *testing.B, cpu time.Duration) {
	if d := cpuTime() - cpu; d > 0 {
		b.ReportMetric(float64(d.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkReanalysisImport measures the same after an edit that changes
// the file's imports: a quick fix applied that adds an import, then
// undone (the import removed), and so on, each edit a new text.
//
//   - in-graph: the backoff check's fix in examples/checkout adds
//     github.com/resilint/resilint/runtime/retry, which the package's
//     dependencies (examples/notifications) import already;
//   - new-package: the idempotency check's fix in examples/payments adds
//     github.com/resilint/resilint/runtime/idempotency, a package not in
//     its dependencies.
func BenchmarkReanalysisImport(b *testing.B) {
	for _, bc := range []struct{ name, file, code string }{
		{"in-graph", "checkout/checkout.go", "backoff/no-jitter"},
		{"new-package", "payments/payments.go", "idempotency/no-key"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			path, err := filepath.Abs(filepath.Join("..", "..", "examples", bc.file))
			if err != nil {
				b.Fatal(err)
			}
			uri := pathToURI(path)
			text := readFile(b, path)
			c := benchServer(b)
			c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: text}})
			first := c.diagnostics(uri)
			fixed := c.applyFix(uri, text, first, bc.code)
			version := 1
			want := [2]int{len(first.Diagnostics), len(first.Diagnostics) - 1}
			idle()
			for range 2 { // once each, untimed
				version++
				i := version % 2
				if n := c.save(uri, version, [2]string{text, fixed}[i]); n != want[i] {
					b.Fatalf("version %d: %d diagnostics, want %d", version, n, want[i])
				}
			}
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				version++
				i := version % 2
				src := [2]string{text, fixed}[i]
				if n := c.save(uri, version, src+fmt.Sprintf("\n// edit %d\n", version)); n != want[i] {
					b.Fatalf("version %d: %d diagnostics, want %d", version, n, want[i])
				}
			}
			reportCPU(b, cpu)
		})
	}
}

func benchServer(b *testing.B) *client {
	opts := Options{started: func(s *server) { benchServed = s }}
	if testing.Verbose() {
		opts.Log = os.Stderr
	}
	c := startServer(b, opts)
	c.initialize(map[string]any{"analyzeOnChange": false})
	return c
}

// benchServed is the server of the benchmark running.
var benchServed *server

// idle waits for the work the server does in the background after an
// analysis (what the next edit would otherwise ask the go command for):
// a benchmark measures the edits, not the first analysis's aftermath.
func idle() {
	if e := benchServed.engine; e != nil {
		e.Wait()
	}
}

// save sends the text as an edit, then a save, and returns the number of
// diagnostics published for that version.
func (c *client) save(uri string, version int, text string) int {
	c.t.Helper()
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []contentChange{{Text: text}},
	})
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}, Text: &text})
	for {
		pd := c.diagnostics(uri)
		if pd.Version != nil && *pd.Version == version {
			return len(pd.Diagnostics)
		}
	}
}

// applyFix returns the text with the quick fix of the first diagnostic
// with the code applied.
func (c *client) applyFix(uri, text string, pd publishDiagnosticsParams, code string) string {
	c.t.Helper()
	for _, d := range pd.Diagnostics {
		if d.Code != code {
			continue
		}
		resp := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: d.Range})
		var actions []CodeAction
		if resp.Error != nil || json.Unmarshal(resp.Result, &actions) != nil || len(actions) == 0 || actions[0].Edit == nil {
			c.t.Fatalf("no quick fix for %s: %s %v", code, resp.Result, resp.Error)
		}
		fixed, err := applyEdits(text, actions[0].Edit.Changes[uri])
		if err != nil {
			c.t.Fatal(err)
		}
		return fixed
	}
	c.t.Fatalf("no %s diagnostic in %+v", code, pd.Diagnostics)
	return ""
}
