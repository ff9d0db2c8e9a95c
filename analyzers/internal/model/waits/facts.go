package waits

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// WaitFact is exported for every function whose body waits outside any
// loop (a timer, a sleep, a receive from ctx.Done(), or a call of a
// function that waits), so that a package's own sleep helper counts as a
// wait wherever it is called. A function that waits only inside a loop (a
// retry that waits between its own attempts) does not wait before a
// caller's next attempt, so it has no fact. Recognition is by what the
// body does, never by the name.
type WaitFact struct {
	// Pure is set when the function does nothing fallible but wait: its
	// error result, if any, can only be the context's (a sleep helper
	// that returns ctx.Err()), so a call of it is not an operation.
	Pure bool
	// Jitters is set when the function draws a random number outside
	// loops (`time.Sleep(d + rand.N(d))`): the duration it is given is
	// not all it waits, so a fixed one is no fixed wait.
	Jitters bool
	// Blind is set when every wait of the function is a time.Sleep or a
	// bare receive from a timer (outside any select), itself or through
	// another such function: nothing ends it early, so a caller's
	// context is not watched while it waits.
	Blind bool
	// Fixed is set when the function is given no duration and no value
	// but counts and contexts (`backoff(ctx, attempt)`), and every wait
	// it makes outside loops waits a delay of its own with no random part
	// (`time.Sleep(time.Duration(attempt) * time.Second)`): called between
	// attempts, it is a wait without jitter.
	Fixed bool
	// Terminal is set when the function reads the process's standard
	// input, or hands it on (ReadsTerminal), outside loops, itself or
	// through another such function: it waits for a person (a prompt,
	// an editor run in the foreground) or for what feeds the process.
	Terminal bool
	// Timeouts are the indices of the duration parameters that bound the
	// wait as a timeout (the function waits for something else and fails
	// when that long has passed first: TimeoutParams), no pause.
	Timeouts []int
}

func (*WaitFact) AFact() {}

func (f *WaitFact) String() string {
	var attrs []string
	if f.Pure {
		attrs = append(attrs, "pure")
	}
	if f.Jitters {
		attrs = append(attrs, "jitters")
	}
	if f.Fixed {
		attrs = append(attrs, "fixed")
	}
	if f.Blind {
		attrs = append(attrs, "blind")
	}
	if f.Terminal {
		attrs = append(attrs, "terminal")
	}
	if len(f.Timeouts) > 0 {
		attrs = append(attrs, fmt.Sprintf("timeouts%v", f.Timeouts))
	}
	if len(attrs) == 0 {
		return "waits"
	}
	return "waits(" + strings.Join(attrs, ", ") + ")"
}

// RandomFact is exported for every function that returns a value drawn
// from a random source (math/rand, math/rand/v2, crypto/rand, or another
// function with this fact): a package's jitter helper counts as a random
// draw wherever it is called.
type RandomFact struct {
	// Result is the index of the random result.
	Result int
}

func (*RandomFact) AFact() {}

func (f *RandomFact) String() string { return "random" }

// maxFactRounds bounds the rounds over a package's functions that let a
// helper of a helper inherit a fact: each round is linear in the package.
const maxFactRounds = 8

