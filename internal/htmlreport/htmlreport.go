// Package htmlreport writes readmeter's pages: one self-contained HTML
// file per report (measure's treemap of a tool list, measure diff's
// treemap coloured by change, walks run's bars against budgets) that
// works opened from disk, offline.
//
//	err := htmlreport.Write(w, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: "tools-mcp.json", Data: tree})
//
// The stance: the page is data plus one program. The report's data is
// embedded as JSON in a <script type="application/json"> (written with
// <, > and & escaped, so no text in it can close the element), one inline
// script draws it with the DOM's text nodes only (a name holding markup
// shows as that markup's characters, never as elements), and one inline
// style dresses it. The page carries a Content-Security-Policy that
// allows that one script and that one style by their SHA-256 hashes and
// nothing else: no other script, no style attribute, no image, font,
// frame or request to any network.
//
// The steps: the caller builds a Tree (measure, measure diff) or hands a
// walk.Report (walks run) as Data; Write executes the one template.
package htmlreport

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"
)

// Kinds of page: which drawing the script makes of the data.
const (
	// KindMeasure is a Tree drawn as a treemap, a table and the findings.
	KindMeasure = "measure"
	// KindDiff is a Tree whose tools carry their old bytes, drawn
	// coloured by their change, with the tools added and removed.
	KindDiff = "diff"
	// KindWalks is a walk.Report drawn as one bar per walk against its
	// budget.
	KindWalks = "walks"
)

// Page is one page to write.
type Page struct {
	// Kind is KindMeasure, KindDiff or KindWalks.
	Kind string
	// Title is the page's title and heading.
	Title string
	// Data is the report, marshalled to JSON into the page.
	Data any
}

// Tree is the data of a measure or measure diff page: servers, their
// tools, and each tool's components, sized by model-read bytes.
type Tree struct {
	// Units are the tokenizers counted besides bytes and tokens
	// (bytes/3), by name ("o200k"); each tool's Counts follows them.
	Units []string `json:"units"`
	// Servers are the captures measured, in the order given.
	Servers []Server `json:"servers"`
	// Removed are, on a diff page, the tools of the old capture that the
	// new one lacks, with their old bytes.
	Removed []Tool `json:"removed,omitempty"`
	// Findings are what the reader should act on, with a saving where
	// one is known.
	Findings []Finding `json:"findings"`
	// Savings are the what-ifs applied, each with what it saves.
	Savings []Saving `json:"savings"`
}

// Server is one capture: a node of the treemap whose children are its
// tools.
type Server struct {
	// Name is the capture's name (its budget key, or its file).
	Name string `json:"name"`
	// Path is the capture's file.
	Path string `json:"path"`
	// Tools are its tools, in the capture's order.
	Tools []Tool `json:"tools"`
}

// Tool is one tool: a rectangle whose area is its model-read bytes, and
// whose children are its components.
type Tool struct {
	// Name is the tool's name, as the commands show it.
	Name string `json:"name"`
	// Description is the start of its description, for the hover.
	Description string `json:"description,omitempty"`
	// Bytes is what a model reads of the tool, in UTF-8 bytes.
	Bytes int64 `json:"bytes"`
	// Tokens is floor(Bytes/3).
	Tokens int64 `json:"tokens"`
	// Counts holds each tokenizer's count, in the order of Tree.Units.
	Counts []int64 `json:"counts,omitempty"`
	// Components split Bytes: they add up to it.
	Components []Component `json:"components,omitempty"`
	// Old is, on a diff page, the tool's bytes in the old capture; nil
	// when the tool is new.
	Old *int64 `json:"old,omitempty"`
}

// Component is one part of a tool's bytes (its description, its field
// descriptions, the rest of its schema...).
type Component struct {
	// Name says what the bytes are.
	Name string `json:"name"`
	// Bytes is how many model-read bytes it holds.
	Bytes int64 `json:"bytes"`
}

// Finding is one thing to act on: a lint, a ceiling, a budget.
type Finding struct {
	// Text says what is wrong.
	Text string `json:"text"`
	// Tool names the tool it is about, "" for the whole list.
	Tool string `json:"tool,omitempty"`
	// SavingBytes is what acting on it would save, 0 when unknown.
	SavingBytes int64 `json:"saving_bytes,omitempty"`
	// Estimate is true when SavingBytes is an estimate, not exact.
	Estimate bool `json:"estimate,omitempty"`
}

// Saving is one what-if applied, with what it saves.
type Saving struct {
	// Name is the what-if.
	Name string `json:"name"`
	// ModelReadBytes is the model-read bytes it saves.
	ModelReadBytes int64 `json:"model_read_bytes"`
	// WireBytes is the wire bytes it saves.
	WireBytes int64 `json:"wire_bytes"`
	// Tools is how many tools it changed.
	Tools int `json:"tools"`
}

//go:embed page.js
var script string

//go:embed page.css
var style string

// The page around the report. It is written from these pieces, not by
// html/template: measure's start-up leaves html/template and
// text/template out of its import graph (their initialisation and the
// parse of a template cost every run). What is not fixed text is
// escaped by where it goes: the title by html.EscapeString, the data by
// encoding/json, which writes <, >, &, U+2028 and U+2029 as \u escapes,
// so that nothing in it can end the script element or start a comment.
const (
	head1 = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src '"
	head2 = "'; style-src '"
	head3 = "'; base-uri 'none'; form-action 'none'\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
		"<meta name=\"generator\" content=\"readmeter\">\n<title>"
	head4 = "</title>\n<style>"
	body1 = "</style>\n</head>\n<body data-kind=\""
	body2 = "\">\n<header><h1>"
	body3 = "</h1></header>\n<main id=\"main\"><noscript>This report draws itself with a script; allow scripts for this file.</noscript></main>\n" +
		"<script type=\"application/json\" id=\"report-data\">"
	body4 = "</script>\n<script>"
	tail  = "</script>\n</body>\n</html>\n"
)

// hash is the CSP source of a text: 'sha256-BASE64' without the quotes.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Write writes p as one HTML page to w.
func Write(w io.Writer, p Page) error {
	switch p.Kind {
	case KindMeasure, KindDiff, KindWalks:
	default:
		return fmt.Errorf("htmlreport: no kind of page %q", p.Kind)
	}
	data, err := json.Marshal(p.Data)
	if err != nil {
		return fmt.Errorf("htmlreport: %v", err)
	}
	title := html.EscapeString(p.Title)
	var b strings.Builder
	b.Grow(len(script) + len(style) + len(data) + 2*len(title) + 1024)
	for _, s := range []string{head1, hash(script), head2, hash(style), head3, title, head4, style,
		body1, p.Kind, body2, title, body3, string(data), body4, script, tail} {
		b.WriteString(s)
	}
	_, err = io.WriteString(w, b.String())
	return err
}
