package docs_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

const modulePath = "github.com/readmeter/readmeter"

// TestGoInstall installs measure as a user does, `go install
// MODULE/cmd/measure@VERSION`, into a GOPATH of its own, from a module
// proxy that serves this checkout's last commit (a directory, GOPROXY=
// file://...), the dependencies from the module cache or the Go module
// proxy. The installed command's --version names that commit's
// pseudo-version.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("go install builds the command from a module proxy")
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%H %ct").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	rev, ct, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	sec, err := time.ParseDuration(ct + "s")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(0, 0).Add(sec).UTC()
	version := module.PseudoVersion("v0", "", at, rev[:12])

	dir := t.TempDir()
	at0 := filepath.Join(dir, "proxy", modulePath, "@v")
	if err := os.MkdirAll(at0, 0o777); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(at0, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.CreateFromVCS(zf, module.Version{Path: modulePath, Version: version}, root, rev, ""); err != nil {
		zf.Close()
		t.Fatalf("the module zip of %s: %v", rev, err)
	}
	zf.Close()
	gomod, err := exec.Command("git", "-C", root, "show", rev+":go.mod").Output()
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": at.Format(time.RFC3339)})
	for name, data := range map[string][]byte{"list": []byte(version + "\n"), version + ".info": info, version + ".mod": gomod} {
		if err := os.WriteFile(filepath.Join(at0, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}

	cache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	proxy := "file://" + filepath.ToSlash(filepath.Join(dir, "proxy")) +
		",file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(cache)), "cache", "download")) +
		",https://proxy.golang.org"
	gopath := filepath.Join(dir, "gopath")
	cmd := exec.Command("go", "install", modulePath+"/cmd/measure@"+version)
	cmd.Dir = dir // outside any module
	cmd.Env = append(cleanGoEnv(),
		"GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"), "GOBIN=",
		"GOCACHE="+strings.TrimSpace(string(gocache)),
		"GOPROXY="+proxy, "GONOSUMDB="+modulePath, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/measure@%s: %v\n%s", modulePath, version, err, out)
	}
	v, err := exec.Command(filepath.Join(gopath, "bin", "measure"), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("measure --version: %v\n%s", err, v)
	}
	if !regexp.MustCompile(`^measure ` + regexp.QuoteMeta(version) + ` \(go\S+ \S+\)\n$`).Match(v) {
		t.Errorf("the installed measure --version printed %q, want %s", v, version)
	}
}

// cleanGoEnv is the environment without the go command's settings a test
// sets itself.
func cleanGoEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPATH", "GOMODCACHE", "GOBIN", "GOCACHE", "GOPROXY", "GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOFLAGS", "GOTOOLCHAIN", "GOWORK":
			continue
		}
		out = append(out, kv)
	}
	return out
}
