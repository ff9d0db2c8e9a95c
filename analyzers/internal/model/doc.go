// Package model is resilint's shared resilience model: one analysis pass
// (resilmodel) that recognizes, once, the retries of a package
// (hand-written loops and recursion, library calls and retrying clients
// from the catalog, the package's own retry helpers), how many attempts
// each makes and what each attempt reaches; the waits between attempts
// and the shape of their delays; the HTTP sends of each attempt; the
// package's timeouts and deadlines; and where values come from. It
// exports facts for the functions that retry, wait, draw random values,
// check their context, send, build requests or set timeouts, so callers
// in other packages (and other go vet processes) know it too.
//
// By itself it reports nothing, and it never judges: no category,
// message or fix lives here. The checks (analyzers/<check>) list it, or a
// layer built on it, in Requires, and judge, word and fix from what the
// layers state. The layers built on it are packages of their own:
// libconfig (library configurations), breakers (circuit breakers), and
// rediscmd, httpstatus and respread (rate limiting). docs/model.md
// describes every layer and every fact.
package model
