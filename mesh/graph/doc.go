// Package graph is the amplification map: the services of a mesh, the
// routes that retry on the way to them, and the retry sites of the code
// that call them, each edge labelled with its attempts and the worst-case
// calls it carries per incoming request. It draws the map as SVG (or
// Graphviz DOT) with the standard library only.
//
// The data model is made for more than one module: nodes carry the module
// they come from, graphs of several modules Merge into one (nodes of the
// same ID — a mesh route, a service — are one node), and the worst case of
// an edge is the worst over every caller.
package graph
