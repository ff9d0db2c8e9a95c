package main

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the changes from old to new as a unified diff with
// three lines of context, or "" when they are equal. The common prefix and
// suffix are cut first; the lines between are compared by longest common
// subsequence when they are few enough, else shown as one replacement.
func unifiedDiff(oldName, newName string, old, new []byte) string {
	a, b := splitKeep(string(old)), splitKeep(string(new))
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre == len(a) && pre == len(b) {
		return ""
	}
	// ops: ' ' keep, '-' delete, '+' insert, over a and b from pre.
	type op struct {
		kind byte
		line string
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) <= 4_000_000 {
		// lcs[i][j]: length of the LCS of ma[i:] and mb[j:].
		lcs := make([][]int32, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i]})
				i++
				j++
			case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i]})
				i++
			default:
				ops = append(ops, op{'+', mb[j]})
				j++
			}
		}
	} else {
		for _, l := range ma {
			ops = append(ops, op{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, op{'+', l})
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}

	const context = 3
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Walk the ops, emitting hunks around the changes.
	aLine, bLine := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for k, o := range ops {
		aLine[k+1], bLine[k+1] = aLine[k], bLine[k]
		if o.kind != '+' {
			aLine[k+1]++
		}
		if o.kind != '-' {
			bLine[k+1]++
		}
	}
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(0, k-context)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			next := end
			for next < len(ops) && ops[next].kind == ' ' {
				next++
			}
			if next < len(ops) && next-end <= 2*context {
				end = next
				continue
			}
			end = min(len(ops), end+context)
			break
		}
		aN, bN := aLine[end]-aLine[start], bLine[end]-bLine[start]
		aS, bS := aLine[start]+1, bLine[start]+1
		if aN == 0 {
			aS--
		}
		if bN == 0 {
			bS--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aS, aN, bS, bN)
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		k = end
	}
	return out.String()
}

// splitKeep splits s into lines that keep their "\n".
func splitKeep(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}
