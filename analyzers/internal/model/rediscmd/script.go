package rediscmd

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/resilint/resilint/analyzers/internal/analysisutil"
	"github.com/resilint/resilint/analyzers/internal/catalog"
)

// maxDefDepth bounds how far a key is followed through local variables.
const maxDefDepth = 4

func (b *builder) script(call *ast.CallExpr, row *catalog.RedisRow) {
	s := &Script{Call: call, Cmd: row.Cmd}
	b.result.Scripts = append(b.result.Scripts, s)
	if row.KeyArg >= len(call.Args) {
		return
	}
	list := b.keyList(call.Args[row.KeyArg], 0)
	if list == nil {
		return
	}
	s.KeysKnown = true
	for _, e := range list {
		s.Keys = append(s.Keys, b.key(e))
	}
}

// keyList returns the elements of a []string literal e (followed through
// local variables assigned once), or nil.
func (b *builder) keyList(e ast.Expr, depth int) []ast.Expr {
	e = analysisutil.Unparen(e)
	switch e := e.(type) {
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				return nil
			}
		}
		if e.Elts == nil {
			return []ast.Expr{}
		}
		return e.Elts
	case *ast.Ident:
		if def := b.singleDef(e, depth); def != nil {
			return b.keyList(def, depth+1)
		}
	}
	return nil
}

// singleDef returns the one value ever assigned to the local variable id,
// or nil.
func (b *builder) singleDef(id *ast.Ident, depth int) ast.Expr {
	if depth >= maxDefDepth {
		return nil
	}
	v, ok := b.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == b.pass.Pkg.Scope() {
		return nil
	}
	defs := b.defs[v]
	if len(defs) != 1 {
		return nil
	}
	return defs[0]
}

// part is a piece of a key: constant text, or a dynamic value.
type part struct {
	text    string
	dynamic bool
	id      string // the dynamic value's identity
}

func (b *builder) key(e ast.Expr) *Key {
	k := &Key{Expr: e}
	parts, ok := b.parts(e, 0)
	if !ok || len(parts) == 0 || parts[0].dynamic {
		return k
	}
	k.Known = true
	var disp, slot strings.Builder
	// Positions, in the flattened text, of the first '{' and the next '}'
	// in constant parts.
	open := -1
	for i, p := range parts {
		if p.dynamic {
			continue
		}
		if open < 0 {
			if j := strings.IndexByte(p.text, '{'); j >= 0 {
				open = i
				rest := p.text[j+1:]
				if c := strings.IndexByte(rest, '}'); c >= 0 {
					if c > 0 {
						k.HasTag, k.Tag = true, rest[:c]
						k.Slot = "t:" + rest[:c]
					}
					break
				}
				// The tag runs on into the following parts.
				var tag, tslot strings.Builder
				tag.WriteString(rest)
				tslot.WriteString(rest)
				for _, q := range parts[i+1:] {
					if q.dynamic {
						tag.WriteString("<" + q.text + ">")
						tslot.WriteString("\x00" + q.id + "\x00")
						continue
					}
					if c := strings.IndexByte(q.text, '}'); c >= 0 {
						tag.WriteString(q.text[:c])
						tslot.WriteString(q.text[:c])
						if tag.Len() > 0 {
							k.HasTag, k.Tag = true, tag.String()
							k.Slot = "t:" + tslot.String()
						}
						break
					}
					tag.WriteString(q.text)
					tslot.WriteString(q.text)
				}
				break
			}
		}
	}
	for _, p := range parts {
		if p.dynamic {
			disp.WriteString("<" + p.text + ">")
			slot.WriteString("\x00" + p.id + "\x00")
		} else {
			disp.WriteString(p.text)
			slot.WriteString(p.text)
		}
	}
	k.Display = disp.String()
	if !k.HasTag {
		k.Slot = "k:" + slot.String()
	}
	return k
}

// parts splits a string expression into constant text and dynamic values:
// constants, + concatenations, fmt.Sprintf with a constant format, local
// variables assigned once. ok is false when the expression is none of
// these at its top.
func (b *builder) parts(e ast.Expr, depth int) ([]part, bool) {
	if depth > maxDefDepth+4 {
		return nil, false
	}
	e = analysisutil.Unparen(e)
	if s, ok := b.constString(e); ok {
		return []part{{text: s}}, true
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			break
		}
		l, _ := b.partsOrDynamic(x.X, depth+1)
		r, _ := b.partsOrDynamic(x.Y, depth+1)
		return append(l, r...), true
	case *ast.CallExpr:
		fn := analysisutil.Callee(b.pass.TypesInfo, x)
		if !analysisutil.IsFunc(fn, "fmt", "Sprintf") || len(x.Args) == 0 || x.Ellipsis.IsValid() {
			break
		}
		format, ok := b.constString(x.Args[0])
		if !ok {
			break
		}
		return b.sprintf(format, x.Args[1:], depth)
	case *ast.Ident:
		if def := b.singleDef(x, depth); def != nil {
			return b.parts(def, depth+1)
		}
	}
	return nil, false
}

func (b *builder) partsOrDynamic(e ast.Expr, depth int) ([]part, bool) {
	if p, ok := b.parts(e, depth); ok {
		return p, true
	}
	return []part{b.dynamic(e)}, false
}

func (b *builder) dynamic(e ast.Expr) part {
	return part{dynamic: true, text: analysisutil.Text(b.pass, e), id: b.keyID(e)}
}

// sprintf splits a fmt format: verbs become their arguments; a format
// with explicit argument indexes, '*' widths or a missing argument is not
// understood.
func (b *builder) sprintf(format string, args []ast.Expr, depth int) ([]part, bool) {
	var out []part
	var lit strings.Builder
	arg := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			lit.WriteByte('%')
			continue
		}
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) || format[i] == '[' || format[i] == '*' || arg >= len(args) {
			return nil, false
		}
		if lit.Len() > 0 {
			out = append(out, part{text: lit.String()})
			lit.Reset()
		}
		a := args[arg]
		arg++
		if format[i] == 's' || format[i] == 'v' || format[i] == 'd' {
			if p, ok := b.parts(a, depth+1); ok && format[i] != 'd' {
				out = append(out, p...)
				continue
			}
		}
		out = append(out, b.dynamic(a))
	}
	if lit.Len() > 0 {
		out = append(out, part{text: lit.String()})
	}
	return out, true
}
