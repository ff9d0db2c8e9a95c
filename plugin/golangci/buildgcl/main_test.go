package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The module buildgcl writes pins golangci-lint, replaces resilint by the
// checkout and imports the plugin. (The end-to-end test in
// plugin/golangci builds it: RESILINT_E2E_GOLANGCI=1.)
func TestWriteModule(t *testing.T) {
	wd, _ := os.Getwd()
	root, err := findCheckout(wd)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs(filepath.Join("..", "..", "..")); root != want {
		t.Errorf("findCheckout = %s, want %s", root, want)
	}
	dir := t.TempDir()
	if err := WriteModule(dir, root); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "mod", "edit", "-json", filepath.Join(dir, "go.mod")).Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Require []struct{ Path, Version string }
		Replace []struct {
			Old struct{ Path string }
			New struct{ Path string }
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	req := make(map[string]string)
	for _, r := range mod.Require {
		req[r.Path] = r.Version
	}
	if req["github.com/golangci/golangci-lint/v2"] != "v2.15.0" || req["github.com/resilint/resilint"] == "" {
		t.Errorf("requires %v, want golangci-lint v2.15.0 and resilint", req)
	}
	repl := make(map[string]string)
	for _, r := range mod.Replace {
		repl[r.Old.Path] = r.New.Path
	}
	if repl["github.com/resilint/resilint"] != root {
		t.Errorf("replaces %v, want resilint => %s", repl, root)
	}
	if _, err := os.Stat(filepath.Join(root, "runtime", "go.mod")); err == nil && repl["github.com/resilint/resilint/runtime"] != filepath.Join(root, "runtime") {
		t.Errorf("replaces %v, want the runtime module => %s/runtime", repl, root)
	}
	plugins, _ := os.ReadFile(filepath.Join(dir, "plugins.go"))
	main, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(plugins), `_ "github.com/resilint/resilint/plugin/golangci"`) || !strings.Contains(string(main), "commands.Execute(") {
		t.Errorf("plugins.go:\n%s\nmain.go:\n%s", plugins, main)
	}
	// The generated Go files are well-formed.
	if out, err := exec.Command("gofmt", "-l", dir).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("gofmt -l: %v %s", err, out)
	}
}
