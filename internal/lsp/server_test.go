package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resilint/resilint/analyzers"
)

// The protocol tests drive a server over in-memory pipes, as an editor
// drives `resilint lsp` over stdio.

// timeout bounds every wait: an analysis loads packages with their
// dependencies from source, which takes seconds on a loaded machine.
const timeout = 2 * time.Minute

type client struct {
	t      testing.TB
	in     io.WriteCloser // the server's standard input
	w      *writer
	msgs   chan *message // everything the server sent
	seen   []*message    // received but not yet consumed
	nextID int
	served chan error // Serve's result
}

func startServer(t testing.TB, opts Options) *client {
	t.Helper()
	if opts.Analyzers == nil {
		opts.Analyzers = analyzers.All()
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, in: inW, w: &writer{w: inW}, msgs: make(chan *message, 1000), served: make(chan error, 1)}
	go func() {
		c.served <- Serve(ctx, inR, outW, opts)
		outW.Close()
	}()
	go func() {
		rd := newReader(outR)
		for {
			body, err := rd.read()
			if err != nil {
				close(c.msgs)
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				panic(fmt.Sprintf("server sent bad JSON %q: %v", body, err))
			}
			c.msgs <- &m
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-c.served:
		case <-time.After(timeout):
			t.Error("the server did not stop")
		}
	})
	return c
}

// send writes one message with the given body bytes, framed.
func (c *client) sendRaw(raw string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, raw); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	b, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.w.write(&message{Method: method, Params: b}); err != nil {
		c.t.Fatal(err)
	}
}

// call sends a request and returns its response.
func (c *client) call(method string, params any) *message {
	c.t.Helper()
	c.nextID++
	id := json.RawMessage(fmt.Sprint(c.nextID))
	b, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.w.write(&message{ID: id, Method: method, Params: b}); err != nil {
		c.t.Fatal(err)
	}
	return c.waitFor(method+" response", func(m *message) bool {
		return m.isResponse() && string(m.ID) == string(id)
	})
}

// waitFor returns the first message, received or to come, that matches.
func (c *client) waitFor(what string, match func(*message) bool) *message {
	c.t.Helper()
	for i, m := range c.seen {
		if match(m) {
			c.seen = append(c.seen[:i], c.seen[i+1:]...)
			return m
		}
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server closed its output while the test waited for %s", what)
			}
			if match(m) {
				return m
			}
			c.seen = append(c.seen, m)
		case <-deadline.C:
			c.t.Fatalf("no %s within %v; received %s", what, timeout, c.dump())
		}
	}
}

func (c *client) dump() string {
	var b strings.Builder
	for _, m := range c.seen {
		j, _ := json.Marshal(m)
		b.WriteString("\n\t")
		b.Write(j)
	}
	return b.String()
}

func (c *client) diagnostics(uri string) publishDiagnosticsParams {
	c.t.Helper()
	m := c.waitFor("diagnostics for "+uri, func(m *message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p publishDiagnosticsParams
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri
	})
	var p publishDiagnosticsParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

func (c *client) showMessage(what string, match func(showMessageParams) bool) showMessageParams {
	c.t.Helper()
	m := c.waitFor(what, func(m *message) bool {
		var p showMessageParams
		return m.Method == "window/showMessage" && json.Unmarshal(m.Params, &p) == nil && match(p)
	})
	var p showMessageParams
	json.Unmarshal(m.Params, &p)
	return p
}

func (c *client) initialize(opts any) {
	c.t.Helper()
	resp := c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}, "initializationOptions": opts})
	if resp.Error != nil {
		c.t.Fatalf("initialize: %v", resp.Error)
	}
	c.notify("initialized", map[string]any{})
}

