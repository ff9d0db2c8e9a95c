package libconfig

import (
	"go/ast"
	"go/constant"

	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
	"github.com/resilint/resilint/analyzers/internal/model"
)

// interceptors reads the gRPC retry interceptors the package makes
// (catalog RetryInterceptor rows: go-grpc-middleware's
// UnaryClientInterceptor). An interceptor runs nothing where it is made,
// so the model has no retry there: it retries every call made through
// the connection it is installed on. What is judged at the call that
// makes it is its configuration, under a Retry of its own that is in no
// other layer's result (it nests in nothing and runs no operation here).
//
// The library retries nothing by default (WithMax 0): an interceptor
// whose options leave the bound out or set it to a constant 0 retries
// only the calls given such an option themselves, which is not followed,
// and is not read. One whose options the model cannot list (a slice from
// a parameter) is not read either.
func (rd *reader) interceptors() {
	root := rd.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for c := range root.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		row := catalogRow(analysisutil.Callee(rd.pass.TypesInfo, call))
		if row == nil || row.Role != catalog.RetryInterceptor {
			continue
		}
		opts, ok := rd.vals.Spread(call, row.BoundArg)
		if !ok {
			continue
		}
		attempts, set := row.Default, false
		var backoff ast.Expr
		var wrapper *catalog.Row
		for _, opt := range opts {
			origins := rd.vals.Trace(opt)
			if len(origins) != 1 {
				continue // an option chosen at run time
			}
			oc, fn := rd.callOf(origins[0].Expr)
			orow := catalogRow(fn)
			if orow == nil || orow.Path != row.Path {
				continue
			}
			switch orow.Role {
			case catalog.AttemptOption:
				if orow.ValueArg >= len(oc.Args) {
					continue
				}
				set = true
				attempts = 0 // not a constant: some retries, how many is not known
				if v := rd.pass.TypesInfo.Types[oc.Args[orow.ValueArg]].Value; v != nil {
					if n, exact := constant.Int64Val(constant.ToInt(v)); exact {
						attempts = n + orow.Plus
					}
				}
			case catalog.Wrapper:
				if orow.Inner >= 0 && orow.Inner < len(oc.Args) {
					backoff, wrapper = oc.Args[orow.Inner], orow
				}
			}
		}
		if !set || attempts == 1 || backoff == nil {
			continue // no retry of its own, or the library's jittered default
		}
		rd.r = &model.Retry{Kind: model.LibraryRetry, Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Row: row, Attempts: attempts}
		for _, o := range rd.vals.Trace(backoff) {
			bc, fn := rd.callOf(o.Expr)
			if brow := catalogRow(fn); brow != nil && brow.Role == catalog.DelayOption {
				rd.add(&Setting{Knob: Delay, Form: Call, Row: wrapper, Val: brow, Node: bc, Qual: qualifier(bc)})
			}
		}
		// WithBackoff(func(attempt uint) time.Duration { ... }): a
		// function of the package's own, judged by its returns.
		if own := rd.ownDelay(backoff); own != nil {
			rd.add(&Setting{Knob: Delay, Form: Call, Row: wrapper, Node: backoff, Value: backoff, Qual: qualifier(backoff), Own: own})
		}
	}
}

// reconnects reads the dial options that configure how a client
// connection reconnects (catalog Reconnect rows: gRPC's
// WithConnectParams). The connection reconnects for as long as it
// lives, with the backoff in the row's field of the struct given; that
// backoff's jitter is judged at the option, under a Retry of its own
// that is in no other layer's result. A struct that leaves the field out
// gets the library's default backoff, which the catalog does not judge;
// one the model cannot trace to a literal is not read.
func (rd *reader) reconnects() {
	root := rd.pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for c := range root.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		row := catalogRow(analysisutil.Callee(rd.pass.TypesInfo, call))
		if row == nil || row.Role != catalog.Reconnect || row.ValueArg >= len(call.Args) {
			continue
		}
		rd.r = &model.Retry{Kind: model.LibraryRetry, Node: call, Pos: call.Fun.Pos(), End: call.Fun.End(), Row: row}
		for _, o := range rd.vals.Trace(call.Args[row.ValueArg]) {
			lit, ok := analysisutil.Unparen(o.Expr).(*ast.CompositeLit)
			if !ok {
				continue
			}
			if v, ok := litField(lit, row.Field); ok {
				rd.jitterField(v)
			}
		}
	}
	rd.r = nil
}
