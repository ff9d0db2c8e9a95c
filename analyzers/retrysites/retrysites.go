// Package retrysites is the adapter between resilint's model and the storm
// simulator (`resilint storm ./pkg/...`): it runs the model over packages
// and returns each retry site it recognizes as plain data — attempts,
// delays as written, jitter, caps, nesting — without judging anything.
//
// It is the one place that reads the model's API for the simulator, so
// that a change of that API touches this file only. What the model does
// not know stays unknown here (a zero, a nil, "unknown"); the caller says
// what it assumes instead.
package retrysites

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilint/resilint/analyzers/backoff"
	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/model/libconfig"
	"github.com/resilint/resilint/analyzers/internal/model/sends"
	"github.com/resilint/resilint/analyzers/internal/model/waits"
)

// Site is one retry site.
type Site struct {
	// File and Line locate it; Pos is "file.go:line" with the file's base
	// name.
	File string
	Line int
	Pos  string
	// What says what retries: "retry loop", "retryablehttp.Client.Do".
	What string
	// Library is set for a library's or a client's retry.
	Library bool
	// Attempts is its own attempt bound; 0 means unknown (no constant
	// bound the model could read).
	Attempts int64
	// Calls is the worst-case downstream calls of one execution, nesting
	// included; 0 means unknown.
	Calls int64
	// Delays are the waits before retry 1, 2, ... as written, when the
	// loop's wait evaluates to constants for each value of its counter;
	// nil when it does not (or there is no wait). Only for loops.
	Delays []time.Duration
	// DelayText is the source of the wait's duration, "" if none.
	DelayText string
	// Jitter is "none", "equal", "full", "seeded" (from a constant seed),
	// "unknown", or "" when no wait was seen.
	Jitter string
	// Exponential and Capped describe the wait's shape; Immediate says
	// some attempt follows the failed one with no wait.
	Exponential, Capped, Immediate bool
	// NoJitterConfig says the package configures this library retry with
	// a delay without jitter: a setting of the libconfig layer that the
	// backoff check judges "no-jitter" (backoff.ConfigVerdict).
	NoJitterConfig string
	// Hosts are the hosts of the HTTP requests one attempt sends, where
	// the model reads them from a constant URL (for resilint map -mesh).
	Hosts []string
	// Package is the import path of the site's package.
	Package string
	// Inner are the retries one attempt reaches, worst (most calls) first:
	// a site of the same package, or a call of a function of another
	// package that retries (Site nil, Callee and Fact set).
	Inner []*Inner
}

// Inner is a retry reached from an attempt of a Site.
type Inner struct {
	// Site is the inner retry site when it is in the same package (inside
	// the attempt, or in a function of the package that the attempt calls).
	Site *Site
	// For a retrying function of another package: its name, the calls
	// one invocation makes (0: unknown), and where its retry is.
	Callee string
	Calls  int64
	Where  string
}

