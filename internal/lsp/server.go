package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/engine"
)

// Options configure a server.
type Options struct {
	// Analyzers are the checks to run, normally analyzers.All().
	Analyzers []*analysis.Analyzer
	// Version is reported to the client in serverInfo.
	Version string
	// Debounce is the quiet time after an edit before the edited package
	// is analyzed again (zero means one second). A client can change it
	// with the initialization option "debounceMillis", or switch analysis
	// on edits off with "analyzeOnChange": false.
	Debounce time.Duration
	// Log receives the server's own log; nil means none.
	Log io.Writer

	// started, if set, is called with the server before it serves
	// (tests reach its engine through it).
	started func(*server)
}

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown first (the protocol asks for exit status 1 then).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve runs a language server on the stream r/w until the client sends
// exit, the stream ends or ctx is done. It returns nil after a shutdown
// then exit.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	s := newServer(ctx, w, opts)
	if opts.started != nil {
		opts.started(s)
	}
	workerDone := make(chan struct{})
	go func() {
		defer close(workerDone)
		s.worker()
	}()
	defer func() {
		// Stop the timers and the analysis in progress (the load
		// watches ctx), and publish nothing after returning.
		s.stop()
		cancel()
		<-workerDone
		if s.engine != nil {
			s.engine.Wait() // what it prepares in the background
		}
	}()

	// Read on a goroutine of its own so that a blocked read does not
	// outlive ctx.
	type result struct {
		body []byte
		err  error
	}
	bodies := make(chan result)
	go func() {
		rd := newReader(r)
		for {
			body, err := rd.read()
			select {
			case bodies <- result{body, err}:
			case <-ctx.Done():
				return
			}
			var ef *errFraming
			if err != nil && !errors.As(err, &ef) {
				return
			}
		}
	}()
	for {
		var res result
		select {
		case res = <-bodies:
		case <-ctx.Done():
			return ctx.Err()
		}
		if res.err != nil {
			var ef *errFraming
			if errors.As(res.err, &ef) {
				s.logf("%v", res.err)
				s.reply(json.RawMessage("null"), nil, &rpcError{codeParseError, res.err.Error()})
				continue
			}
			if res.err == io.EOF || res.err == io.ErrUnexpectedEOF {
				if s.isShutdown() {
					return nil
				}
				return fmt.Errorf("client closed the stream without exit: %w", res.err)
			}
			return res.err
		}
		if done, err := s.handle(res.body); done {
			return err
		}
	}
}

// A server holds the open documents and the latest findings. Requests
// are handled one at a time on Serve's goroutine; analysis runs on the
// worker goroutine.
type server struct {
	ctx       context.Context
	out       *writer
	logger    *log.Logger
	analyzers []*analysis.Analyzer
	version   string
	engine    *engine.Engine // made by the first analysis; used by the worker only

	wake chan struct{} // signals the worker; capacity 1

	mu              sync.Mutex
	initialized     bool
	shutdown        bool
	analyzeOnChange bool
	debounce        time.Duration
	docs            map[string]*document  // open documents by file path
	files           map[string]*fileState // findings by file path
	pending         map[string]*run       // analyses to do, by package directory
	shown           map[string]string     // last problem shown per directory
	timers          map[*time.Timer]bool
	stopped         bool
}

type document struct {
	uri     string // as the client spelled it
	version int
	text    string
}

// fileState is what was last published for a file.
type fileState struct {
	uri      string
	version  int // of the document analyzed; -1 if it was read from disk
	findings []*finding
}

// A finding is one published diagnostic and its quick fixes.
type finding struct {
	diag  Diagnostic
	fixes []CodeAction // without Diagnostics, which codeAction fills in
}

// A run is a pending analysis of the packages of one directory.
type run struct {
	dir   string
	tests bool      // include test files (a _test.go file asked for it)
	due   time.Time // not before
}

func newServer(ctx context.Context, w io.Writer, opts Options) *server {
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	debounce := opts.Debounce
	if debounce <= 0 {
		debounce = time.Second
	}
	return &server{
		ctx:             ctx,
		out:             &writer{w: w},
		logger:          log.New(logw, "resilint lsp: ", log.LstdFlags),
		analyzers:       opts.Analyzers,
		version:         opts.Version,
		wake:            make(chan struct{}, 1),
		analyzeOnChange: true,
		debounce:        debounce,
		docs:            make(map[string]*document),
		files:           make(map[string]*fileState),
		pending:         make(map[string]*run),
		shown:           make(map[string]string),
		timers:          make(map[*time.Timer]bool),
	}
}

