package engine

import (
	"go/token"
	"os"

	"golang.org/x/tools/go/analysis"
)

// A PosTable turns Positions back into token.Pos values of one FileSet,
// adding each file (its lines read from the overlay or the disk) the
// first time one of its positions is asked for.
type PosTable struct {
	Fset    *token.FileSet
	overlay map[string][]byte
	files   map[string]*token.File
}

// NewPosTable returns an empty table; overlay is the run's.
func NewPosTable(overlay map[string][]byte) *PosTable {
	return &PosTable{Fset: token.NewFileSet(), overlay: overlay, files: make(map[string]*token.File)}
}

// Pos returns p as a token.Pos, or token.NoPos when the file cannot be
// read or p is not in it.
func (t *PosTable) Pos(p Position) token.Pos {
	if p.Filename == "" || p.Line <= 0 {
		return token.NoPos
	}
	tf, ok := t.files[p.Filename]
	if !ok {
		src, found := t.overlay[p.Filename]
		if !found {
			var err error
			if src, err = os.ReadFile(p.Filename); err != nil {
				t.files[p.Filename] = nil
				return token.NoPos
			}
		}
		tf = t.Fset.AddFile(p.Filename, -1, len(src))
		tf.SetLinesForContent(src)
		t.files[p.Filename] = tf
	}
	if tf == nil || p.Line > tf.LineCount() {
		return token.NoPos
	}
	off := int(tf.LineStart(p.Line)-token.Pos(tf.Base())) + p.Column - 1
	if p.Column <= 0 {
		off = int(tf.LineStart(p.Line) - token.Pos(tf.Base()))
	}
	if off > tf.Size() {
		off = tf.Size()
	}
	return tf.Pos(off)
}

// Diagnostic converts d back to an analysis.Diagnostic in t's FileSet.
func (t *PosTable) Diagnostic(d Diagnostic) analysis.Diagnostic {
	out := analysis.Diagnostic{Pos: t.Pos(d.Pos), End: t.Pos(d.End), Category: d.Category, Message: d.Message, URL: d.URL}
	for _, r := range d.Related {
		out.Related = append(out.Related, analysis.RelatedInformation{Pos: t.Pos(r.Pos), End: t.Pos(r.End), Message: r.Message})
	}
	for _, f := range d.SuggestedFixes {
		sf := analysis.SuggestedFix{Message: f.Message}
		for _, e := range f.Edits {
			sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: t.Pos(e.Pos), End: t.Pos(e.End), NewText: e.New})
		}
		out.SuggestedFixes = append(out.SuggestedFixes, sf)
	}
	return out
}
