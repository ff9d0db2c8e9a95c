package model

import (
	"golang.org/x/tools/go/analysis"
)

// buildAll runs, on a pass made by hand, the layers the model requires
// (each once, prerequisites first; the facts they export go nowhere) and
// then the model, as a driver would.
func buildAll(pass *analysis.Pass) *Result {
	var runLayer func(a *analysis.Analyzer)
	runLayer = func(a *analysis.Analyzer) {
		if _, done := pass.ResultOf[a]; done {
			return
		}
		for _, req := range a.Requires {
			runLayer(req)
		}
		p := *pass
		p.Analyzer = a
		res, err := a.Run(&p)
		if err != nil {
			panic(err)
		}
		pass.ResultOf[a] = res
	}
	for _, req := range Analyzer.Requires {
		runLayer(req)
	}
	return build(pass)
}