func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	for t := range s.timers {
		t.Stop()
	}
}

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

func (s *server) logf(format string, args ...any) { s.logger.Printf(format, args...) }

// handle dispatches one message. done reports that Serve must return
// (with err): the client sent exit.
func (s *server) handle(body []byte) (done bool, err error) {
	m, rerr := decodeMessage(body)
	if rerr != nil {
		s.logf("%v", rerr)
		id := json.RawMessage("null")
		if m != nil && m.ID != nil {
			id = m.ID
		}
		s.reply(id, nil, rerr)
		return false, nil
	}
	if m.isResponse() {
		return false, nil // the server sends no requests that need answers
	}
	isRequest := m.ID != nil
	defer func() {
		// A bug in a handler must not take the editor's server down.
		if p := recover(); p != nil {
			s.logf("panic handling %s: %v\n%s", m.Method, p, debug.Stack())
			if isRequest {
				s.reply(m.ID, nil, &rpcError{codeInternalError, fmt.Sprintf("internal error handling %s: %v", m.Method, p)})
			}
			done, err = false, nil
		}
	}()

	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()

	switch {
	case m.Method == "exit":
		if shutdown {
			return true, nil
		}
		return true, ErrExitWithoutShutdown
	case !initialized && m.Method != "initialize":
		if isRequest {
			s.reply(m.ID, nil, &rpcError{codeServerNotInitialized, "the server is not initialized"})
		}
		return false, nil
	case shutdown:
		if isRequest {
			s.reply(m.ID, nil, &rpcError{codeInvalidRequest, "the server is shut down"})
		}
		return false, nil
	}

	var result any
	var herr error
	switch m.Method {
	case "initialize":
		result, herr = s.initialize(m.Params)
	case "initialized":
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
	case "textDocument/didOpen":
		herr = s.didOpen(m.Params)
	case "textDocument/didChange":
		herr = s.didChange(m.Params)
	case "textDocument/didSave":
		herr = s.didSave(m.Params)
	case "textDocument/didClose":
		herr = s.didClose(m.Params)
	case "textDocument/codeAction":
		result, herr = s.codeAction(m.Params)
	default:
		if isRequest {
			s.reply(m.ID, nil, &rpcError{codeMethodNotFound, "method not found: " + m.Method})
		}
		// Unknown notifications ($/cancelRequest, $/setTrace,
		// workspace/didChangeConfiguration, ...) are ignored.
		return false, nil
	}
	if !isRequest {
		if herr != nil {
			s.logf("%s: %v", m.Method, herr)
		}
		return false, nil
	}
	if herr != nil {
		var re *rpcError
		if !errors.As(herr, &re) {
			re = &rpcError{codeInternalError, herr.Error()}
		}
		s.reply(m.ID, nil, re)
		return false, nil
	}
	s.reply(m.ID, result, nil)
	return false, nil
}

func (s *server) reply(id json.RawMessage, result any, rerr *rpcError) {
	m := &message{ID: id, Error: rerr}
	if rerr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			m.Error = &rpcError{codeInternalError, err.Error()}
		} else {
			m.Result = b
		}
	}
	if err := s.out.write(m); err != nil {
		s.logf("writing a response: %v", err)
	}
}

func (s *server) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		s.logf("encoding %s: %v", method, err)
		return
	}
	if err := s.out.write(&message{Method: method, Params: b}); err != nil {
		s.logf("writing %s: %v", method, err)
	}
}

// showMessage tells the user something in the editor and logs it.
func (s *server) showMessage(typ int, msg string) {
	s.logf("%s", msg)
	s.notify("window/showMessage", showMessageParams{Type: typ, Message: msg})
}

func (s *server) logMessage(typ int, msg string) {
	s.logf("%s", msg)
	s.notify("window/logMessage", showMessageParams{Type: typ, Message: msg})
}

func invalidParams(method string, err error) error {
	return &rpcError{codeInvalidParams, fmt.Sprintf("invalid params for %s: %v", method, err)}
}

func decodeParams(method string, raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return invalidParams(method, errors.New("no params"))
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams(method, err)
	}
	return nil
}

