package rediscmd

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// dynamicCmd records a command named by a string argument (redigo's
// conn.Do("INCR", key)). Commands between MULTI and EXEC (or DISCARD), in
// source order, and commands only queued (Send) are guarded.
func (b *builder) dynamicCmd(f *Func, call *ast.CallExpr, row *catalog.RedisRow) {
	if row.CmdArg >= len(call.Args) || call.Ellipsis.IsValid() {
		return
	}
	name, ok := b.constString(call.Args[row.CmdArg])
	if !ok {
		return
	}
	name = strings.ToUpper(name)
	switch name {
	case "MULTI":
		f.multi = true
		f.tx++
		return
	case "EXEC":
		f.multi, f.watched = false, nil // EXEC unwatches every key
		return
	case "DISCARD":
		// A discard in a branch that leaves (a refusal that returns)
		// ends nothing for the code after it, which goes on to EXEC.
		if !inLeavingBranch(f.Node, call) {
			f.multi, f.watched = false, nil // DISCARD unwatches too
		}
		return
	case "UNWATCH":
		if !inLeavingBranch(f.Node, call) {
			f.watched = nil
		}
		return
	case "WATCH":
		if f.watched == nil {
			f.watched = map[string]bool{}
		}
		for _, k := range call.Args[min(row.KeyArg, len(call.Args)):] {
			if id := b.keyID(k); id != "" {
				f.watched[id] = true
			}
		}
		return
	}
	kind, count, keys, ok := catalog.RedisCommand(name)
	if !ok || row.KeyArg >= len(call.Args) {
		return
	}
	guarded := f.Guarded || f.multi || row.Queues
	tx := 0
	if f.multi && !f.Guarded {
		tx = f.tx
	}
	keyArgs := call.Args[row.KeyArg : row.KeyArg+1]
	var uses []types.Object
	if keys {
		keyArgs = call.Args[row.KeyArg:]
	} else {
		uses = b.uses(call.Args[row.KeyArg+1:])
	}
	for _, k := range keyArgs {
		id := b.keyID(k)
		f.Cmds = append(f.Cmds, &Command{Call: call, Cmd: name, Kind: kind, Key: k, KeyID: id, Guarded: guarded, Tx: tx, Watched: f.watched[id], Count: count, Reply: b.reply1(call), Uses: uses})
	}
}

// inLeavingBranch reports whether call is in the body of an if (or an
// else) that always leaves (analysisutil.LeavesBlock) within fn: in
// source order, what it does holds for that branch only.
func inLeavingBranch(fn ast.Node, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if found || n == nil || n.Pos() > call.Pos() || n.End() < call.End() {
			return false
		}
		if ifs, ok := n.(*ast.IfStmt); ok {
			if ifs.Body.Pos() <= call.Pos() && call.End() <= ifs.Body.End() && analysisutil.LeavesBlock(ifs.Body) {
				found = true
			}
			if els, ok := ifs.Else.(*ast.BlockStmt); ok && els.Pos() <= call.Pos() && call.End() <= els.End() && analysisutil.LeavesBlock(els) {
				found = true
			}
		}
		return !found
	})
	return found
}
