// Package lsp is `resilint lsp`: a Language Server that editors run beside
// gopls, which cannot load third-party analyzers.
//
// On didOpen and didSave of a Go file, and after a pause in didChange
// edits, the server loads the file's directory's packages with go/packages
// (unsaved documents as an overlay), runs the suite with
// golang.org/x/tools/go/analysis/checker (the same analyzers and facts as
// the command line) and publishes textDocument/publishDiagnostics: one
// warning per finding with source "resilint", code "<check>/<category>",
// codeDescription linking the check's page and relatedInformation for the
// other places. textDocument/codeAction offers each suggested fix as a
// quickfix whose WorkspaceEdit holds the fix's edits in UTF-16 positions.
//
// The JSON-RPC 2.0 framing (Content-Length headers) is implemented here:
// it is small, and it keeps the server free of gopls' internal packages.
// A malformed message gets an error response and the server goes on; a
// package that does not load or compile gets a window/showMessage.
package lsp
