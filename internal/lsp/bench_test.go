package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
	opts := Options{}
	if testing.Verbose() {
		opts.Log = os.Stderr
	}
	c := startServer(b, opts)
	c.initialize(map[string]any{"analyzeOnChange": false})
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: text}})
	first := c.diagnostics(uri)
	if len(first.Diagnostics) == 0 {
		b.Fatal("no diagnostics in examples/payments")
	}
	version := 1
	b.ReportAllocs()
	for b.Loop() {
		version++
		edited := text + fmt.Sprintf("\n// edit %d\n", version)
		c.notify("textDocument/didChange", didChangeParams{
			TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []contentChange{{Text: edited}},
		})
		c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}, Text: &edited})
		for {
			pd := c.diagnostics(uri)
			if pd.Version != nil && *pd.Version == version {
				if len(pd.Diagnostics) != len(first.Diagnostics) {
					b.Fatalf("version %d: %d diagnostics, want %d", version, len(pd.Diagnostics), len(first.Diagnostics))
				}
				break
			}
		}
	}
}
