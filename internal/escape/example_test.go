package escape_test

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/escape"
)

func Example() {
	name := "refund\x1b[2J\u202eexe.txt\n::error::forged"
	fmt.Println(escape.Term(name))
	fmt.Println(escape.MarkdownCell("| <b>a</b> |"))
	fmt.Println(escape.Markdown("# not a heading"))
	fmt.Println(escape.Code("a`b"))
	fmt.Println(escape.XML("</testcase>\x00"))
	// Output:
	// refund\x1b[2J\u202eexe.txt\n::error::forged
	// \| &lt;b>a&lt;/b> \|
	// \# not a heading
	// ``a`b``
	// &lt;/testcase&gt;\x00
}
