package twin

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The twin's documents: the primer at /, the reference at /reference (one
// section with ?section=), the skill and the categories. All are files
// under content/, in the twin's own words, embedded at build time so that
// a change of words shows in the numbers.

//go:embed content
var contentFS embed.FS

// section is one part of the reference.
type section struct {
	Name string
	Text string
}

type category struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	About string `json:"about"`
}

type docs struct {
	primer     string
	sections   []section
	reference  string
	skill      string
	skillETag  string
	llms       string
	categories []category
}

var (
	docsOnce sync.Once
	docsVal  *docs
)

// loadDocs reads content/ once. A malformed file is a build mistake, so it
// panics (the tests read every file).
func loadDocs() *docs {
	docsOnce.Do(func() {
		d := &docs{}
		read := func(name string) string {
			b, err := contentFS.ReadFile("content/" + name)
			if err != nil {
				panic("twin: content/" + name + ": " + err.Error())
			}
			return string(b)
		}
		ents, err := fs.ReadDir(contentFS, "content/reference")
		if err != nil {
			panic(err)
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names) // files are NN-name.md
		var whole strings.Builder
		whole.WriteString(read("reference.md"))
		for _, n := range names {
			name := strings.TrimSuffix(n, path.Ext(n))
			if i := strings.IndexByte(name, '-'); i >= 0 {
				name = name[i+1:]
			}
			text := read("reference/" + n)
			d.sections = append(d.sections, section{Name: name, Text: text})
			whole.WriteString("\n")
			whole.WriteString(text)
		}
		d.reference = whole.String()
		var list strings.Builder
		for _, s := range d.sections {
			list.WriteString("- " + s.Name + ", about " + strconv.Itoa(len(s.Text)/3) + " tokens\n")
		}
		d.primer = strings.Replace(read("primer.md"), "{{sections}}\n", list.String(), 1)
		d.skill = read("skill/SKILL.md")
		sum := sha256.Sum256([]byte(d.skill))
		d.skillETag = `"` + hex.EncodeToString(sum[:8]) + `"`
		var llms strings.Builder
		llms.WriteString(read("llms.txt"))
		for _, s := range d.sections {
			llms.WriteString("- [" + s.Name + "](/reference?section=" + s.Name + ")\n")
		}
		d.llms = llms.String()
		if err := json.Unmarshal([]byte(read("categories.json")), &d.categories); err != nil {
			panic("twin: content/categories.json: " + err.Error())
		}
		docsVal = d
	})
	return docsVal
}

func loadCategories() []category { return loadDocs().categories }

func findCategory(name string) *category {
	for _, c := range loadDocs().categories {
		if c.Name == name {
			return &c
		}
	}
	return nil
}

func (d *docs) section(name string) (string, bool) {
	for _, s := range d.sections {
		if s.Name == name {
			return s.Text, true
		}
	}
	return "", false
}

func writeText(w http.ResponseWriter, r *http.Request, ctype, body string) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Request-Id", randHex(8))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write([]byte(body))
	}
}

const markdown = "text/markdown; charset=utf-8"

func (s *Server) routesContent(mux *http.ServeMux) {
	d := loadDocs()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		writeText(w, r, markdown, d.primer)
	})
	mux.HandleFunc("GET /reference", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if len(q["section"]) > 1 {
			writeError(w, r, badRequest("Send one section at a time.", "Ask ?section=NAME once per section."))
			return
		}
		name := q.Get("section")
		if name == "" {
			writeText(w, r, markdown, d.reference)
			return
		}
		text, ok := d.section(name)
		if !ok {
			names := make([]string, len(d.sections))
			for i, s := range d.sections {
				names[i] = s.Name
			}
			e := refuse("INVALID_REQUEST", "section names no heading of GET /reference",
				"Ask for one of the sections listed, or leave section out for the whole reference.")
			e.Sections = names
			writeError(w, r, e)
			return
		}
		writeText(w, r, markdown, text)
	})
	mux.HandleFunc("GET /skills/schellingaf/SKILL.md", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", d.skillETag)
		w.Header().Set("Cache-Control", "public, max-age=3600")
		if inm := r.Header.Get("If-None-Match"); inm != "" && strings.Contains(inm, d.skillETag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		writeText(w, r, markdown, d.skill)
	})
	mux.HandleFunc("GET /llms.txt", func(w http.ResponseWriter, r *http.Request) {
		writeText(w, r, "text/plain; charset=utf-8", d.llms)
	})
	mux.HandleFunc("GET /join/{space}/{code}", func(w http.ResponseWriter, r *http.Request) {
		writeText(w, r, markdown, "# An invite\n\nThis link lets a KEY join a space. Send it as `link` to `POST /v1/join` with your bearer token, or give it to `schellingaf_join` through the connector. Read `GET /` first if you hold no KEY.\n")
	})
}