func (s *server) initialize(raw json.RawMessage) (any, error) {
	var p initializeParams
	if err := decodeParams("initialize", raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, &rpcError{codeInvalidRequest, "initialize sent twice"}
	}
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		var o initializationOptions
		if err := json.Unmarshal(p.InitializationOptions, &o); err != nil {
			return nil, invalidParams("initialize", fmt.Errorf("initializationOptions: %v", err))
		}
		if o.AnalyzeOnChange != nil {
			s.analyzeOnChange = *o.AnalyzeOnChange
		}
		if o.DebounceMillis != nil && *o.DebounceMillis >= 0 {
			s.debounce = time.Duration(*o.DebounceMillis) * time.Millisecond
		}
	}
	s.initialized = true
	return initializeResult{
		Capabilities: serverCapabilities{
			TextDocumentSync: textDocumentSyncOptions{
				OpenClose: true,
				Change:    syncFull,
				Save:      saveOptions{IncludeText: false},
			},
			CodeActionProvider: codeActionOptions{CodeActionKinds: []string{kindQuickFix}},
		},
		ServerInfo: serverInfo{Name: "resilint", Version: s.version},
	}, nil
}

// goFile reports the path of a Go document's URI, or "" for a document
// the server does not analyze.
func goFile(method, uri string) (string, error) {
	path, err := uriToPath(uri)
	if err != nil {
		return "", invalidParams(method, err)
	}
	if !strings.HasSuffix(path, ".go") {
		return "", nil
	}
	return path, nil
}

func (s *server) didOpen(raw json.RawMessage) error {
	var p didOpenParams
	if err := decodeParams("textDocument/didOpen", raw, &p); err != nil {
		return err
	}
	path, err := goFile("textDocument/didOpen", p.TextDocument.URI)
	if err != nil || path == "" {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[path] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: p.TextDocument.Text}
	s.scheduleLocked(path, 0)
	return nil
}

func (s *server) didChange(raw json.RawMessage) error {
	var p didChangeParams
	if err := decodeParams("textDocument/didChange", raw, &p); err != nil {
		return err
	}
	path, err := goFile("textDocument/didChange", p.TextDocument.URI)
	if err != nil || path == "" {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[path]
	if !ok {
		return invalidParams("textDocument/didChange", fmt.Errorf("%s is not open", p.TextDocument.URI))
	}
	text := d.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		t, err := applyEdits(text, []TextEdit{{Range: *c.Range, NewText: c.Text}})
		if err != nil {
			return invalidParams("textDocument/didChange", err)
		}
		text = t
	}
	d.text = text
	d.version = p.TextDocument.Version
	if s.analyzeOnChange {
		s.scheduleLocked(path, s.debounce)
	}
	return nil
}

func (s *server) didSave(raw json.RawMessage) error {
	var p didSaveParams
	if err := decodeParams("textDocument/didSave", raw, &p); err != nil {
		return err
	}
	path, err := goFile("textDocument/didSave", p.TextDocument.URI)
	if err != nil || path == "" {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[path]; ok && p.Text != nil {
		d.text = *p.Text
	}
	s.scheduleLocked(path, 0)
	return nil
}

func (s *server) didClose(raw json.RawMessage) error {
	var p didCloseParams
	if err := decodeParams("textDocument/didClose", raw, &p); err != nil {
		return err
	}
	path, err := goFile("textDocument/didClose", p.TextDocument.URI)
	if err != nil || path == "" {
		return err
	}
	s.mu.Lock()
	delete(s.docs, path)
	fs, had := s.files[path]
	delete(s.files, path)
	// The package's other open files were analyzed with this one's
	// unsaved text: analyze them again against the disk.
	dir := filepath.Dir(path)
	for other := range s.docs {
		if filepath.Dir(other) == dir {
			s.scheduleLocked(other, 0)
			break
		}
	}
	s.mu.Unlock()
	if had && len(fs.findings) > 0 {
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []Diagnostic{}})
	}
	return nil
}

// scheduleLocked asks for the package of the file at path to be analyzed
// after delay; an earlier request for the same directory stands.
func (s *server) scheduleLocked(path string, delay time.Duration) {
	dir := filepath.Dir(path)
	due := time.Now().Add(delay)
	r, ok := s.pending[dir]
	if !ok {
		r = &run{dir: dir, due: due}
		s.pending[dir] = r
	} else if delay > 0 {
		// An edit while waiting: wait for the edits to settle, but do
		// not put off a run that a save or open asked for now.
		if r.due.After(time.Now()) {
			r.due = due
		}
	} else {
		r.due = due
	}
	r.tests = r.tests || strings.HasSuffix(path, "_test.go")
	if delay <= 0 {
		s.signal()
		return
	}
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		s.mu.Lock()
		delete(s.timers, t)
		s.mu.Unlock()
		s.signal()
	})
	s.timers[t] = true
}