func (c *client) shutdown() {
	c.t.Helper()
	if resp := c.call("shutdown", nil); resp.Error != nil {
		c.t.Fatalf("shutdown: %v", resp.Error)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		c.served <- err // for the cleanup
		if err != nil {
			c.t.Fatalf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(timeout):
		c.t.Fatal("the server did not exit")
	}
}

// fixture copies testdata/fixture to a temporary module that uses this
// repository's runtime through a replace directive, and returns its path.
func fixture(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	gomod := fmt.Sprintf("module example.com/fixture\n\ngo 1.26.0\n\nrequire github.com/resilint/resilint/runtime v0.0.0\n\nreplace github.com/resilint/resilint/runtime => %s\n", filepath.Join(root, "runtime"))
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDiagnosticsAndQuickFix: open a file, get the backoff check's
// diagnostic (and see //resilint:ignore work in another file of the
// package), ask for its quick fix, apply it, save, and see the
// diagnostic go.
func TestDiagnosticsAndQuickFix(t *testing.T) {
	dir := fixture(t)
	path := filepath.Join(dir, "fetch.go")
	uri := pathToURI(path)
	text := readFile(t, path)

	c := startServer(t, Options{})
	c.initialize(map[string]any{"analyzeOnChange": false})
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: text}})

	pd := c.diagnostics(uri)
	if pd.Version == nil || *pd.Version != 1 {
		t.Errorf("diagnostics for version %v, want 1", pd.Version)
	}
	if len(pd.Diagnostics) != 1 {
		t.Fatalf("%d diagnostics, want 1: %+v", len(pd.Diagnostics), pd.Diagnostics)
	}
	d := pd.Diagnostics[0]
	if want := "retry delay has no jitter"; !strings.HasPrefix(d.Message, want) {
		t.Errorf("message %q, want it to start with %q", d.Message, want)
	}
	if d.Source != "resilint" || d.Code != "backoff/no-jitter" || d.Severity != severityWarning {
		t.Errorf("source %q, code %q, severity %d; want resilint, backoff/no-jitter, %d", d.Source, d.Code, d.Severity, severityWarning)
	}
	if d.CodeDescription == nil || !strings.Contains(d.CodeDescription.Href, "docs/checks/backoff.md") {
		t.Errorf("codeDescription %+v, want a link to docs/checks/backoff.md", d.CodeDescription)
	}
	// The delay starts after "/* 𝛿 ≈ «linear» */ ": 𝛿 is two UTF-16
	// units (four bytes), ≈ and «» one each (three and two bytes).
	line := strings.Split(text, "\n")[d.Range.Start.Line]
	prefix := line[:strings.Index(line, "time.Duration")]
	want := Range{
		Start: Position{Line: 20, Character: len([]rune(prefix)) + 1},
		End:   Position{Line: 20, Character: len([]rune(prefix)) + 1 + len("time.Duration(attempt) * 100 * time.Millisecond")},
	}
	if d.Range != want {
		t.Errorf("range %+v, want %+v (UTF-16 columns of %q)", d.Range, want, line)
	}

	// Suppression applies as under every driver: in ignored.go the
	// backoff finding is silenced, and the directive that names no check
	// is reported.
	ignored := c.diagnostics(pathToURI(filepath.Join(dir, "ignored.go")))
	if len(ignored.Diagnostics) != 1 || ignored.Diagnostics[0].Code != "ignorecheck/unknown" {
		t.Errorf("ignored.go: %+v, want only an ignorecheck/unknown diagnostic", ignored.Diagnostics)
	}

	// A cursor inside the diagnostic asks for its quick fix.
	cursor := Range{Start: Position{Line: 20, Character: want.Start.Character + 3}, End: Position{Line: 20, Character: want.Start.Character + 3}}
	resp := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: cursor})
	if resp.Error != nil {
		t.Fatal(resp.Error)
	}
	var actions []CodeAction
	if err := json.Unmarshal(resp.Result, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 {
		t.Fatalf("%d code actions, want 1: %s", len(actions), resp.Result)
	}
	a := actions[0]
	if a.Kind != kindQuickFix || a.Title != "Wrap the delay in retry.FullJitter" || !a.IsPreferred || len(a.Diagnostics) != 1 || a.Edit == nil {
		t.Fatalf("code action %s", resp.Result)
	}
	fixed, err := applyEdits(text, a.Edit.Changes[uri])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`case <-time.After( /* 𝛿 ≈ «linear» */ retry.FullJitter(time.Duration(attempt) * 100 * time.Millisecond)):`,
		`"github.com/resilint/resilint/runtime/retry"`,
	} {
		if !strings.Contains(fixed, want) {
			t.Errorf("fixed text lacks %s:\n%s", want, fixed)
		}
	}
	if len(a.Edit.Changes) != 1 {
		t.Errorf("edits in %d documents, want 1", len(a.Edit.Changes))
	}

	// Edited (analysis on change is off): the fixes are stale, none is
	// offered until the next analysis.
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []contentChange{{Text: fixed}},
	})
	resp = c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: cursor})
	if string(resp.Result) != "[]" {
		t.Errorf("code actions on an edited document: %s, want none", resp.Result)
	}

	// Saved: analyzed again, the diagnostic is gone.
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	pd = c.diagnostics(uri)
	if len(pd.Diagnostics) != 0 {
		t.Errorf("after the fix: %+v, want no diagnostics", pd.Diagnostics)
	}
	c.shutdown()
}

