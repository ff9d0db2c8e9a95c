package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildVersion describes how this binary was built: the main module's
// version when the go command stamped one (a release, or a pseudo-version
// from the VCS for a build in a checkout, "+dirty" when it had local
// changes), else "devel" followed by the revision, time and modified flag
// of the VCS when known.
func buildVersion() string {
	return formatVersion(debug.ReadBuildInfo())
}

func formatVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel"
	}
	if v := info.Main.Version; strings.HasPrefix(v, "v") {
		return v
	}
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "modified"
			}
		}
	}
	var parts []string
	if rev != "" {
		parts = append(parts, "rev "+rev[:min(len(rev), 12)])
	}
	for _, p := range []string{at, modified} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "devel"
	}
	return "devel (" + strings.Join(parts, ", ") + ")"
}

// semanticVersion is the module version without its "v", for SARIF's
// semanticVersion, or "" when the binary has none.
func semanticVersion() string {
	v := buildVersion()
	if !strings.HasPrefix(v, "v") {
		return ""
	}
	return strings.TrimPrefix(v, "v")
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "resilint version: unexpected arguments %q\n", args)
		return 2
	}
	fmt.Fprintf(stdout, "resilint version %s %s\n", buildVersion(), runtime.Version())
	return 0
}

// printFullVersion answers -V=full, the go command's question before it
// uses resilint as a vet tool. Its answer keys the go command's cache of
// vet results, so it must change whenever the binary does: it is
//
//	resilint version <version> <go version> buildID=<SHA-256 of the executable>
//
// The go command reads "version" in the second field; when the third
// contains "devel" it keys on the last field, buildID=..., else on the
// whole line. Either way the hash of the executable is in the key, so a
// rebuilt resilint (a changed check, the same version string) never reuses
// results of the old one.
func printFullVersion(w io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	v := strings.Join(strings.Fields(buildVersion()), "-") // one field: the go command splits on spaces
	_, err = fmt.Fprintf(w, "resilint version %s %s buildID=%x\n", v, runtime.Version(), h.Sum(nil))
	return err
}

// versionFlag is -V: -V=full prints the line of the -V=full protocol,
// -V the version for people; both exit.
type versionFlag struct{ value *string }

func (v versionFlag) IsBoolFlag() bool { return true }
func (v versionFlag) String() string {
	if v.value == nil {
		return ""
	}
	return *v.value
}
func (v versionFlag) Set(s string) error {
	switch s {
	case "full", "true":
		*v.value = s
		return nil
	}
	return fmt.Errorf("want -V or -V=full")
}

// handleVersion prints what -V asked for, if it was given, and reports
// whether it was (the caller then exits with the returned status).
func handleVersion(value string, stdout, stderr io.Writer) (int, bool) {
	switch value {
	case "full":
		if err := printFullVersion(stdout); err != nil {
			fmt.Fprintf(stderr, "resilint: -V=full: %v\n", err)
			return 1, true
		}
		return 0, true
	case "true":
		return runVersion(nil, stdout, stderr), true
	}
	return 0, false
}

// registerVersionFlag defines -V on fs for the go vet mode, where the
// flags are parsed by multichecker: it answers at once and exits.
func registerVersionFlag(fs *flag.FlagSet) {
	if fs.Lookup("V") == nil {
		fs.Var(exitingVersionFlag{}, "V", "print the version and exit (-V=full: the go vet -vettool protocol)")
	}
}

type exitingVersionFlag struct{}

func (exitingVersionFlag) IsBoolFlag() bool { return true }
func (exitingVersionFlag) String() string   { return "" }
func (exitingVersionFlag) Set(s string) error {
	v := ""
	if err := (versionFlag{&v}).Set(s); err != nil {
		return err
	}
	code, _ := handleVersion(v, os.Stdout, os.Stderr)
	os.Exit(code)
	return nil
}
