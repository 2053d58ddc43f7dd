package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// calibrateDoc is what measure calibrate's help says between the usage and the flags.
const calibrateDoc = `Fits measure's offline count of what each client reads to the token counts
a provider answered for the same tool lists, and reports the error of the
fit on captures held out of it. COUNTS.json holds the provider's answers,
saved by you (measure never calls a provider):

  {
    "source": "Anthropic POST /v1/messages/count_tokens, claude-sonnet-4-5, 2026-12-03",
    "synthetic": false,
    "counts": [
      {"capture": "tools-memory.json", "client": "claude-api", "model": "claude-sonnet-4-5",
       "with_tools": {"input_tokens": 1870}, "without_tools": {"input_tokens": 8}}
    ]
  }

with_tools and without_tools are the answers as they came (Anthropic's
count_tokens answers {"input_tokens": N}; OpenAI's input_tokens endpoint
{"object": "response.input_tokens", "input_tokens": N}) for the same
request with and without the tool list, as the client sends it; their
difference is what the list costs. Captures are found from the counts
file's directory, with their init answers beside them.

For each client, provider tokens are fitted by least squares on the
client's bytes and on its o200k tokens; the one whose held-out error is
smaller is kept. The held-out error is the mean absolute error, in percent,
of each capture predicted by the line fitted on the others: three captures
per client at least. With -o the fits are written to FILE, which
measure --calibration FILE reads to print estimates with that error.
`

// estimate is a client's calibrated estimate of the provider's tokens.
type estimate struct {
	fit    toollist.Fit
	tokens int64
}

// String formats the estimate with its held-out error: "1,870 ±2.14%".
func (e estimate) String() string {
	return fmt.Sprintf("%s ±%.2f%%", group(e.tokens), e.fit.HeldOutErrorPct)
}

// estimateJSON is a client's calibrated estimate, in its --json
// "calibrated" member.
type estimateJSON struct {
	Tokens          int64   `json:"tokens"`
	Predictor       string  `json:"predictor"`
	HeldOutErrorPct float64 `json:"held_out_error_pct"`
	MaxErrorPct     float64 `json:"max_error_pct"`
	Captures        int     `json:"captures"`
}

func (e estimate) json() *estimateJSON {
	return &estimateJSON{e.tokens, e.fit.Predictor, e.fit.HeldOutErrorPct, e.fit.MaxErrorPct, e.fit.Captures}
}

// estimates returns each client's calibrated estimate of the report's
// capture; nil without a calibration.
func estimates(r *report, c *toollist.Calibration) map[string]estimate {
	if c == nil {
		return nil
	}
	out := map[string]estimate{}
	for _, cf := range r.clients {
		fit, ok := c.ClientFit(cf.Profile.Name)
		if !ok {
			continue
		}
		if x, ok := predictor(cf, fit.Predictor); ok {
			out[cf.Profile.Name] = estimate{fit, fit.Estimate(x)}
		}
	}
	return out
}

// predictor returns the client figure a fit predicts from: its bytes, or
// a tokenizer's tokens.
func predictor(cf *toollist.ClientFigures, name string) (float64, bool) {
	if name == "bytes" {
		return float64(cf.Bytes), true
	}
	n, ok := toollist.TokenizerTokens(cf.Tokenizers, name)
	return float64(n), ok
}

