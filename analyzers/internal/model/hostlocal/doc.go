// Package hostlocal is the model's layer of what an attempt reaches: an
// analysis pass (resilhostlocal) that reports nothing and finds the
// package's functions whose every call stays on this host — binding a
// listener, setting a socket option, dialing a Unix-domain socket,
// reading a file, formatting, logging, waiting — and none of which
// reaches a dependency that other clients share. It exports LocalFact for
// them, so a package's own bind helper counts wherever it is called, and
// a DialsParamFact for those whose only other calls dial the address a
// parameter holds (local where the attempt binds that address). Among
// the local functions that bind nothing, it marks those that touch only
// this process's memory and those of them that synchronize with its
// other goroutines (memory.go): an attempt of those contends for an
// in-process lock or counter, not for a dependency.
//
// The standard library is judged by catalog rows (catalog.HostLocal,
// catalog.HostLocalDial and catalog.HostLocalPackages); any other call —
// a function value, an interface method, a function of another package
// without the fact — may reach anywhere, and so is not local. Its Result
// answers one question for the checks: does every call in this syntax (an
// attempt of a retry) stay on this host? Whether that silences a finding
// is the checks' decision. docs/model.md describes every layer.
package hostlocal
