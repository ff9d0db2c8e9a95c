package graph

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// Layout constants of the SVG, in pixels.
const (
	colWidth  = 500
	boxWidth  = 300
	boxHeight = 46
	rowHeight = 84
	margin    = 40
	header    = 56
	maxChars  = 44
)

type point struct{ x, y int }

// SVG writes the map as an SVG picture: three columns — the code's retry
// sites, the mesh's routes, the services — and an arrow per edge,
// labelled with its attempts and worst-case calls; hot edges (HotCalls or
// more per request) are red and thick.
func (g *Graph) SVG(w io.Writer) error {
	cols := [][]*Node{g.sorted(KindCode), g.sorted(KindRoute), g.sorted(KindService)}
	rows := 1
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	width := 2*margin + 2*colWidth + boxWidth
	height := header + rows*rowHeight + margin
	at := map[string]point{}
	for ci, c := range cols {
		for ri, n := range c {
			at[n.ID] = point{margin + ci*colWidth, header + ri*rowHeight}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<title>resilint map: retry layers, code and mesh</title>` + "\n")
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>` +
		`<marker id="arrow-hot" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="14" markerHeight="14" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>` + "\n")
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for ci, title := range []string{"code: retry sites", "mesh: routes", "services"} {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold" font-size="14">%s</text>`+"\n", margin+ci*colWidth, header-20, esc(title))
	}
	for _, e := range g.Edges {
		from, ok1 := at[e.From]
		to, ok2 := at[e.To]
		if !ok1 || !ok2 {
			continue
		}
		x1, y1 := from.x+boxWidth, from.y+boxHeight/2
		x2, y2 := to.x, to.y+boxHeight/2
		color, widthPx, marker, class := "#555", 1.5, "arrow", "edge"
		if e.Hot() {
			color, widthPx, marker, class = "#c0392b", 3.5, "arrow-hot", "edge hot"
		}
		fmt.Fprintf(&b, `<g class="%s"><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s" marker-end="url(#%s)"/>`,
			class, x1, y1, x2, y2, color, strconv.FormatFloat(widthPx, 'f', -1, 64), marker)
		// The label above the line, at its middle: the attempts, then the
		// worst case per request on a second line.
		first, second := e.labelLines()
		mx, my := (x1+x2)/2, (y1+y2)/2
		if second != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="%s" font-size="11">%s</text>`, mx, my-20, color, esc(first))
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="%s" font-size="11" font-weight="bold">%s</text></g>`+"\n", mx, my-6, color, esc(second))
		} else {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="%s" font-size="11">%s</text></g>`+"\n", mx, my-6, color, esc(first))
		}
	}
	for _, c := range cols {
		for _, n := range c {
			p := at[n.ID]
			fill := map[Kind]string{KindCode: "#eaf2fb", KindRoute: "#fdf2e3", KindService: "#eafaf1"}[n.Kind]
			fmt.Fprintf(&b, `<g class="node %s" id="%s"><rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#333"/>`,
				n.Kind, esc(n.ID), p.x, p.y, boxWidth, boxHeight, fill)
			fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, p.x+10, p.y+19, esc(clip(n.Label)))
			detail := n.Detail
			if n.Module != "" {
				detail = strings.TrimSpace(n.Module + " " + detail)
			}
			if detail != "" {
				fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666" font-size="10">%s</text>`, p.x+10, p.y+36, esc(clipLeft(detail)))
			}
			b.WriteString("</g>\n")
		}
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// DOT writes the map in Graphviz's language, for those who lay it out
// with dot.
func (g *Graph) DOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph resilint {\n\trankdir=LR;\n\tnode [shape=box, style=rounded];\n")
	for _, k := range []Kind{KindCode, KindRoute, KindService} {
		for _, n := range g.sorted(k) {
			label := n.Label
			if n.Detail != "" {
				label += "\n" + n.Detail
			}
			fmt.Fprintf(&b, "\t%s [label=%s, group=%s];\n", strconv.Quote(n.ID), strconv.Quote(label), k)
		}
	}
	for _, e := range g.Edges {
		attrs := "label=" + strconv.Quote(e.Label())
		if e.Hot() {
			attrs += ", color=red, penwidth=3"
		}
		fmt.Fprintf(&b, "\t%s -> %s [%s];\n", strconv.Quote(e.From), strconv.Quote(e.To), attrs)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

func clip(s string) string {
	r := []rune(s)
	if len(r) <= maxChars {
		return s
	}
	return string(r[:maxChars-1]) + "…"
}

// clipLeft keeps the end of a long path, the part that names the file.
func clipLeft(s string) string {
	r := []rune(s)
	if len(r) <= maxChars+8 {
		return s
	}
	return "…" + string(r[len(r)-(maxChars+7):])
}
