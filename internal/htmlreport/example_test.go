package htmlreport_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/readmeter/readmeter/internal/htmlreport"
)

// A page of one capture of two tools: the data goes into the page as
// JSON, escaped so that no name can end its script element.
func Example() {
	tree := htmlreport.Tree{Servers: []htmlreport.Server{{Name: "mcp", Path: "tools-mcp.json", Tools: []htmlreport.Tool{
		{Name: "search", Bytes: 900, Tokens: 300, Components: []htmlreport.Component{{Name: "description", Bytes: 600}, {Name: "structure", Bytes: 300}}},
		{Name: "</script><b>fetch</b>", Bytes: 300, Tokens: 100},
	}}}}
	var b strings.Builder
	if err := htmlreport.Write(&b, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: "tools-mcp.json", Data: tree}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	page := b.String()
	fmt.Println(strings.Count(page, "<script"), "scripts,", strings.Count(page, "</script>"), "ends")
	fmt.Println(strings.Contains(page, `"name":"\u003c/script\u003e\u003cb\u003efetch\u003c/b\u003e"`))
	// Output:
	// 2 scripts, 2 ends
	// true
}
