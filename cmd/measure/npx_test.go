//go:build unix

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// registry serves, on loopback, the packages that make npm-deps installed
// in testdata/npm/node_modules, as the npm registry serves them: a
// packument per name, a tarball per version packed from the installed
// directory. A packument of slow (a name) waits delay before it answers:
// a download that takes its time, as a first npx run's does.
func registry(t *testing.T, slow string, delay time.Duration) string {
	t.Helper()
	root, err := filepath.Abs("../../testdata/npm/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	type pkg struct {
		dir      string
		manifest map[string]any
	}
	var found []pkg
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "package.json" {
			return err
		}
		dir := filepath.Dir(path)
		rel, _ := filepath.Rel(root, dir)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		// A package is node_modules/NAME or node_modules/@SCOPE/NAME, at
		// any depth; any other package.json is a file inside one.
		n := len(parts)
		isPkg := n == 1 && !strings.HasPrefix(parts[0], ".") ||
			n >= 2 && parts[n-2] == "node_modules" ||
			n >= 2 && strings.HasPrefix(parts[n-2], "@") && (n == 2 || parts[n-3] == "node_modules")
		if !isPkg {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var manifest map[string]any
		if json.Unmarshal(data, &manifest) == nil && manifest["name"] != nil && manifest["version"] != nil {
			found = append(found, pkg{dir, manifest})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Only what slow needs is packed: its dependencies' closure, by name.
	need := map[string]bool{slow: true}
	for grew := true; grew; {
		grew = false
		for _, p := range found {
			if !need[p.manifest["name"].(string)] {
				continue
			}
			for _, key := range []string{"dependencies", "peerDependencies", "optionalDependencies"} {
				deps, _ := p.manifest[key].(map[string]any)
				for d := range deps {
					if !need[d] {
						need[d], grew = true, true
					}
				}
			}
		}
	}
	packuments := map[string]map[string]any{}
	tarballs := map[string][]byte{}
	for _, p := range found {
		name, _ := p.manifest["name"].(string)
		version, _ := p.manifest["version"].(string)
		if !need[name] {
			continue
		}
		tgz, err := packDir(p.dir)
		if err != nil {
			t.Fatal(err)
		}
		file := strings.ReplaceAll(name, "/", "-") + "-" + version + ".tgz"
		tarballs[file] = tgz
		sum1 := sha1.Sum(tgz)
		sum512 := sha512.Sum512(tgz)
		p.manifest["dist"] = map[string]any{
			"tarball":   base + "/-/" + file,
			"shasum":    hex.EncodeToString(sum1[:]),
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
		}
		pm := packuments[name]
		if pm == nil {
			pm = map[string]any{"name": name, "versions": map[string]any{}, "dist-tags": map[string]any{}}
			packuments[name] = pm
		}
		pm["versions"].(map[string]any)[version] = p.manifest
		pm["dist-tags"].(map[string]any)["latest"] = version
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if file, ok := strings.CutPrefix(r.URL.Path, "/-/"); ok {
			if b, ok := tarballs[file]; ok {
				w.Write(b)
				return
			}
			http.NotFound(w, r)
			return
		}
		name, _ := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/"))
		p, ok := packuments[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if name == slow {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(p)
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return base + "/"
}

// packDir packs a package directory as npm pack does: a gzipped tar of
// its files under package/, without its node_modules.
func packDir(dir string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		hdr := &tar.Header{Name: "package/" + filepath.ToSlash(rel), Mode: int64(info.Mode().Perm()), Size: int64(len(data)), ModTime: info.ModTime(), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// npxEnv points npm at the registry, with an empty cache (a first run)
// and no user configuration.
func npxEnv(t *testing.T, reg string) {
	t.Helper()
	home := t.TempDir()
	for k, v := range map[string]string{
		"npm_config_registry":        reg,
		"npm_config_cache":           filepath.Join(home, "npm-cache"),
		"npm_config_userconfig":      filepath.Join(home, "npmrc"),
		"npm_config_update_notifier": "false",
		"npm_config_audit":           "false",
		"npm_config_fund":            "false",
		"npm_config_fetch_retries":   "0",
		"npm_config_loglevel":        "error",
		"HOME":                       home,
		"MEMORY_FILE_PATH":           filepath.Join(home, "memory.jsonl"),
	} {
		t.Setenv(k, v)
	}
}

// TestCaptureNPXColdCache starts a real npm server the way client
// configurations do, "npx -y PKG", with npm's cache empty, from a loopback
// registry that takes its time: the first answer waits --start-timeout
// (the download included), not --timeout; with too short a start timeout
// the failure names the flag that gives more time.
func TestCaptureNPXColdCache(t *testing.T) {
	if testing.Short() {
		t.Skip("npx installs a server from a registry")
	}
	npmBin(t)
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed")
	}
	const pkg = "@modelcontextprotocol/server-memory"
	reg := registry(t, pkg, 1500*time.Millisecond)

	t.Run("start timeout", func(t *testing.T) {
		npxEnv(t, reg)
		code, stdout, stderr := runCaptureIn(t, t.TempDir(), "--timeout", "1s", "--stdio", "--", "npx", "-y", pkg)
		if code != 0 {
			t.Fatalf("exit %d, want 0: %s", code, stderr)
		}
		if !strings.Contains(stdout, "model-read bytes") {
			t.Errorf("stdout: %q", stdout)
		}
	})
	t.Run("too short", func(t *testing.T) {
		npxEnv(t, reg)
		code, _, stderr := runCaptureIn(t, t.TempDir(), "--timeout", "500ms", "--start-timeout", "500ms", "--stdio", "--", "npx", "-y", pkg)
		want := "npx -y " + pkg + ": initialize: no answer within 500ms of the server's start (--start-timeout gives the server more time to start)"
		if code != 3 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr %q; want 3 and %q", code, stderr, want)
		}
	})
}