// Load runs the model over the packages matched by patterns (relative to
// dir, "" for the current directory) and returns their retry sites in file
// and line order, each with its nesting. Sites nested in another site of
// the same package are listed only inside it.
func Load(dir string, patterns []string) ([]*Site, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), strings.Join(errs, "; "))
	}
	g, err := checker.Analyze([]*analysis.Analyzer{model.Analyzer, libconfig.Analyzer, sends.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	// The model's, the configuration layer's and the sends layer's
	// results of each package (all roots: the checker keeps only roots'
	// results).
	models := map[*packages.Package]*model.Result{}
	configs := map[*packages.Package]*libconfig.Result{}
	sent := map[*packages.Package]*sends.Result{}
	var order []*packages.Package
	for _, act := range g.Roots {
		if act.Err != nil {
			return nil, act.Err
		}
		switch res := act.Result.(type) {
		case *model.Result:
			if res != nil {
				models[act.Package] = res
				order = append(order, act.Package)
			}
		case *libconfig.Result:
			configs[act.Package] = res
		case *sends.Result:
			sent[act.Package] = res
		}
	}
	var out []*Site
	for _, p := range order {
		var settings []*libconfig.Setting
		if c := configs[p]; c != nil {
			settings = c.Settings
		}
		for _, s := range sites(p.Fset, p.TypesInfo, models[p], sent[p], settings) {
			setPackage(s, p.PkgPath, 0)
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, nil
}

// sites converts one package's result.
func sites(fset *token.FileSet, info *types.Info, res *model.Result, sent *sends.Result, settings []*libconfig.Setting) []*Site {
	made := map[*model.Retry]*Site{}
	nested := map[*model.Retry]bool{}
	var conv func(r *model.Retry) *Site
	conv = func(r *model.Retry) *Site {
		if s := made[r]; s != nil {
			return s
		}
		p := fset.Position(r.Pos)
		s := &Site{
			File: p.Filename, Line: p.Line, Pos: fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line),
			What: r.Describe(), Library: r.Row != nil, Attempts: r.Attempts, Calls: r.Amp, Immediate: r.Immediate,
		}
		made[r] = s
		for _, snd := range sent.Of(r) {
			if snd.Host != "" && !slices.Contains(s.Hosts, snd.Host) {
				s.Hosts = append(s.Hosts, snd.Host)
			}
		}
		if len(r.Delays) > 0 {
			d := r.Delays[0]
			s.Jitter = jitterName(d.Shape.Jitter)
			s.Exponential, s.Capped = d.Shape.Exponential, d.Shape.Capped
			if d.Dur != nil && !d.Own {
				s.DelayText = exprText(fset, d.Dur)
				s.Delays = schedule(info, r, d.Dur)
			}
		}
		if r.Row != nil {
			seen := map[token.Pos]bool{}
			for _, c := range settings {
				cat, what := backoff.ConfigVerdict(c)
				if cat != "no-jitter" || seen[c.Pos] {
					continue
				}
				seen[c.Pos] = true // the check reports one finding per place: the first retry's
				lib := c.Retry.Describe()
				if lib == r.Row.Lib || strings.HasPrefix(r.Row.Lib, lib) || strings.HasPrefix(lib, r.Row.Lib) {
					s.NoJitterConfig = fmt.Sprintf("%s at %s", what, shortPos(fset, c.Pos))
				}
			}
		}
		for _, in := range r.Inner {
			switch {
			case in.Retry != nil:
				nested[in.Retry] = true
				s.Inner = append(s.Inner, &Inner{Site: conv(in.Retry), Calls: in.Retry.Amp})
			case in.Fact != nil:
				name := "a retrying function"
				x := &Inner{Calls: in.Fact.Calls, Where: in.Fact.Site}
				if in.Callee != nil {
					name = funcName(in.Callee)
					// A function of this package whose retry is here too:
					// link its site, delays and all.
					if pos, ok := res.SitePos[in.Callee]; ok {
						for _, r2 := range res.Retries {
							if r2.Pos == pos && r2 != r {
								x.Site = conv(r2)
							}
						}
					}
				}
				x.Callee = name
				s.Inner = append(s.Inner, x)
			}
		}
		sort.SliceStable(s.Inner, func(i, j int) bool { return worse(s.Inner[i].Calls, s.Inner[j].Calls) })
		return s
	}
	for _, r := range res.Retries {
		conv(r)
	}
	var out []*Site
	for _, r := range res.Retries {
		if !nested[r] {
			out = append(out, made[r])
		}
	}
	return out
}

// setPackage sets the package of a site and of the sites nested in it.
func setPackage(s *Site, path string, depth int) {
	if s == nil || s.Package != "" || depth > 32 {
		return
	}
	s.Package = path
	for _, in := range s.Inner {
		setPackage(in.Site, path, depth+1)
	}
}

// worse orders call counts, unknown (0) first: it may be unbounded.
func worse(a, b int64) bool {
	if a == 0 || b == 0 {
		return a == 0 && b != 0
	}
	return a > b
}

func jitterName(j waits.Jitter) string {
	switch j {
	case waits.JitterNone:
		return "none"
	case waits.JitterEqual:
		return "equal"
	case waits.JitterFull:
		return "full"
	case waits.JitterSeeded:
		return "seeded"
	}
	return "unknown"
}

func shortPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func exprText(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := formatNode(&b, fset, e); err != nil {
		return ""
	}
	return b.String()
}

// maxSchedule bounds the waits evaluated for one loop.
const maxSchedule = 64

// schedule evaluates a loop's wait for each retry: the loop's counter
// (a for loop's `i := c; ...; i++`, or `for i := range n`) takes its
// successive values. It returns nil when the wait is not made of
// constants, the counter, conversions, + - * / << >>, min and max.
func schedule(info *types.Info, r *model.Retry, dur ast.Expr) []time.Duration {
	ctr, start, step := counter(info, r.Node)
	n := r.Attempts - 1
	if n <= 0 || n > maxSchedule {
		n = maxSchedule
		if r.Attempts == 1 {
			return nil
		}
	}
	var out []time.Duration
	for k := int64(0); k < n; k++ {
		v, ok := eval(info, dur, ctr, start+k*step)
		if !ok || v < 0 {
			return nil
		}
		out = append(out, time.Duration(v))
		if ctr == nil {
			break // a constant wait: one value, repeated
		}
	}
	return out
}

// counter finds a loop's counter: its variable, first value and step.
func counter(info *types.Info, n ast.Node) (types.Object, int64, int64) {
	if l, ok := n.(*ast.LabeledStmt); ok {
		n = l.Stmt
	}
	switch loop := n.(type) {
	case *ast.ForStmt:
		as, ok := loop.Init.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return nil, 0, 0
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok {
			return nil, 0, 0
		}
		obj := info.ObjectOf(id)
		start, ok := eval(info, as.Rhs[0], nil, 0)
		if !ok {
			return nil, 0, 0
		}
		switch post := loop.Post.(type) {
		case *ast.IncDecStmt:
			if x, ok := post.X.(*ast.Ident); ok && info.ObjectOf(x) == obj {
				if post.Tok == token.INC {
					return obj, start, 1
				}
				return obj, start, -1
			}
		case *ast.AssignStmt:
			if x, ok := post.Lhs[0].(*ast.Ident); ok && len(post.Rhs) == 1 && info.ObjectOf(x) == obj && post.Tok == token.ADD_ASSIGN {
				if step, ok := eval(info, post.Rhs[0], nil, 0); ok {
					return obj, start, step
				}
			}
		}
	case *ast.RangeStmt:
		if id, ok := loop.Key.(*ast.Ident); ok {
			if tv, ok := info.Types[loop.X]; ok && tv.Type != nil {
				if _, isInt := tv.Type.Underlying().(*types.Basic); isInt {
					return info.ObjectOf(id), 0, 1
				}
			}
		}
	}
	return nil, 0, 0
}

// eval evaluates an integer expression in which ctr (if not nil) is v.
func eval(info *types.Info, e ast.Expr, ctr types.Object, v int64) (int64, bool) {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		c := constant.ToInt(tv.Value)
		if c.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(c)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(info, e.X, ctr, v)
	case *ast.Ident:
		if ctr != nil && info.Uses[e] == ctr {
			return v, true
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				return eval(info, e.Args[0], ctr, v)
			}
			return 0, false
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && len(e.Args) > 0 {
			if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") {
				var acc int64
				for i, a := range e.Args {
					x, ok := eval(info, a, ctr, v)
					if !ok {
						return 0, false
					}
					if i == 0 || b.Name() == "min" && x < acc || b.Name() == "max" && x > acc {
						acc = x
					}
				}
				return acc, true
			}
		}
	case *ast.BinaryExpr:
		x, ok1 := eval(info, e.X, ctr, v)
		y, ok2 := eval(info, e.Y, ctr, v)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		case token.MUL:
			if x != 0 && (x*y)/x != y {
				return 0, false // overflow
			}
			return x * y, true
		case token.QUO:
			if y == 0 {
				return 0, false
			}
			return x / y, true
		case token.SHL:
			if y < 0 || y > 62 || x > (1<<62)>>y {
				return 0, false
			}
			return x << y, true
		case token.SHR:
			if y < 0 || y > 63 {
				return 0, false
			}
			return x >> y, true
		}
	}
	return 0, false
}

// funcName is pkg.Func or pkg.Type.Method, with the package's name only.
func funcName(f *types.Func) string {
	name := f.Name()
	if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if f.Pkg() != nil {
		name = f.Pkg().Name() + "." + name
	}
	return name
}
