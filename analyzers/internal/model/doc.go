// Package model is resilint's shared resilience model: one analysis pass
// (resilmodel) that recognizes, once, the retries of a package
// (hand-written loops and recursion, library calls and retrying clients
// from the catalog, the package's own retry helpers), how many attempts
// each makes, what each attempt reaches and the waits between attempts.
// It exports facts for the functions that retry or run a function under a
// retry, so callers in other packages (and other go vet processes) know
// it too.
//
// It is one layer of several, each an analysis pass that reports nothing
// and never judges: no category, message or fix lives in any of them. The
// model stands on provenance (where values come from, ConstFact) and
// waits (functions that wait, draw random values or check their context;
// delay shapes); sends (the HTTP sends of each attempt), timeouts
// (timeouts and deadlines), libconfig (library configurations), breakers
// (circuit breakers), and rediscmd, httpstatus and respread (rate
// limiting) stand on it; hostlocal (attempts whose every call stays on
// this host) stands on provenance only. The checks (analyzers/<check>) list the layers
// they read in Requires, and judge, word and fix from what the layers
// state. docs/model.md describes every layer and every fact.
package model