func (s *server) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// worker runs the pending analyses, one at a time, until the server stops.
func (s *server) worker() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.wake:
		}
		for {
			r, snap := s.next()
			if r == nil {
				break
			}
			s.runAnalysis(r, snap)
			if s.ctx.Err() != nil {
				return
			}
		}
	}
}

// next takes the earliest due run and a snapshot of the open documents.
func (s *server) next() (*run, map[string]*document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || s.shutdown {
		return nil, nil
	}
	now := time.Now()
	var best *run
	for _, r := range s.pending {
		if !r.due.After(now) && (best == nil || r.due.Before(best.due)) {
			best = r
		}
	}
	if best == nil {
		return nil, nil
	}
	delete(s.pending, best.dir)
	snap := make(map[string]*document, len(s.docs))
	for path, d := range s.docs {
		c := *d
		snap[path] = &c
	}
	return best, snap
}

// runAnalysis analyzes one directory's packages and publishes the result.
func (s *server) runAnalysis(r *run, snap map[string]*document) {
	t0 := time.Now()
	res, err := s.analyze(r.dir, r.tests, snap)
	if err != nil {
		s.problem(r.dir, messageError, fmt.Sprintf("resilint: cannot analyze %s: %v", r.dir, err))
		return
	}
	n := 0
	for _, f := range res.files {
		n += len(f.findings)
	}
	s.logMessage(messageLog, fmt.Sprintf("analyzed %s in %v: %d diagnostics", r.dir, time.Since(t0).Round(time.Millisecond), n))
	if len(res.problems) > 0 {
		s.problem(r.dir, messageWarning, "resilint: "+strings.Join(res.problems, "; "))
	} else {
		s.problem(r.dir, 0, "")
	}

	paths := make([]string, 0, len(res.files))
	for p := range res.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		f := res.files[path]
		s.mu.Lock()
		if d, ok := s.docs[path]; ok {
			f.uri = d.uri
		}
		old := s.files[path]
		if len(f.findings) == 0 {
			delete(s.files, path)
		} else {
			s.files[path] = f
		}
		s.mu.Unlock()
		if len(f.findings) == 0 && old == nil {
			if _, open := snap[path]; !open {
				continue // nothing to clear in a file the editor does not show
			}
		}
		params := publishDiagnosticsParams{URI: f.uri, Diagnostics: make([]Diagnostic, 0, len(f.findings))}
		if f.version >= 0 {
			v := f.version
			params.Version = &v
		}
		for _, fd := range f.findings {
			params.Diagnostics = append(params.Diagnostics, fd.diag)
		}
		s.notify("textDocument/publishDiagnostics", params)
	}
}

// problem shows msg (a problem in the packages of dir) unless it is what
// was last shown for dir; typ 0 clears it.
func (s *server) problem(dir string, typ int, msg string) {
	s.mu.Lock()
	last := s.shown[dir]
	if typ == 0 {
		delete(s.shown, dir)
	} else {
		s.shown[dir] = msg
	}
	s.mu.Unlock()
	switch {
	case typ == 0:
	case msg == last:
		s.logMessage(typ, msg)
	default:
		s.showMessage(typ, msg)
	}
}

func (s *server) codeAction(raw json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decodeParams("textDocument/codeAction", raw, &p); err != nil {
		return nil, err
	}
	actions := []CodeAction{}
	if len(p.Context.Only) > 0 && !wantsQuickFix(p.Context.Only) {
		return actions, nil
	}
	path, err := goFile("textDocument/codeAction", p.TextDocument.URI)
	if err != nil || path == "" {
		return actions, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[path]
	if !ok {
		return actions, nil
	}
	if d, open := s.docs[path]; open && d.version != f.version {
		// Edited since the analysis: the fixes' ranges are stale. The
		// next analysis publishes fresh ones.
		return actions, nil
	}
	for _, fd := range f.findings {
		if !overlaps(fd.diag.Range, p.Range) {
			continue
		}
		for _, a := range fd.fixes {
			a.Diagnostics = []Diagnostic{fd.diag}
			actions = append(actions, a)
		}
	}
	return actions, nil
}

func wantsQuickFix(only []string) bool {
	for _, k := range only {
		if k == kindQuickFix || strings.HasPrefix(kindQuickFix, k+".") {
			return true
		}
	}
	return false
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// overlaps reports whether two ranges share a position; an empty range
// (a cursor) touching either end counts.
func overlaps(a, b Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
