package toollist

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/readmeter/readmeter/jsonjs"
)

// Counts is a counts file: token counts a provider answered for requests
// that carried captured tool lists, saved by the user, for measure
// calibrate. The file is JSON:
//
//	{
//	  "source": "how the counts were taken: endpoint, model, date",
//	  "synthetic": false,
//	  "counts": [
//	    {"capture": "tools-memory.json", "client": "claude-api", "model": "claude-sonnet-4-5",
//	     "with_tools": {"input_tokens": 1870}, "without_tools": {"input_tokens": 8}}
//	  ]
//	}
//
// with_tools and without_tools are the provider's answers as they came:
// Anthropic's POST /v1/messages/count_tokens answers {"input_tokens": N},
// OpenAI's POST /v1/responses/input_tokens {"object":
// "response.input_tokens", "input_tokens": N}; only input_tokens is read.
// The two requests are the same but for the tools, so their difference is
// what the tool list costs. A capture's path is taken from the counts
// file's directory.
type Counts struct {
	// Path is the file read.
	Path string
	// Source says how the counts were taken.
	Source string
	// Synthetic marks counts made up for a test, not a provider's.
	Synthetic bool
	// Counts are the entries, in the file's order.
	Counts []Count
}

// Count is one capture's count by one provider, for one client's request.
type Count struct {
	// Capture is the capture's path, resolved from the counts file's
	// directory.
	Capture string
	// Client names the client profile whose request was counted.
	Client string
	// Model is the model the count was asked for.
	Model string
	// WithTools and WithoutTools are the provider's input_tokens for the
	// request with the tool list and without it.
	WithTools, WithoutTools int64
}

// Tokens is what the tool list cost the provider: WithTools less
// WithoutTools.
func (c Count) Tokens() int64 { return c.WithTools - c.WithoutTools }

// ReadCounts reads a counts file. Its errors name the file and the entry.
func ReadCounts(path string) (*Counts, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	v, err := parseFile(path, data, "a counts file")
	if err != nil {
		return nil, err
	}
	out := &Counts{Path: path}
	if s, ok := v.Get("source"); ok && s.Kind() == jsonjs.String {
		out.Source = s.Str()
	}
	if s, ok := v.Get("synthetic"); ok && s.Kind() == jsonjs.Bool {
		out.Synthetic = s.Bool()
	}
	counts, ok := v.Get("counts")
	if !ok || counts.Kind() != jsonjs.Array {
		return nil, inputErr(path, `counts: want an array of {"capture", "client", "with_tools", "without_tools"}`)
	}
	for i, e := range counts.Elems() {
		at := func(format string, args ...any) error {
			return inputErr(path, "counts[%d]: %s", i, fmt.Sprintf(format, args...))
		}
		str := func(key string) (string, error) {
			s, ok := e.Get(key)
			if !ok || s.Kind() != jsonjs.String || s.Str() == "" {
				return "", at("%s: want a string", key)
			}
			return s.Str(), nil
		}
		tokens := func(key string) (int64, error) {
			a, ok := e.Get(key)
			n, ok2 := a.Get("input_tokens")
			f := n.Num()
			if !ok || !ok2 || n.Kind() != jsonjs.Number || f < 0 || f != math.Trunc(f) || f > 1<<53 {
				return 0, at(`%s: want the provider's answer, {"input_tokens": N} with N a whole number`, key)
			}
			return int64(f), nil
		}
		var c Count
		var err error
		if c.Capture, err = str("capture"); err != nil {
			return nil, err
		}
		if !filepath.IsAbs(c.Capture) {
			c.Capture = filepath.Join(filepath.Dir(path), c.Capture)
		}
		if c.Client, err = str("client"); err != nil {
			return nil, err
		}
		if _, ok := ClientProfile(c.Client); !ok {
			return nil, at("client %q: no such client (%v)", c.Client, ProfileNames())
		}
		if m, ok := e.Get("model"); ok && m.Kind() == jsonjs.String {
			c.Model = m.Str()
		}
		if c.WithTools, err = tokens("with_tools"); err != nil {
			return nil, err
		}
		if c.WithoutTools, err = tokens("without_tools"); err != nil {
			return nil, err
		}
		if c.Tokens() <= 0 {
			return nil, at("with_tools (%d) is not more than without_tools (%d): the tool list must cost something", c.WithTools, c.WithoutTools)
		}
		out.Counts = append(out.Counts, c)
	}
	return out, nil
}

// Point is one capture's offline figure (X: bytes, or a tokenizer's
// tokens) and the provider's count of the same tool list (Y).
type Point struct {
	Capture string
	X, Y    float64
}

// Fit is a line from an offline figure to a provider's tokens, with its
// error on captures held out of it.
type Fit struct {
	// Client and Predictor name what is estimated and from what: "bytes"
	// (the client's bytes) or a tokenizer's name (its tokens).
	Client    string `json:"client"`
	Predictor string `json:"predictor"`
	// Slope and Intercept: provider tokens = Slope*X + Intercept.
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
	// Captures is how many captures it was fitted on.
	Captures int `json:"captures"`
	// HeldOutErrorPct is the mean absolute error, in percent of the
	// provider's count, of each capture predicted by the line fitted on the
	// others (leave one out); MaxErrorPct the largest.
	HeldOutErrorPct float64 `json:"held_out_error_pct"`
	MaxErrorPct     float64 `json:"max_error_pct"`
	// HeldOut holds, for each capture fitted on (in order), what the line
	// fitted on the others predicts for it; FitLine sets it, a calibration
	// file does not hold it.
	HeldOut []float64 `json:"-"`
}

