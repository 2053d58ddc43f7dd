package mcpwire_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/mcpwire"
)

func Example() {
	// An MCP server built with the official Go SDK, over streamable HTTP.
	srv := httptest.NewServer(mcptest.Handler(mcptest.Options{}))
	defer srv.Close()

	ctx := context.Background()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{})
	defer c.Close()
	init, err := c.Initialize(ctx, mcpwire.InitOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("initialize:", init.Status, len(init.Raw) > 0)
	pages, err := c.ListTools(ctx)
	if err != nil {
		panic(err)
	}
	// Every answer keeps its bytes as received: Raw is the body on the
	// wire (an event stream here, framing and all), Message the JSON-RPC
	// message in it.
	for i, p := range pages {
		fmt.Printf("tools/list page %d: %d, raw longer than the message: %v\n", i+1, p.Status, len(p.Raw) > len(p.Message))
	}
	// Output:
	// initialize: 200 true
	// tools/list page 1: 200, raw longer than the message: true
}
