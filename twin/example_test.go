package twin_test

import (
	"bufio"
	"fmt"
	"net/http"

	"github.com/readmeter/readmeter/twin"
)

func Example() {
	base, stop, err := twin.Start(twin.Options{})
	if err != nil {
		panic(err)
	}
	defer stop()
	// One section of the reference, as a walk reads it, and a section
	// the reference does not have.
	for _, section := range []string{"start-tasks", "nope"} {
		resp, err := http.Get(base + "/reference?section=" + section)
		if err != nil {
			panic(err)
		}
		first, _ := bufio.NewReader(resp.Body).ReadString('\n')
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
		if resp.StatusCode == http.StatusOK {
			fmt.Print(first)
		}
	}
	// Output:
	// 200 text/markdown; charset=utf-8
	// ## Start: tasks
	// 400 application/json; charset=utf-8
}
