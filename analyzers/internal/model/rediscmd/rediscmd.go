// Package rediscmd is a layer of resilint's model: the Redis commands each
// function issues, in source order, on which key, and whether each runs
// inside a construct that makes it atomic with the others (a transaction,
// a WATCH, a pipeline); and the Lua scripts a package runs, with the keys
// they are given, as far as their text is visible.
//
// By itself it reports nothing. It exports a CmdsFact for every function
// that issues commands outside such a construct on a key it is given as a
// parameter (or on a constant key), so that a caller, in this package or
// another, knows that `count(ctx, rdb, key)` is a GET of key.
//
// Calls are recognized by type through the catalog's Redis rows (go-redis
// v9), never by their spelling.
package rediscmd

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// Analyzer is the rediscmd layer of the model.
var Analyzer = &analysis.Analyzer{
	Name:       "rediscmd",
	Doc:        "recognize the Redis commands functions issue, their keys and the atomic constructs around them (reports nothing by itself)",
	URL:        "https://github.com/resilint/resilint/blob/main/docs/model.md",
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*CmdsFact)(nil)},
}

// maxFactCmds bounds the commands a fact carries (facts stay small; a
// function issuing more is summarized by its first ones).
const maxFactCmds = 32

// CmdsFact says which Redis commands a function issues, in order, outside
// any transaction, pipeline or script, on keys its caller can name: a
// parameter, or a constant.
type CmdsFact struct {
	Cmds []FactCmd
}

// FactCmd is one command of a CmdsFact.
type FactCmd struct {
	Cmd      string // "GET"
	Kind     int    // a catalog.RedisKind
	KeyParam int    // index of the key parameter (receiver excluded); -1 for a constant key
	KeyConst string // the constant key when KeyParam is -1
	Count    bool   // the catalog row's Count
	Site     string // where the command is issued: "file.go:line"
}

func (*CmdsFact) AFact() {}

func (f *CmdsFact) String() string {
	var parts []string
	for _, c := range f.Cmds {
		key := strconv.Quote(c.KeyConst)
		if c.KeyParam >= 0 {
			key = fmt.Sprintf("$%d", c.KeyParam)
		}
		parts = append(parts, c.Cmd+" "+key)
	}
	return "redis(" + strings.Join(parts, ", ") + ")"
}

// Command is one Redis command a function issues, directly or through a
// function whose CmdsFact says it does.
type Command struct {
	// Call is the command call, or the call of the function that issues it.
	Call *ast.CallExpr
	Cmd  string
	Kind catalog.RedisKind
	// Key is the key expression at Call (nil when a called function uses
	// a constant key of its own); KeyID identifies the key: equal IDs in
	// one function are the same key. "" when no key is known.
	Key   ast.Expr
	KeyID string
	// Guarded: the command is queued in a pipeline or a transaction or runs
	// on a connection with watched keys (a call on a redis.Tx or a
	// Pipeliner, or inside the callback of TxPipelined, Pipelined, Watch).
	Guarded bool
	// Tx numbers the redigo MULTI/EXEC transaction (in source order) the
	// command is queued in, 0 when none: its commands run together, but
	// what they write may have been decided on a read made before it.
	Tx int
	// Watched: a redigo WATCH of the command's key came before it (and
	// no UNWATCH or EXEC since): a transaction after it fails if the key
	// changed (optimistic locking).
	Watched bool
	// Via is the called function that issues the command, nil when Call is
	// the command itself; Site is where, inside it.
	Via  *types.Func
	Site string
	// Count: the command reads a count of elements or adds one (the
	// catalog row's Count).
	Count bool
	// Reply lists the variables the command's reply is assigned to
	// (n in `n, err := rdb.Get(ctx, k).Int64()`, or from a helper's
	// results); Uses the variables its other arguments are computed
	// from, through local assignments (n in `rdb.Set(ctx, k, n+1, 0)`).
	Reply []types.Object
	Uses  []types.Object
}

// Func is the commands of one function body, in source order. Function
// literals are bodies of their own.
type Func struct {
	Node    ast.Node    // *ast.FuncDecl or *ast.FuncLit
	Obj     *types.Func // nil for a literal
	Guarded bool        // a literal run by TxPipelined, Pipelined or Watch
	Cmds    []*Command

	multi   bool            // between a redigo MULTI and its EXEC, in source order
	tx      int             // the number of MULTIs so far
	watched map[string]bool // the keys a redigo WATCH holds, in source order
}

