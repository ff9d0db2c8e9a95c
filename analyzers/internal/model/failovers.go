package model

import (
	"go/ast"
)

// addFailover lists a loop that iterates (each pass sends something new:
// the next node, a fresh request) in Result.Failovers when it is shaped
// like a retry — some failure goes round, no success does, and some
// success leaves — and waits between its passes. It is no retry site:
// nothing counts its attempts, asks its delays for jitter or its request
// for a key; what a failover's wait still owes the caller is to end
// when the caller's context does.
func (m *builder) addFailover(in *interp, body *ast.BlockStmt, stmt ast.Stmt, label string, gotoList []ast.Stmt, gotoIdx int) {
	in.steps, in.aborted, in.immediate, in.immediateIdentified = 0, false, false, false
	v := in.judgeLoop(body, stmt, label, gotoList, gotoIdx)
	if !v.retry {
		return
	}
	r := loopSite(stmt, label, gotoList, gotoIdx)
	m.findDelays(r, body)
	if len(r.Delays) > 0 {
		m.result.Failovers = append(m.result.Failovers, r)
	}
}