// markRounds marks in set each function of funcs (its keys) for which
// holds answers yes, in rounds until one marks nothing new or
// maxFactRounds have run: holds may read set, so a function that calls
// one marked in an earlier round is marked in the next.
func markRounds[V any](funcs map[*types.Func]V, set map[*types.Func]bool, holds func(fn *types.Func) bool) {
	for round := 0; round < maxFactRounds; round++ {
		changed := false
		for fn := range funcs {
			if !set[fn] && holds(fn) {
				set[fn] = true
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// findDelayFuncs marks the package's functions whose body waits, exports
// their WaitFact, and returns them with whether each is a pure wait.
func (m *Result) findDelayFuncs() map[*types.Func]bool {
	in := Calls{Info: m.pass.TypesInfo, Funcs: map[*types.Func]bool{}, Pure: map[*types.Func]bool{}, Import: m.ImportedWait, Certain: true}
	markRounds(m.vals.Decls, in.Funcs, func(fn *types.Func) bool {
		return waitsOnEveryCall(m.pass.TypesInfo, m.vals.Decls[fn].Body, in.WaitsHere)
	})
	// A pure wait calls nothing fallible but waits.
	for fn := range in.Funcs {
		d := m.vals.Decls[fn]
		pure := true
		ast.Inspect(d.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && !in.IsPureWait(c) && in.IsOp(c) {
				pure = false
			}
			return pure
		})
		if pure {
			in.Pure[fn] = true
		}
	}
	m.PureWaits = in.Pure
	return in.Funcs
}

// waitsOnEveryCall reports whether body waits outside loops and closures.
// A select that hands a value on (`case ch <- v: case <-ctx.Done():`)
// and has no timer among its cases blocks until a receiver takes the
// value: a hand-off, which paces nothing, so its cases are no wait of
// its own (handOff); a wait in a case's body still counts.
func waitsOnEveryCall(info *types.Info, body *ast.BlockStmt, waitsHere func(ast.Node) bool) bool {
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.SelectStmt:
			if handOff(info, x) {
				for _, c := range x.Body.List {
					for _, st := range c.(*ast.CommClause).Body {
						ast.Inspect(st, visit)
					}
				}
				return false
			}
		}
		if n != nil && waitsHere(n) {
			found = true
		}
		return !found
	}
	ast.Inspect(body, visit)
	return found
}

// handOff reports whether sel has a send among its cases and no receive
// from a timer's channel: it waits for a receiver, not for a time.
func handOff(info *types.Info, sel *ast.SelectStmt) bool {
	timerRecv := func(e ast.Expr) bool {
		u, ok := analysisutil.Unparen(e).(*ast.UnaryExpr)
		return ok && u.Op == token.ARROW && IsTimeChan(info.TypeOf(u.X))
	}
	send, timer := false, false
	for _, c := range sel.Body.List {
		switch comm := c.(*ast.CommClause).Comm.(type) {
		case *ast.SendStmt:
			send = true
		case *ast.ExprStmt:
			timer = timer || timerRecv(comm.X)
		case *ast.AssignStmt:
			timer = timer || len(comm.Rhs) == 1 && timerRecv(comm.Rhs[0])
		}
	}
	return send && !timer
}

// ImportedWait returns the WaitFact of a function of another package.
func (m *Result) ImportedWait(fn *types.Func) *WaitFact {
	if fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg {
		return nil
	}
	var f WaitFact
	if m.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// findRandomFuncs marks the package's functions that return a random
// value and exports their RandomFact.
func (m *Result) findRandomFuncs() {
	m.randomFuncs = map[*types.Func]bool{}
	for round := 0; round < maxFactRounds; round++ {
		changed := false
		for fn, d := range m.vals.Decls {
			if m.randomFuncs[fn] || d.Body == nil {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Results().Len() == 0 {
				continue
			}
			idx := -1
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				ret, ok := n.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != sig.Results().Len() {
					return idx < 0
				}
				for i, r := range ret.Results {
					if isNumeric(sig.Results().At(i).Type()) && m.isRandom(r) {
						idx = i
					}
				}
				return idx < 0
			})
			if idx >= 0 {
				m.randomFuncs[fn] = true
				m.pass.ExportObjectFact(fn, &RandomFact{Result: idx})
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// isRandomCall reports whether call draws a random number: math/rand,
// math/rand/v2 and crypto/rand (but not their constructors), runtime/retry's
// jitter functions, or a function known to return a random value (this
// package's, or another's through its RandomFact).
func (m *Result) IsRandomCall(call *ast.CallExpr, fn *types.Func) bool {
	if randPaths[analysisutil.PkgPath(fn)] {
		switch fn.Name() {
		case "New", "NewSource", "NewPCG", "NewChaCha8", "NewZipf", "Seed":
			return false
		}
		return true
	}
	if analysisutil.IsFunc(fn, catalog.ResilintRetry, "FullJitter") || analysisutil.IsFunc(fn, catalog.ResilintRetry, "EqualJitter") {
		return true
	}
	if m.randomFuncs[fn] {
		return true
	}
	if fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg {
		var f RandomFact
		return m.pass.ImportObjectFact(fn, &f)
	}
	return false
}

// isDelayCall reports whether call sleeps: time.Sleep, runtime/retry's
// Sleep, or a function that waits (this package's, or another's through
// its WaitFact).
func (in Calls) IsDelayCall(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(in.Info, call)
	if fn == nil || NoWait(in.Info, call) {
		return false
	}
	if TimeFunc(fn) == "Sleep" || analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep") {
		return true
	}
	if in.Funcs[fn] {
		return true
	}
	return in.Import != nil && in.Import(fn) != nil
}

// isPureWait reports whether call only waits: time.Sleep, runtime/retry's
// Sleep, or a function whose body only waits (this package's, or
// another's through its WaitFact).
func (in Calls) IsPureWait(call *ast.CallExpr) bool {
	fn := analysisutil.Callee(in.Info, call)
	if fn == nil || NoWait(in.Info, call) {
		return false
	}
	if TimeFunc(fn) == "Sleep" || analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep") {
		return true
	}
	if in.Pure[fn] {
		return true
	}
	if in.Import != nil {
		if f := in.Import(fn); f != nil {
			return f.Pure
		}
	}
	return false
}

// findDispatchers returns the package's functions that run hooks: they
// call a function value held in a field (a list of handlers, a callback
// the caller set), outside closures, or call a function that does. A
// hook may wait (an AfterRetry handler that sleeps the retry delay), so
// a call of such a function between two attempts may be their wait.
// Rounds as for WaitFact: each is linear in the package.
func (m *Result) findDispatchers() map[*types.Func]bool {
	info := m.pass.TypesInfo
	out := map[*types.Func]bool{}
	markRounds(m.vals.Decls, out, func(fn *types.Func) bool {
		d := m.vals.Decls[fn]
		if d.Body == nil {
			return false
		}
		return analysisutil.AnyIn([]ast.Node{d.Body}, func(n ast.Node) bool {
			x, ok := n.(*ast.CallExpr)
			if !ok {
				return false
			}
			if callee := analysisutil.Callee(info, x); callee != nil {
				return out[callee]
			}
			return FieldFunc(info, x.Fun)
		})
	})
	return out
}

// exportWaitFacts exports the WaitFact of every wait function of the
// package, once all of its parts are known.
func (m *Result) exportWaitFacts() {
	for fn := range m.WaitFuncs {
		m.pass.ExportObjectFact(fn, &WaitFact{Pure: m.PureWaits[fn], Jitters: m.JitterWaits[fn], Fixed: m.FixedWaits[fn], Blind: m.BlindWaits[fn], Terminal: m.terminals[fn], Timeouts: m.timeouts[fn]})
	}
}

// findBlindWaits marks the package's wait functions whose every wait is a
// time.Sleep or a bare receive from a timer (WaitFact.Blind), in rounds
// so that a helper of a blind helper is blind too.
func (m *Result) findBlindWaits() {
	m.BlindWaits = map[*types.Func]bool{}
	markRounds(m.WaitFuncs, m.BlindWaits, func(fn *types.Func) bool {
		d := m.vals.Decls[fn]
		return d != nil && d.Body != nil && m.BlindBody(d.Body)
	})
}

// BlindBody reports whether body (a function's or a closure's) waits, and
// every wait in it (outside closures) is a time.Sleep, a call of a blind
// wait function (WaitFact.Blind), or a receive from a timer's channel
// outside any select: none watches a context or a stop.
func (m *Result) BlindBody(body *ast.BlockStmt) bool {
	info := m.pass.TypesInfo
	in := Calls{Info: info, Funcs: m.WaitFuncs, Pure: m.PureWaits, Import: m.ImportedWait, Certain: true}
	blind, found := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if analysisutil.AnyIn([]ast.Node{x}, in.WaitsHere) {
				blind = false // a select may watch something else
			}
			return false
		case *ast.CallExpr:
			if !in.WaitsHere(x) {
				return blind
			}
			found = true
			fn := analysisutil.Callee(info, x)
			if TimeFunc(fn) != "Sleep" && !(fn != nil && m.WaitBlind(fn.Origin())) {
				blind = false
			}
		case *ast.UnaryExpr:
			if in.WaitsHere(x) {
				found = true
				if !IsTimeChan(info.TypeOf(x.X)) {
					blind = false // <-ctx.Done()
				}
			}
		}
		return blind
	})
	return blind && found
}