// Counts reports whether f counts requests in Redis: an INCR, or a key
// it both reads and gives an expiry.
func (f *Func) Counts() bool {
	for _, c := range f.Cmds {
		if c.Kind == catalog.RedisIncr {
			return true
		}
	}
	return len(f.CountedExpiries(func(o *Command) bool { return o.Kind == catalog.RedisRead })) > 0
}

// CountedExpiries returns f's expiries (EXPIRE, PEXPIRE, Expire) of a key
// that f also counts with a command keep accepts: an increment or a read
// of that key. Their time to live is the counter's window.
func (f *Func) CountedExpiries(keep func(*Command) bool) []*Command {
	var out []*Command
	for _, c := range f.Cmds {
		if c.Kind != catalog.RedisExpire || c.KeyID == "" {
			continue
		}
		if slices.ContainsFunc(f.Cmds, func(o *Command) bool {
			return o.KeyID == c.KeyID && (o.Kind == catalog.RedisIncr || o.Kind == catalog.RedisRead) && keep(o)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// Script is one run of a Lua script (EVAL, EVALSHA, Script.Run...).
type Script struct {
	Call *ast.CallExpr
	Cmd  string
	// KeysKnown: the keys argument is visibly a list (a []string literal,
	// directly or through a local variable assigned once); Keys are its
	// elements.
	KeysKnown bool
	Keys      []*Key
}

// Key is one key given to a script.
type Key struct {
	Expr ast.Expr
	// Known: the key's text is visible from its start: a constant, or a
	// concatenation or fmt.Sprintf pattern that begins with constant
	// text. Unknown keys (a parameter, a value from another function)
	// may carry any hash tag.
	Known bool
	// Display is the key's pattern for messages, dynamic parts as
	// <expression>: "rl:{<user>}:cur".
	Display string
	// Slot identifies the Redis Cluster hash slot the key maps to: its
	// hash tag (the text between the first '{' and the next '}', when not
	// empty) or else the whole key, dynamic parts by the identity of
	// their expressions. Keys with equal Slot are in one slot.
	Slot string
	// Tag is the hash tag's display text; HasTag says there is one.
	Tag    string
	HasTag bool
}

// Result is the rediscmd layer of one package.
type Result struct {
	Funcs   []*Func
	Scripts []*Script
}

type builder struct {
	pass    *analysis.Pass
	funcs   *analysisutil.Summaries[*Func]
	facts   map[*types.Func]*CmdsFact
	guarded map[*ast.FuncLit]bool
	defs    map[types.Object][]ast.Expr // local variables: every value assigned
	replies map[*ast.CallExpr][]types.Object
	objIDs  map[types.Object]int
	result  *Result
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	if !analysisutil.ImportsAny(pass.Pkg, catalog.RedisPaths()...) && !importsFactful(pass) {
		return res, nil
	}
	b := &builder{
		pass:    pass,
		funcs:   analysisutil.NewSummaries[*Func](pass.TypesInfo, pass.Files),
		facts:   map[*types.Func]*CmdsFact{},
		guarded: map[*ast.FuncLit]bool{},
		defs:    map[types.Object][]ast.Expr{},
		replies: map[*ast.CallExpr][]types.Object{},
		objIDs:  map[types.Object]int{},
		result:  res,
	}
	for _, f := range pass.Files {
		b.collectDefs(f)
	}
	for _, fn := range b.funcs.Order {
		b.function(fn)
	}
	for _, fn := range b.funcs.Order {
		if f := b.facts[fn]; f != nil {
			pass.ExportObjectFact(fn, f)
		}
	}
	return res, nil
}

// importsFactful reports whether the package imports any package, so that
// a function of it may carry a CmdsFact (any import might). Only packages
// importing nothing at all are skipped.
func importsFactful(pass *analysis.Pass) bool { return len(pass.Pkg.Imports()) > 0 }

func (b *builder) collectDefs(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			b.reply(n.Lhs, n.Rhs)
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				obj := b.pass.TypesInfo.ObjectOf(id)
				if obj == nil {
					continue
				}
				switch {
				case n.Tok != token.ASSIGN && n.Tok != token.DEFINE && len(n.Rhs) == 1:
					// tokens += refill: tokens + refill, a value derived
					// from its own and from what it adds.
					op := n.Tok - (token.ADD_ASSIGN - token.ADD)
					b.defs[obj] = append(b.defs[obj], &ast.BinaryExpr{X: id, OpPos: n.TokPos, Op: op, Y: n.Rhs[0]})
				case len(n.Lhs) == len(n.Rhs):
					b.defs[obj] = append(b.defs[obj], n.Rhs[i])
				case i == 0 && len(n.Rhs) == 1 && b.parses(n.Rhs[0]):
					// n, err := strconv.Atoi(v): the number is v's.
					b.defs[obj] = append(b.defs[obj], n.Rhs[0])
				default:
					b.defs[obj] = append(b.defs[obj], nil) // from a tuple: unknown
				}
			}
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			b.reply(lhs, n.Values)
			for i, id := range n.Names {
				obj := b.pass.TypesInfo.ObjectOf(id)
				if obj == nil {
					continue
				}
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					b.defs[obj] = append(b.defs[obj], n.Values[i])
				} else if len(n.Values) > 0 {
					b.defs[obj] = append(b.defs[obj], nil)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := analysisutil.Unparen(n.X).(*ast.Ident); ok {
					if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
						b.defs[obj] = append(b.defs[obj], nil) // address taken: unknown
					}
				}
			}
		case *ast.IncDecStmt:
			// tokens--: a value derived from its own (reply1 keeps
			// such a variable carrying the reply).
			if id, ok := analysisutil.Unparen(n.X).(*ast.Ident); ok {
				if obj := b.pass.TypesInfo.ObjectOf(id); obj != nil {
					b.defs[obj] = append(b.defs[obj], n.X)
				}
			}
		}
		return true
	})
}