func runCalibrate(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("measure calibrate", "measure calibrate [-o FILE] COUNTS.json")
	c.Exits = []int{cli.ExitOK, cli.ExitUsage, 130}
	c.Doc = calibrateDoc
	fs := c.Flags
	out := fs.StringP("output", "o", "", "write the fits to `FILE`, for measure --calibration")
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return c.Usagef("want one counts file; %d given", fs.NArg())
	}
	if *out != "" {
		if err := atomicfile.Writable(*out); err != nil {
			return cli.Usage("-o %s: %v", *out, unwrapPath(err))
		}
	}
	counts, err := toollist.ReadCounts(fs.Arg(0))
	if err != nil {
		return err
	}
	o200k, err := tokenize.Get("o200k")
	if err != nil {
		return cli.Usage("%v", err)
	}
	type row struct {
		count toollist.Count
		cf    *toollist.ClientFigures
	}
	var rows []row
	var clients []string
	byClient := map[string][]row{}
	for _, c := range counts.Counts {
		p, _ := toollist.ClientProfile(c.Client)
		cf, err := clientOf(c.Capture, p, o200k)
		if err != nil {
			return err
		}
		rw := row{c, cf}
		rows = append(rows, rw)
		if byClient[c.Client] == nil {
			clients = append(clients, c.Client)
		}
		byClient[c.Client] = append(byClient[c.Client], rw)
	}
	cal := &toollist.Calibration{Source: counts.Source, Synthetic: counts.Synthetic}
	for _, client := range clients {
		var best toollist.Fit
		for i, pred := range []string{"bytes", "o200k"} {
			var ps []toollist.Point
			for _, rw := range byClient[client] {
				x, _ := predictor(rw.cf, pred)
				ps = append(ps, toollist.Point{Capture: rw.count.Capture, X: x, Y: float64(rw.count.Tokens())})
			}
			f, err := toollist.FitLine(client, pred, ps)
			if err != nil {
				return cli.Usage("%s: %v", counts.Path, err)
			}
			if i == 0 || f.HeldOutErrorPct < best.HeldOutErrorPct {
				best = f
			}
		}
		cal.Clients = append(cal.Clients, best)
	}
	fmt.Fprintf(stdout, "calibration from %s, %d %s\n", counts.Path, len(counts.Counts), plural(len(counts.Counts), "count", "counts"))
	if counts.Synthetic {
		fmt.Fprintln(stdout, "synthetic: made-up test data, not a provider's counts")
	}
	if counts.Source != "" {
		fmt.Fprintf(stdout, "source: %s\n", counts.Source)
	}
	fmt.Fprintln(stdout)
	t := table.New("client", "captures", "predictor", "slope", "intercept", "held-out error", "max error").Right(1, 3, 4, 5, 6)
	for _, f := range cal.Clients {
		t.Add(f.Client, strconv.Itoa(f.Captures), f.Predictor, fmt.Sprintf("%.4f", f.Slope), fmt.Sprintf("%.1f", f.Intercept),
			fmt.Sprintf("%.2f%%", f.HeldOutErrorPct), fmt.Sprintf("%.2f%%", f.MaxErrorPct))
	}
	render(stdout, t)
	fmt.Fprintln(stdout)
	pt := table.New("client", "capture", "bytes", "o200k", "provider tokens", "held-out estimate", "error").Right(2, 3, 4, 5, 6)
	seen := map[string]int{}
	for _, rw := range rows {
		f, _ := cal.ClientFit(rw.count.Client)
		h := f.HeldOut[seen[rw.count.Client]]
		seen[rw.count.Client]++
		o, _ := toollist.TokenizerTokens(rw.cf.Tokenizers, "o200k")
		y := rw.count.Tokens()
		pt.Add(rw.count.Client, rw.count.Capture, group(rw.cf.Bytes), group(o), group(y), group(int64(math.Round(h))), fmt.Sprintf("%+.2f%%", (h-float64(y))/float64(y)*100))
	}
	render(stdout, pt)
	return writeCalibration(stdout, *out, cal)
}

// writeCalibration writes the fits to path, when -o gives one, for
// measure --calibration, and says so.
func writeCalibration(stdout io.Writer, path string, cal *toollist.Calibration) error {
	if path == "" {
		return nil
	}
	data, err := jsonout.Bytes(cal)
	if err == nil {
		err = atomicfile.Write(path, data)
	}
	if err != nil {
		return cli.Usage("-o %s: %v", path, unwrapPath(err))
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", path)
	return nil
}

// clientOf measures what the client of p reads of the capture at path,
// with its init answer when one is beside it, counting o200k tokens too.
func clientOf(path string, p *toollist.Profile, o200k *tokenize.Tokenizer) (*toollist.ClientFigures, error) {
	c, err := toollist.Open(path, toollist.Options{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	f := c.Figures
	var in *toollist.Init
	if st, err := os.Stat(toollist.InitPath(path)); err == nil && st.Mode().IsRegular() {
		if in, err = toollist.ReadInit(toollist.InitPath(path)); err != nil {
			return nil, err
		}
	}
	server := budgetKey(path)
	if in != nil && in.ServerName != "" {
		server = in.ServerName
	}
	return toollist.MeasureClient(c, f, in, p, toollist.ClientOptions{Server: server, Counters: []toollist.Counter{o200k}})
}