// WaitBlind reports whether fn's every wait is blind (WaitFact.Blind):
// this package's, or another's through its fact.
func (m *Result) WaitBlind(fn *types.Func) bool {
	if m.BlindWaits[fn] {
		return true
	}
	f := m.ImportedWait(fn)
	return f != nil && f.Blind
}

// findJitterWaits marks the package's wait functions that draw a random
// number outside loops and closures, or call a function value that
// answers a duration (`d = next(attempt)`, a backoff the caller hands
// over: it may draw anything), and exports their WaitFact again with
// Jitters set. (Random draws are known only after the waits.)
func (m *Result) findJitterWaits() {
	m.JitterWaits = map[*types.Func]bool{}
	info := m.pass.TypesInfo
	for fn := range m.WaitFuncs {
		d := m.vals.Decls[fn]
		if d == nil || d.Body == nil {
			continue
		}
		found := false
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
				return false
			case *ast.CallExpr:
				f := analysisutil.Callee(info, x)
				if f != nil && m.IsRandomCall(x, f) {
					found = true
				}
				if t := info.TypeOf(x.Fun); t != nil && f == nil && isDurationFunc(t) && !info.Types[x.Fun].IsBuiltin() {
					found = true
				}
			}
			return !found
		})
		if found {
			m.JitterWaits[fn] = true
		}
	}
}

