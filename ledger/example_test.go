package ledger_test

import (
	"fmt"

	"github.com/readmeter/readmeter/ledger"
)

func Example() {
	l := ledger.New("start_tasks", ledger.FullWidthTimes())
	l.Add("the start", []byte("## Start: tasks\n"))
	// The time is counted padded to six fraction digits, as the database
	// writes it on another run.
	l.Add("who you are", []byte(`{"peer_id":"k_1","since":"2026-10-02T07:57:40.1+00:00"}`))
	for _, p := range l.Parts() {
		fmt.Printf("%s: %d bytes, %d tokens\n", p.Name, p.Bytes, p.Tokens)
	}
	fmt.Println(l.Bytes(), l.Tokens())
	// Output:
	// the start: 16 bytes, 5 tokens
	// who you are: 60 bytes, 20 tokens
	// 76 25
}
