// Command buildgcl builds golangci-lint v2.15.0 with the resilint plugin
// from a checkout of resilint, through the Go module proxy alone (no git):
//
//	go run ./plugin/golangci/buildgcl -o ./custom-gcl
//
// `golangci-lint custom` does the same job by cloning golangci-lint's
// repository, which needs git and GitHub. buildgcl writes instead the
// module that command would build: a main package calling golangci-lint's
// commands.Execute, like golangci-lint's own, plus a blank import of
// github.com/resilint/resilint/plugin/golangci, with golangci-lint and its
// dependencies from the module proxy (or the module cache) and resilint
// replaced by the checkout. Then it runs go mod tidy and go build.
//
// Flags:
//
//	-o file       the binary to write (default ./custom-gcl)
//	-work dir     where to write the module (default: a temporary
//	              directory, removed afterwards); keep it to rebuild faster
//	-resilint dir the resilint checkout (default: the one holding the
//	              working directory)
//
// The first build compiles golangci-lint and its linters: minutes on a
// cold build cache.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// GolangciVersion is the golangci-lint release the plugin is built into.
const GolangciVersion = "v2.15.0"

const resilintModule = "github.com/resilint/resilint"

func main() {
	out := flag.String("o", "custom-gcl", "the golangci-lint binary to write")
	work := flag.String("work", "", "directory for the generated module (default: a temporary one)")
	root := flag.String("resilint", "", "the resilint checkout (default: the one holding the working directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./plugin/golangci/buildgcl [-o file] [-work dir] [-resilint dir]\n\nBuilds golangci-lint %s with the resilint plugin, without git.\n\n", GolangciVersion)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := build(*out, *work, *root); err != nil {
		fmt.Fprintf(os.Stderr, "buildgcl: %v\n", err)
		os.Exit(1)
	}
}

func build(out, work, root string) error {
	var err error
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if root, err = findCheckout(wd); err != nil {
			return err
		}
	}
	if root, err = filepath.Abs(root); err != nil {
		return err
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	if work == "" {
		if work, err = os.MkdirTemp("", "buildgcl"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	if err := WriteModule(work, root); err != nil {
		return err
	}
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", out, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = work
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		fmt.Fprintf(os.Stderr, "buildgcl: go %s (in %s)\n", strings.Join(args, " "), work)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
		}
	}
	fmt.Fprintf(os.Stderr, "buildgcl: wrote %s (golangci-lint %s with the resilint plugin)\n", out, GolangciVersion)
	return nil
}

// findCheckout returns the directory of dir or its parents whose go.mod
// declares the resilint module.
func findCheckout(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+resilintModule+"\n")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("not inside a checkout of " + resilintModule + " (use -resilint dir)")
		}
	}
}

// WriteModule writes into dir the module that builds golangci-lint with
// the plugin, taking resilint (and its runtime module, when runtime/ is
// one) from the checkout at root.
func WriteModule(dir, root string) error {
	gomod := "module resilint.local/custom-gcl\n\ngo 1.26\n\nrequire (\n" +
		"\tgithub.com/golangci/golangci-lint/v2 " + GolangciVersion + "\n" +
		"\t" + resilintModule + " v0.0.0\n)\n\n" +
		"replace " + resilintModule + " => " + root + "\n"
	if _, err := os.Stat(filepath.Join(root, "runtime", "go.mod")); err == nil {
		gomod += "\nreplace " + resilintModule + "/runtime => " + filepath.Join(root, "runtime") + "\n"
	}
	files := map[string]string{
		"go.mod": gomod,
		"main.go": `// Command custom-gcl is golangci-lint with the resilint plugin: the
// program golangci-lint custom would build. Written by buildgcl.
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"
)

func main() {
	info := commands.BuildInfo{Version: "` + strings.TrimPrefix(GolangciVersion, "v") + `-custom-resilint", Commit: "none", Date: "none", GoVersion: "` + runtime.Version() + `"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
`,
		"plugins.go": `package main

import (
	_ "` + resilintModule + `/plugin/golangci"
)
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