// isDurationFunc reports whether t is a function type answering one
// time.Duration.
func isDurationFunc(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 1 && analysisutil.IsNamedType(sig.Results().At(0).Type(), "time", "Duration")
}

// WaitJitters reports whether fn, a function that waits, draws a random
// number beside the duration it is given (this package's, or another's
// through its WaitFact).
func (m *Result) WaitJitters(fn *types.Func) bool {
	if m.JitterWaits[fn] {
		return true
	}
	f := m.ImportedWait(fn)
	return f != nil && f.Jitters
}

// BodyWaits reports whether body (a closure's) waits outside loops and
// closures, as a function with a WaitFact does.
func (m *Result) BodyWaits(body *ast.BlockStmt) bool {
	in := Calls{Info: m.pass.TypesInfo, Funcs: m.WaitFuncs, Pure: m.PureWaits, Import: m.ImportedWait, Certain: true}
	return waitsOnEveryCall(m.pass.TypesInfo, body, in.WaitsHere)
}

// findFixedWaits marks the package's pure wait functions that wait a delay of
// their own with no random part (WaitFact.Fixed) and exports their
// WaitFact again with Fixed set. Their parameters (but the receiver) are
// all integers or contexts: a function given a duration waits what its
// caller says (judged at the call), and one given anything else (a
// response, an options value) may take its delay from it. Each wait
// outside loops and closures — time.Sleep, time.After, time.NewTimer,
// runtime/retry's Sleep, or another wait function given one duration —
// must have a shape with no random part the model can see whole (not
// JitterUnknown); the integer parameters count attempts (ShapeCounting).
func (m *Result) findFixedWaits() {
	m.FixedWaits = map[*types.Func]bool{}
	for fn := range m.WaitFuncs {
		d := m.vals.Decls[fn]
		if d == nil || d.Body == nil || m.JitterWaits[fn] || !m.PureWaits[fn] {
			continue
		}
		if m.FixedBody(fn.Type().(*types.Signature), d.Body) {
			m.FixedWaits[fn] = true
		}
	}
}

// FixedBody reports whether a function of signature sig and body body (a
// declared one, or a closure's) waits a delay of its own with no random
// part: its parameters are all integers (but durations) or contexts, and
// every wait outside loops and closures has a shape with no random part
// that the model sees whole, the integers counting attempts.
func (m *Result) FixedBody(sig *types.Signature, body *ast.BlockStmt) bool {
	info := m.pass.TypesInfo
	counters := map[types.Object]bool{}
	for v := range sig.Params().Variables() {
		switch {
		case analysisutil.IsNamedType(v.Type(), "time", "Duration"):
			return false // given its duration: judged at the call
		case isInteger(v.Type()):
			counters[v] = true
		case analysisutil.IsNamedType(v.Type(), "context", "Context"):
		default:
			return false
		}
	}
	ok, found := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.CallExpr:
			if f := analysisutil.Callee(info, x); f != nil && m.IsRandomCall(x, f) {
				ok = false
				return false
			}
			dur, isWait := m.waitDuration(info, x)
			if !isWait {
				return ok
			}
			if dur == nil || m.ShapeCounting(dur, body, counters).Jitter != JitterNone {
				ok = false
			}
			found = true
		}
		return ok
	})
	return ok && found
}

// waitDuration recognizes a wait call and returns the duration it waits
// (nil when it is not one expression: a wait function given two
// durations, or none).
func (m *Result) waitDuration(info *types.Info, call *ast.CallExpr) (ast.Expr, bool) {
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return nil, false
	}
	switch {
	case TimeFunc(fn) == "Sleep", TimeFunc(fn) == "After", TimeFunc(fn) == "NewTimer":
		if len(call.Args) == 1 {
			return call.Args[0], true
		}
		return nil, true
	case analysisutil.IsFunc(fn, catalog.ResilintRetry, "Sleep"):
		if len(call.Args) == 2 {
			return call.Args[1], true
		}
		return nil, true
	case m.WaitFuncs[fn.Origin()] || m.ImportedWait(fn.Origin()) != nil:
		if m.WaitJitters(fn.Origin()) || m.WaitFixed(fn.Origin()) {
			return nil, true
		}
		var dur ast.Expr
		for _, a := range call.Args {
			if analysisutil.IsNamedType(info.TypeOf(a), "time", "Duration") {
				if dur != nil {
					return nil, true
				}
				dur = a
			}
		}
		return dur, true
	}
	return nil, false
}

// WaitFixed reports whether fn waits a delay of its own with no random
// part (WaitFact.Fixed): this package's, or another's through its fact.
func (m *Result) WaitFixed(fn *types.Func) bool {
	if m.FixedWaits[fn] {
		return true
	}
	f := m.ImportedWait(fn)
	return f != nil && f.Fixed
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
