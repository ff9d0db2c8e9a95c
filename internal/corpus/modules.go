package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A module is one line of the module list: a pinned module version and
// the packages of it that the corpus analyzes.
type module struct {
	Path     string   // module path
	Version  string   // pinned version
	Short    bool     // part of the CI subset (-short)
	Patterns []string // package patterns, relative to the module root
}

// ID is the module's key in the ledger: path@version.
func (m module) ID() string { return m.Path + "@" + m.Version }

// parseModules reads a module list: one module@version a line, then the
// word "short" and package patterns ("./..." when none is given), in any
// order; blank lines and lines starting with # are skipped.
func parseModules(r io.Reader) ([]module, error) {
	var mods []module
	seen := make(map[string]int)
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		path, version, ok := strings.Cut(fields[0], "@")
		if !ok || path == "" || version == "" {
			return nil, fmt.Errorf("line %d: %q is not module@version", n, fields[0])
		}
		m := module{Path: path, Version: version}
		for _, f := range fields[1:] {
			switch {
			case f == "short":
				m.Short = true
			case f == "." || strings.HasPrefix(f, "./"):
				if strings.Contains(f, "..") && !strings.HasSuffix(f, "/...") && f != "./..." {
					return nil, fmt.Errorf("line %d: pattern %q leaves the module", n, f)
				}
				m.Patterns = append(m.Patterns, f)
			default:
				return nil, fmt.Errorf("line %d: unknown field %q (want \"short\" or a ./pattern)", n, f)
			}
		}
		if len(m.Patterns) == 0 {
			m.Patterns = []string{"./..."}
		}
		if prev, dup := seen[path]; dup {
			return nil, fmt.Errorf("line %d: module %s already listed on line %d", n, path, prev)
		}
		seen[path] = n
		mods = append(mods, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return mods, nil
}

// selectModules returns the modules that -modules and -short ask for.
// names are module paths or path@version; every name must match a listed
// module, so that a typo in CI fails instead of running nothing.
func selectModules(all []module, names []string, short bool) ([]module, error) {
	if len(names) == 0 {
		if !short {
			return all, nil
		}
		var sel []module
		for _, m := range all {
			if m.Short {
				sel = append(sel, m)
			}
		}
		return sel, nil
	}
	var sel []module
	for _, name := range names {
		i := slices.IndexFunc(all, func(m module) bool { return m.Path == name || m.ID() == name })
		if i < 0 {
			return nil, fmt.Errorf("-modules: %q is not in the module list", name)
		}
		if !slices.ContainsFunc(sel, func(m module) bool { return m.Path == all[i].Path }) {
			sel = append(sel, all[i])
		}
	}
	return sel, nil
}