// function computes (once) the commands of a function of this package,
// its literals' and its fact.
func (b *builder) function(fn *types.Func) *Func {
	fresh := false
	f, _ := b.funcs.Get(fn, func(fn *types.Func, d *ast.FuncDecl) *Func {
		fresh = true
		f := &Func{Node: d, Obj: fn}
		b.body(f, d.Body)
		return f
	})
	if !fresh {
		return f
	}
	if len(f.Cmds) > 0 {
		b.result.Funcs = append(b.result.Funcs, f)
	}
	if fact := b.factOf(fn, f); fact != nil {
		b.facts[fn] = fact
	}
	return f
}

// body collects the commands of one body into f; function literals met on
// the way become Funcs of their own, after the calls that run them were
// seen (so that a literal given to TxPipelined is known to be guarded).
func (b *builder) body(f *Func, body *ast.BlockStmt) {
	var lits []*ast.FuncLit
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, n)
			return false
		case *ast.CallExpr:
			b.call(f, n)
		}
		return true
	})
	for _, lit := range lits {
		lf := &Func{Node: lit, Guarded: f.Guarded || b.guarded[lit]}
		b.body(lf, lit.Body)
		if len(lf.Cmds) > 0 {
			b.result.Funcs = append(b.result.Funcs, lf)
		}
	}
}

func (b *builder) call(f *Func, call *ast.CallExpr) {
	info := b.pass.TypesInfo
	fn := analysisutil.Callee(info, call)
	if fn == nil {
		return
	}
	if row := b.row(fn); row != nil {
		switch row.Kind {
		case catalog.RedisTx, catalog.RedisPipeline:
			if row.FnArg < len(call.Args) {
				if lit, ok := analysisutil.Unparen(call.Args[row.FnArg]).(*ast.FuncLit); ok {
					b.guarded[lit] = true
				}
			}
		case catalog.RedisScript:
			b.script(call, row)
		case catalog.RedisDynamic:
			b.dynamicCmd(f, call, row)
		case catalog.RedisRead, catalog.RedisWrite, catalog.RedisIncr, catalog.RedisExpire:
			guarded := f.Guarded || b.queuedRecv(call)
			if row.KeyArg >= len(call.Args) {
				return
			}
			keys := call.Args[row.KeyArg : row.KeyArg+1]
			if row.Keys {
				if call.Ellipsis.IsValid() {
					keys = nil
				} else {
					keys = call.Args[row.KeyArg:]
				}
			}
			var uses []types.Object
			if !row.Keys {
				uses = b.uses(call.Args[row.KeyArg+1:])
			}
			for _, k := range keys {
				f.Cmds = append(f.Cmds, &Command{Call: call, Cmd: row.Cmd, Kind: row.Kind, Key: k, KeyID: b.keyID(k), Guarded: guarded, Count: row.Count, Reply: b.reply1(call), Uses: uses})
			}
		}
		return
	}
	// A function that issues commands: this package's, or one with a fact.
	var fact *CmdsFact
	if fn.Pkg() == b.pass.Pkg {
		if b.function(fn) != nil {
			fact = b.facts[fn]
		}
	} else if fn.Pkg() != nil {
		var cf CmdsFact
		if b.pass.ImportObjectFact(fn, &cf) {
			fact = &cf
		}
	}
	if fact == nil {
		return
	}
	guarded := f.Guarded
	for _, c := range fact.Cmds {
		cmd := &Command{Call: call, Cmd: c.Cmd, Kind: catalog.RedisKind(c.Kind), Guarded: guarded, Via: fn, Site: c.Site, Count: c.Count, Reply: b.reply1(call)}
		var others []ast.Expr
		for i, a := range call.Args {
			if i != c.KeyParam {
				others = append(others, a)
			}
		}
		cmd.Uses = b.uses(others)
		if c.KeyParam >= 0 {
			if c.KeyParam >= len(call.Args) || isVariadicTail(fn, c.KeyParam) {
				continue
			}
			cmd.Key = call.Args[c.KeyParam]
			cmd.KeyID = b.keyID(cmd.Key)
		} else {
			cmd.KeyID = "c:" + strconv.Quote(c.KeyConst)
		}
		f.Cmds = append(f.Cmds, cmd)
	}
}