// Estimate returns the provider tokens the fit predicts for x, rounded.
func (f Fit) Estimate(x float64) int64 { return int64(math.Round(f.Slope*x + f.Intercept)) }

// FitLine fits provider tokens on an offline figure by least squares and
// measures the error on held-out captures: each capture is predicted by
// the line fitted on all the others. It needs three captures at least,
// with two figures apart among any two left.
func FitLine(client, predictor string, ps []Point) (Fit, error) {
	f := Fit{Client: client, Predictor: predictor, Captures: len(ps)}
	if len(ps) < 3 {
		return f, fmt.Errorf("%s: %d %s counted: a fit that holds one out needs 3 at least", client, len(ps), plural(len(ps), "capture", "captures"))
	}
	var ok bool
	if f.Slope, f.Intercept, ok = leastSquares(ps); !ok {
		return f, fmt.Errorf("%s: every capture has the same %s: nothing to fit a line on", client, predictor)
	}
	var sum float64
	for i := range ps {
		rest := slices.Delete(slices.Clone(ps), i, i+1)
		a, b, ok := leastSquares(rest)
		if !ok {
			return f, fmt.Errorf("%s: without %s, the other captures have the same %s: count a capture of another size", client, ps[i].Capture, predictor)
		}
		f.HeldOut = append(f.HeldOut, a*ps[i].X+b)
		e := math.Abs(a*ps[i].X+b-ps[i].Y) / ps[i].Y * 100
		sum += e
		f.MaxErrorPct = max(f.MaxErrorPct, e)
	}
	f.HeldOutErrorPct = sum / float64(len(ps))
	return f, nil
}

func leastSquares(ps []Point) (slope, intercept float64, ok bool) {
	var mx, my float64
	for _, p := range ps {
		mx += p.X
		my += p.Y
	}
	n := float64(len(ps))
	mx, my = mx/n, my/n
	var sxx, sxy float64
	for _, p := range ps {
		sxx += (p.X - mx) * (p.X - mx)
		sxy += (p.X - mx) * (p.Y - my)
	}
	if sxx == 0 {
		return 0, 0, false
	}
	slope = sxy / sxx
	return slope, my - slope*mx, true
}

// Calibration is what measure calibrate wrote: a fit per client. Its
// json tags give the file's fields.
type Calibration struct {
	// Path is the file read.
	Path string `json:"-"`
	// Source and Synthetic are the counts file's.
	Source    string `json:"source"`
	Synthetic bool   `json:"synthetic"`
	// Clients holds each client's fit.
	Clients []Fit `json:"clients"`
}

// ReadCalibration reads a calibration file that measure calibrate wrote.
func ReadCalibration(path string) (*Calibration, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	v, err := parseFile(path, data, "a calibration file")
	if err != nil {
		return nil, err
	}
	c := &Calibration{Path: path}
	if s, ok := v.Get("source"); ok && s.Kind() == jsonjs.String {
		c.Source = s.Str()
	}
	if s, ok := v.Get("synthetic"); ok && s.Kind() == jsonjs.Bool {
		c.Synthetic = s.Bool()
	}
	clients, ok := v.Get("clients")
	if !ok || clients.Kind() != jsonjs.Array {
		return nil, inputErr(path, "clients: want the array measure calibrate writes")
	}
	for i, e := range clients.Elems() {
		var f Fit
		get := func(key string, kind jsonjs.Kind) (jsonjs.Value, error) {
			x, ok := e.Get(key)
			if !ok || x.Kind() != kind {
				return x, inputErr(path, "clients[%d].%s: missing or of the wrong kind (write the file with measure calibrate)", i, key)
			}
			return x, nil
		}
		for _, s := range []struct {
			key string
			dst *string
		}{{"client", &f.Client}, {"predictor", &f.Predictor}} {
			x, err := get(s.key, jsonjs.String)
			if err != nil {
				return nil, err
			}
			*s.dst = x.Str()
		}
		if _, ok := ClientProfile(f.Client); !ok {
			return nil, inputErr(path, "clients[%d].client: no client %q", i, f.Client)
		}
		for _, n := range []struct {
			key string
			dst *float64
		}{{"slope", &f.Slope}, {"intercept", &f.Intercept}, {"held_out_error_pct", &f.HeldOutErrorPct}, {"max_error_pct", &f.MaxErrorPct}} {
			x, err := get(n.key, jsonjs.Number)
			if err != nil {
				return nil, err
			}
			*n.dst = x.Num()
		}
		x, err := get("captures", jsonjs.Number)
		if err != nil {
			return nil, err
		}
		f.Captures = int(x.Num())
		c.Clients = append(c.Clients, f)
	}
	return c, nil
}

// ClientFit returns the fit for the client, and whether there is one.
func (c *Calibration) ClientFit(client string) (Fit, bool) {
	for _, f := range c.Clients {
		if f.Client == client {
			return f, true
		}
	}
	return Fit{}, false
}
