package model

import (
	"go/ast"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
)

// anyIn reports whether pred holds for some node of roots, not looking
// inside function literals (their code runs elsewhere, if at all).
func anyIn(roots []ast.Node, pred func(ast.Node) bool) bool { return analysisutil.AnyIn(roots, pred) }

// loopNodes returns the syntax of a loop: the statement, or for a goto
// loop the statements from its label on.
func loopNodes(stmt ast.Stmt, gotoList []ast.Stmt, gotoIdx int) []ast.Node {
	if gotoList == nil {
		return []ast.Node{stmt}
	}
	var nodes []ast.Node
	for _, s := range gotoList[gotoIdx:] {
		nodes = append(nodes, s)
	}
	return nodes
}

// stmtNodes returns list as nodes.
func stmtNodes(list []ast.Stmt) []ast.Node {
	nodes := make([]ast.Node, len(list))
	for i, s := range list {
		nodes[i] = s
	}
	return nodes
}