func isVariadicTail(fn *types.Func, i int) bool {
	sig, ok := fn.Type().(*types.Signature)
	return !ok || (sig.Variadic() && i >= sig.Params().Len()-1)
}

// row returns the Redis row of fn, or nil.
func (b *builder) row(fn *types.Func) *catalog.RedisRow {
	path := analysisutil.PkgPath(fn)
	if path != catalog.GoRedisV9 && path != catalog.Redigo {
		return nil
	}
	return catalog.LookupRedis(path, recvName(fn), fn.Name())
}

// recvName is the name of the named type declaring method fn, interfaces
// included.
func recvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// queuedRecv reports whether the command is called on a value whose
// commands are queued or watched: a redis.Tx, a Pipeline or a Pipeliner.
func (b *builder) queuedRecv(call *ast.CallExpr) bool {
	sel, ok := analysisutil.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := b.pass.TypesInfo.TypeOf(sel.X)
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	row := catalog.LookupRedis(analysisutil.PkgPath(obj), "", obj.Name())
	return row != nil && row.Kind == catalog.RedisQueued
}

// factOf summarizes f's unguarded commands on parameter or constant keys.
func (b *builder) factOf(fn *types.Func, f *Func) *CmdsFact {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	params := map[types.Object]int{}
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	var out []FactCmd
	for _, c := range f.Cmds {
		if c.Guarded || len(out) >= maxFactCmds {
			continue
		}
		site := analysisutil.ShortPos(b.pass.Fset, c.Call.Pos())
		if c.Site != "" {
			site = c.Site
		}
		fc := FactCmd{Cmd: c.Cmd, Kind: int(c.Kind), KeyParam: -1, Count: c.Count, Site: site}
		switch {
		case c.Key == nil && strings.HasPrefix(c.KeyID, "c:"):
			fc.KeyConst, _ = strconv.Unquote(strings.TrimPrefix(c.KeyID, "c:"))
		case c.Key != nil:
			if s, ok := b.constString(c.Key); ok {
				fc.KeyConst = s
				break
			}
			id, ok := analysisutil.Unparen(c.Key).(*ast.Ident)
			if !ok {
				continue
			}
			i, ok := params[b.pass.TypesInfo.ObjectOf(id)]
			if !ok || len(b.defs[b.pass.TypesInfo.ObjectOf(id)]) > 0 {
				continue // not a parameter, or one reassigned
			}
			fc.KeyParam = i
		default:
			continue
		}
		out = append(out, fc)
	}
	if len(out) == 0 {
		return nil
	}
	return &CmdsFact{Cmds: out}
}

func (b *builder) constString(e ast.Expr) (string, bool) {
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// maxUseDepth bounds how far uses are followed through local assignments.
const maxUseDepth = 3

// parses reports whether e is a call of package strconv (Atoi,
// ParseInt...): its first result is computed from its arguments alone.
func (b *builder) parses(e ast.Expr) bool {
	call, ok := analysisutil.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := analysisutil.Callee(b.pass.TypesInfo, call)
	return fn != nil && analysisutil.PkgPath(fn) == "strconv"
}
