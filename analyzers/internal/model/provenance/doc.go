// Package provenance is the model's value-provenance layer, the base the
// other layers build on: an analysis pass (resilvalues) that reports
// nothing and indexes, for the whole package, every value given to each
// variable and struct field (assignments, declarations, keyed fields of
// composite literals), every `x.Field = v` write and every function
// declaration with a body. Values.Trace follows an expression back to
// where its value was made — through local variables (to the last
// assignment before the use), fields and package variables (every value
// the package gives them) and the package's helper functions (their
// returns) — and Values.LastWrite finds the last write of a field on the
// way.
//
// It exports a ConstFact for every package-level integer variable with a
// constant initializer that nothing in its package writes, so that a loop
// in another package (another go vet process) bounded by it has a
// constant bound; Values.Const answers for this package and others.
//
// The standard library is opaque to the model: nothing is indexed there
// and no fact is exported. docs/model.md describes every layer.
package provenance