// TestBrokenPackage: a file that does not parse gets a message, not a
// crash, and the server recovers when the file is fixed; edits are
// analyzed after the debounce, from the unsaved text.
func TestBrokenPackage(t *testing.T) {
	dir := fixture(t)
	path := filepath.Join(dir, "broken", "broken.go")
	uri := pathToURI(path)
	text := readFile(t, path)
	brokenText := strings.Replace(text, "func Answer() int {", "func Answer() int {{ (", 1)

	c := startServer(t, Options{Debounce: time.Millisecond})
	c.initialize(nil)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: brokenText}})
	msg := c.showMessage("a message about the broken package", func(p showMessageParams) bool {
		return strings.Contains(p.Message, "example.com/fixture/broken was not analyzed: it does not compile")
	})
	if msg.Type != messageWarning {
		t.Errorf("message type %d, want a warning", msg.Type)
	}
	if !strings.Contains(msg.Message, "broken.go:5") {
		t.Errorf("message %q does not say where", msg.Message)
	}
	if pd := c.diagnostics(uri); len(pd.Diagnostics) != 0 {
		t.Errorf("diagnostics for a package not analyzed: %+v", pd.Diagnostics)
	}

	// Fixed in the editor, not saved: analyzed from the overlay.
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []contentChange{{Text: text}},
	})
	pd := c.diagnostics(uri)
	if pd.Version == nil || *pd.Version != 2 || len(pd.Diagnostics) != 0 {
		t.Errorf("after the fix: version %v, %+v; want version 2, no diagnostics", pd.Version, pd.Diagnostics)
	}

	// A file outside any module: the go command's own words.
	loose := filepath.Join(t.TempDir(), "loose.go")
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: pathToURI(loose), LanguageID: "go", Version: 1, Text: "package loose\n"}})
	msg = c.showMessage("a message about the missing module", func(p showMessageParams) bool {
		return strings.Contains(p.Message, "go.mod file not found")
	})
	if msg.Type != messageError || !strings.HasPrefix(msg.Message, "resilint: cannot analyze ") {
		t.Errorf("message %+v, want an error saying what cannot be analyzed", msg)
	}
	c.shutdown()
}

// TestMalformedMessages: bad input gets error responses and the server
// keeps answering.
func TestMalformedMessages(t *testing.T) {
	c := startServer(t, Options{})
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	errorWith := func(what string, code int) {
		t.Helper()
		m := c.waitFor(what, func(m *message) bool { return m.isResponse() && m.Error != nil && m.Error.Code == code })
		if m.Error.Message == "" {
			t.Errorf("%s: error without a message", what)
		}
	}

	c.sendRaw(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize"`))
	errorWith("a parse error for truncated JSON", codeParseError)
	c.sendRaw("Content-Type: application/json\r\n\r\n")
	errorWith("a parse error for a header without Content-Length", codeParseError)
	c.sendRaw("Content-Length: many\r\n\r\n")
	errorWith("a parse error for a bad Content-Length", codeParseError)
	c.sendRaw(frame(`{"jsonrpc":"1.0","id":7,"method":"initialize"}`))
	errorWith("invalid request for the wrong version", codeInvalidRequest)
	c.sendRaw(frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`))
	errorWith("invalid request for an object id", codeInvalidRequest)
	if resp := c.call("textDocument/codeAction", map[string]any{}); resp.Error == nil || resp.Error.Code != codeServerNotInitialized {
		t.Errorf("a request before initialize: %+v, want error %d", resp.Error, codeServerNotInitialized)
	}
	if resp := c.call("initialize", "not an object"); resp.Error == nil || resp.Error.Code != codeInvalidParams {
		t.Errorf("initialize with bad params: %+v, want error %d", resp.Error, codeInvalidParams)
	}

	c.initialize(nil)
	if resp := c.call("initialize", map[string]any{}); resp.Error == nil {
		t.Error("a second initialize succeeded")
	}
	if resp := c.call("textDocument/hover", map[string]any{}); resp.Error == nil || resp.Error.Code != codeMethodNotFound {
		t.Errorf("an unknown method: %+v, want error %d", resp.Error, codeMethodNotFound)
	}
	if resp := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": "http://example.com/a.go"}}); resp.Error == nil || resp.Error.Code != codeInvalidParams {
		t.Errorf("a code action on a non-file URI: %+v, want error %d", resp.Error, codeInvalidParams)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": 3})                                                            // ignored, logged
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/notes.txt", "text": "hi"}}) // not Go
	c.notify("$/cancelRequest", map[string]any{"id": 1})
	resp := c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: "file:///nowhere/a.go"}})
	if resp.Error != nil || string(resp.Result) != "[]" {
		t.Errorf("a code action on a file never analyzed: %s %v, want []", resp.Result, resp.Error)
	}
	c.shutdown()
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		c.served <- err
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("Serve: %v, want %v", err, ErrExitWithoutShutdown)
		}
	case <-time.After(timeout):
		t.Fatal("the server did not exit")
	}
}
