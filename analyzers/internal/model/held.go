package model

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// A receive is what a path makes of a statement or a select case's
// communication that receives from a channel (receiveOn).
type receive uint8

const (
	recvOther receive = iota // no receive the rules below decide
	recvNever                // from a channel nil on this path: it never happens
	recvHeld                 // the end of what an operation's success holds
)

// receiveOn classifies the receive in stmt on the path s.
//
// A receive from a channel that an operation of the path handed out
// with its outcome — one of its other results (`lost, err :=
// lock.Acquire(stop)`, then `<-lost`), or what a method of such a result
// given nothing returns (`<-sess.Done()`) — waits until what the
// operation holds (a lock, a lease, a session) ends: a pass that goes
// round on it re-acquires what it lost, a success going round as a
// watch does, neither one that read partial results nor one that waited
// a poll's interval (recvHeld). After a failure it never happens: a
// failed call's other results are nil by Go's convention (recvNever).
//
// A receive from one of the judged loop's channel variables that is
// nil on the path (nilChanVars) never happens either (recvNever).
func (in *interp) receiveOn(stmt ast.Stmt, s *state) receive {
	if stmt == nil {
		return recvOther
	}
	ch := analysisutil.Unparen(analysisutil.CommRecv(stmt))
	if id, ok := ch.(*ast.Ident); ok && len(in.nilChans) > 0 {
		if _, isNil := s.val(nilChanKey{in.info.Uses[id]}); isNil {
			return recvNever
		}
	}
	if call, ok := ch.(*ast.CallExpr); ok && len(call.Args) == 0 {
		if sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if fn, ok := in.info.Uses[sel.Sel].(*types.Func); ok && fn.Signature().Recv() != nil {
				ch = analysisutil.Unparen(sel.X)
			}
		}
	}
	id, ok := ch.(*ast.Ident)
	if !ok {
		return recvOther
	}
	obj := in.info.Uses[id]
	if obj == nil {
		return recvOther
	}
	for _, sl := range s.slots {
		if sl.op != nil && slices.Contains(sl.partials, obj) {
			if sl.status() == stFailed {
				return recvNever
			}
			return recvHeld
		}
	}
	return recvOther
}

// heldEnded is the path s once the channel an operation handed out with
// its success said that what it held ended: what paces the pass now is
// that event. A wait the operation made before it succeeded (a lock
// that retries inside until it is granted) is no poll's interval after
// the success; a pass that goes round now re-acquires, as a watch does.
func heldEnded(s *state) *state {
	if !s.delayed {
		return s
	}
	s = s.clone()
	s.delayed, s.delayMay = false, false
	return s
}

// nilChanKey keys, among a path's values (state.vals), a channel
// variable that holds nil on the path.
type nilChanKey struct{ obj types.Object }

// nilChanVars finds the channel variables declared in the judged loop
// without a value (`var again <-chan time.Time`) that no closure uses
// and whose address is never taken: every write of theirs is a statement
// of the loop the interpreter sees.
func nilChanVars(info *types.Info, region ast.Node) map[types.Object]bool {
	var out map[types.Object]bool
	ast.Inspect(region, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 0 {
			return true
		}
		for _, id := range vs.Names {
			if obj := info.Defs[id]; obj != nil {
				if _, isChan := obj.Type().Underlying().(*types.Chan); isChan {
					if out == nil {
						out = map[types.Object]bool{}
					}
					out[obj] = true
				}
			}
		}
		return true
	})
	if out == nil {
		return nil
	}
	inClosure := 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			inClosure++
			ast.Inspect(x.Body, visit)
			inClosure--
			return false
		case *ast.UnaryExpr:
			if id, ok := analysisutil.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND {
				delete(out, info.Uses[id])
			}
		case *ast.Ident:
			if inClosure > 0 {
				delete(out, info.Uses[x])
			}
		}
		return true
	}
	ast.Inspect(region, visit)
	return out
}

// noteNilChans records what stmt makes of the loop's nil-able channel
// variables (nilChanVars): declared without a value or assigned nil, the
// variable is nil on the path; assigned anything else, it may not be.
func (in *interp) noteNilChans(stmt ast.Stmt, s *state) *state {
	if len(in.nilChans) == 0 {
		return s
	}
	set := func(e ast.Expr, isNil bool) {
		id, ok := analysisutil.Unparen(e).(*ast.Ident)
		if !ok {
			return
		}
		obj := in.info.ObjectOf(id)
		if !in.nilChans[obj] {
			return
		}
		if _, known := s.val(nilChanKey{obj}); known == isNil {
			return
		}
		s = s.clone()
		if isNil {
			s.setVal(nilChanKey{obj}, constant.MakeBool(true))
		} else {
			s.setVal(nilChanKey{obj}, nil)
		}
	}
	switch st := stmt.(type) {
	case *ast.DeclStmt:
		if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					set(id, len(vs.Values) == 0 || in.info.Types[vs.Values[i]].IsNil())
				}
			}
		}
	case *ast.AssignStmt:
		for i, l := range st.Lhs {
			set(l, len(st.Lhs) == len(st.Rhs) && in.info.Types[st.Rhs[i]].IsNil())
		}
	}
	return s
}
