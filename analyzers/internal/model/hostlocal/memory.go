package hostlocal

// Memory: the attempts that reach nothing outside this process. A retry
// of an in-process lock table, a counter taken with compare-and-swap or
// a flag another goroutine sets waits for other goroutines of the same
// process: no dependency fails for every client at once, and none is
// stormed by the retries.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// findMemory computes, among the package's local functions that bind
// nothing, those that touch only this process's memory (memoryBody), and
// those of them that synchronize with other goroutines through package
// sync or sync/atomic (syncs): the greatest sets, as findLocal does, a
// function dropping out when it, or a function of the package it calls,
// does not qualify.
func (r *Result) findMemory() {
	r.memory, r.syncs = map[*types.Func]bool{}, map[*types.Func]bool{}
	callers := map[*types.Func][]*types.Func{}
	var dropped, syncing []*types.Func
	for fn := range r.local {
		if r.binds[fn] {
			continue
		}
		r.memory[fn] = true
		ok, syncs := r.memoryBody(r.vals.Decls[fn].Body, false, func(callee *types.Func) {
			callers[callee] = append(callers[callee], fn)
		})
		if !ok {
			dropped = append(dropped, fn)
		} else if syncs {
			syncing = append(syncing, fn)
		}
	}
	for len(dropped) > 0 {
		fn := dropped[len(dropped)-1]
		dropped = dropped[:len(dropped)-1]
		if r.memory[fn] {
			delete(r.memory, fn)
			dropped = append(dropped, callers[fn]...)
		}
	}
	for len(syncing) > 0 {
		fn := syncing[len(syncing)-1]
		syncing = syncing[:len(syncing)-1]
		if r.memory[fn] && !r.syncs[fn] {
			r.syncs[fn] = true
			syncing = append(syncing, callers[fn]...)
		}
	}
}

// memoryFunc reports whether fn touches only this process's memory, and
// whether it synchronizes with other goroutines. Functions of other
// packages are known by their LocalFact.
func (r *Result) memoryFunc(fn *types.Func) (memory, syncs bool) {
	if fn.Pkg() == r.pass.Pkg {
		return r.memory[fn], r.syncs[fn]
	}
	var f LocalFact
	if !r.pass.ImportObjectFact(fn.Origin(), &f) {
		return false, false
	}
	return f.Memory, f.Syncs
}

// InMemory reports whether an attempt made of nodes and funcs reaches
// nothing outside this process and contends for its shared memory: every
// call stays in memory (memoryBody; a wait on a timer or a context's Done
// is allowed in nodes, the loop around the attempt), and one of them
// locks, or reads or swaps atomically, what other goroutines of the
// process write. An attempt that synchronizes with nothing (a function
// that returns a fixed error) is not known to be in memory: it stands
// for a call the model cannot see.
func (r *Result) InMemory(nodes []ast.Node, funcs []*types.Func) bool {
	syncs := false
	for _, fn := range funcs {
		memory, s := r.memoryFunc(fn)
		if !memory {
			return false
		}
		syncs = syncs || s
	}
	for _, n := range nodes {
		ok, s := r.memoryBody(n, true, nil)
		if !ok {
			return false
		}
		syncs = syncs || s
	}
	return syncs
}

// memoryBody reports whether n touches only this process's memory: every
// call is local and binds nothing (no file, process or socket of this
// host either), calls of the package are of memory functions (or, with
// edge set, are handed to it to decide), no goroutine is started, no
// channel is sent to or received from (but, with waits, a timer's or a
// context's Done, in a select or not), and nothing waits for other
// goroutines (a WaitGroup's or a Cond's Wait: they may be doing
// anything). syncs: a call of package sync or sync/atomic, or of a
// memory function that makes one.
func (r *Result) memoryBody(n ast.Node, waits bool, edge func(*types.Func)) (ok, syncs bool) {
	info := r.pass.TypesInfo
	ok = true
	stops := map[ast.Expr]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.GoStmt, *ast.SendStmt:
			ok = false
		case *ast.SelectStmt:
			if waits {
				stopCases(info, x, stops)
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && !(waits && isWaitChan(info, x.X)) && !stops[x] {
				ok = false
			}
		case *ast.RangeStmt:
			if _, isChan := typeUnder(info.TypeOf(x.X)).(*types.Chan); isChan {
				ok = false
			}
		case *ast.CallExpr:
			fn := analysisutil.Callee(info, x)
			if fn != nil && (analysisutil.IsMethod(fn, "sync", "WaitGroup", "Wait") || analysisutil.IsMethod(fn, "sync", "Cond", "Wait")) {
				ok = false
				return false
			}
			if fn != nil && edge != nil && r.vals.Decls[fn.Origin()] != nil {
				if !r.local[fn.Origin()] || r.binds[fn.Origin()] {
					ok = false
					return false
				}
				edge(fn.Origin())
				return true
			}
			if fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "sync" || fn.Pkg().Path() == "sync/atomic") {
				syncs = true
				return true
			}
			if fn != nil && fn.Pkg() != nil && !analysisutil.IsStd(analysisutil.PkgPath(fn)) && !analysisutil.IsInterfaceMethod(fn) {
				memory, s := r.memoryFunc(fn)
				if !memory {
					ok = false
					return false
				}
				syncs = syncs || s
				return true
			}
			if local, binds := r.localCall(x); !local || binds {
				ok = false
			}
		}
		return ok
	})
	return ok, syncs
}

// stopCases adds to stops the receives of a wait's select that stop the
// loop around the attempt: in a select with a case on a timer or a
// context's Done, a case that receives a value it discards and leaves
// (`case <-stop: return`) ends the wait, it fetches nothing. A case that
// keeps what it receives may be handed a dependency's answer.
func stopCases(info *types.Info, sel *ast.SelectStmt, stops map[ast.Expr]bool) {
	var waits bool
	var cand []ast.Expr
	for _, s := range sel.Body.List {
		cc, ok := s.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			continue
		}
		es, ok := cc.Comm.(*ast.ExprStmt)
		if !ok {
			continue
		}
		recv, ok := analysisutil.Unparen(es.X).(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			continue
		}
		if isWaitChan(info, recv.X) {
			waits = true
		} else if analysisutil.LeavesLoop(cc.Body, true) {
			cand = append(cand, recv)
		}
	}
	if waits {
		for _, e := range cand {
			stops[e] = true
		}
	}
}

// isWaitChan reports whether e is a channel a wait receives from: a
// timer's or ticker's (time.After, t.C: a chan of time.Time) or a
// context's Done.
func isWaitChan(info *types.Info, e ast.Expr) bool {
	if c, ok := analysisutil.Unparen(e).(*ast.CallExpr); ok {
		if analysisutil.IsMethod(analysisutil.Callee(info, c), "context", "Context", "Done") {
			return true
		}
	}
	ch, ok := typeUnder(info.TypeOf(e)).(*types.Chan)
	return ok && analysisutil.IsNamedType(ch.Elem(), "time", "Time")
}

func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}
