package main

import (
	"errors"
	"fmt"
	"go/token"
	"io"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/mesh/check"
	"github.com/resilint/resilint/mesh/config"
)

// The mesh layer in the driver: -mesh DIR reads the Istio and Envoy
// configuration in DIR (mesh/config), reports the mesh checks' findings
// (mesh/check) among the code's, positioned in the manifests, and hands
// the mesh's routes to the checks that join code and mesh, as their -mesh
// flag (mesh/routes): retrynesting counts the mesh's attempts,
// idempotency says when the mesh resends a POST.

// meshCheck is the check the mesh findings are reported under. It is not
// one of the analyzers: it reads manifests, not packages, and runs only
// with -mesh.
var meshCheck = &analysis.Analyzer{
	Name: "mesh",
	Doc: `report service-mesh retry, timeout, connection-pool and outlier-detection settings that multiply load or empty a pool (Istio, Envoy)

Run with -mesh DIR (a file or a directory of Istio VirtualServices and
DestinationRules, networking.istio.io v1, v1beta1 or v1alpha3, and of
Envoy v3 route and cluster configuration, in YAML or JSON). Reported, at
the manifest's line: retries without a retry budget or concurrent-retry
limit (retry-budget); a route timeout shorter than perTryTimeout ×
(retries + 1) (retry-timeout); retries without a per-try timeout
(per-try-timeout); retries on 5xx, reset or gateway errors of a route that
serves POST or PATCH without an idempotency-key match
(retry-non-idempotent); connection pools that queue without bound
(pending-unbounded); outlier detection that may eject every endpoint
(ejection-all) or ejects after 1 or 2 errors (ejection-threshold). Where a
field is missing the finding states the default that applies (Istio 1.32,
Envoy's v3 API). With -mesh, retrynesting also counts the mesh's retries
of the hosts the code calls, and idempotency says when the mesh resends a
POST.`,
	URL: "https://github.com/resilint/resilint/blob/main/docs/checks/mesh.md",
	Run: func(*analysis.Pass) (any, error) { return nil, nil },
}

// meshRun is what -mesh read.
type meshRun struct {
	set      *config.Set
	findings []*finding
	routes   []check.HostRoute
	table    string // the routes, as the analyzers' -mesh flag
}

// loadMesh reads the configuration at path and runs the mesh checks. The
// error lists every invalid document, with its file and line; what was
// valid is checked all the same.
func loadMesh(path string) (*meshRun, error) {
	set, err := config.Load(path)
	m := &meshRun{set: set}
	fset := token.NewFileSet()
	files := map[string]*token.File{}
	for _, f := range set.Files {
		abs, aerr := filepath.Abs(f.Name)
		if aerr != nil {
			abs = f.Name
		}
		tf := fset.AddFile(abs, -1, len(f.Data))
		tf.SetLinesForContent(f.Data)
		files[f.Name] = tf
	}
	toPos := func(p config.Position) token.Pos {
		tf := files[p.File]
		if tf == nil || p.Line < 1 || p.Line > tf.LineCount() {
			return token.NoPos
		}
		start := tf.LineStart(p.Line)
		off := tf.Offset(start) + max(p.Column-1, 0)
		return tf.Pos(min(off, tf.Size()))
	}
	for _, f := range check.Run(set) {
		d := analysis.Diagnostic{Pos: toPos(f.Pos), Category: f.Category, Message: f.Message}
		for _, r := range f.Related {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: toPos(r.Pos), Message: r.Message})
		}
		if !d.Pos.IsValid() {
			continue
		}
		fd := &finding{check: meshCheck, files: fset, diag: d, posn: fset.Position(d.Pos)}
		fd.end = fd.posn
		m.findings = append(m.findings, fd)
	}
	m.routes = check.Routes(set)
	m.table = check.Table(m.routes).String()
	return m, err
}

// setMeshRoutes gives the routes (JSON; "" for none) to every analyzer
// that joins code and mesh: those with a -mesh flag.
func setMeshRoutes(all []*analysis.Analyzer, table string) error {
	for _, a := range all {
		if f := a.Flags.Lookup("mesh"); f != nil {
			if err := f.Value.Set(table); err != nil {
				return fmt.Errorf("%s: %v", a.Name, err)
			}
		}
	}
	return nil
}

// prepareMesh runs -mesh for the analysis modes: it reads the
// configuration, prints its errors on stderr, and sets the analyzers'
// routes (emptied when path is ""). It returns the mesh's findings and
// whether the configuration had errors.
func prepareMesh(path string, all []*analysis.Analyzer, stderr io.Writer) ([]*finding, bool) {
	setMeshRoutes(all, "") // the routes of an earlier run go
	if path == "" {
		return nil, false
	}
	m, err := loadMesh(path)
	bad := false
	if err != nil {
		bad = true
		var e *config.Error
		for _, line := range splitErrors(err) {
			fmt.Fprintf(stderr, "resilint: -mesh: %s\n", line)
		}
		if !errors.As(err, &e) && len(m.set.Files) == 0 {
			return nil, true
		}
	}
	if err := setMeshRoutes(all, m.table); err != nil {
		fmt.Fprintf(stderr, "resilint: -mesh: %v\n", err)
		return nil, true
	}
	return m.findings, bad
}

// splitErrors lists the errors joined in err.
func splitErrors(err error) []string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []string
		for _, e := range j.Unwrap() {
			out = append(out, splitErrors(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []string{err.Error()}
}
