// Package mcpwire is a raw MCP client: it sends JSON-RPC requests and
// notifications to an MCP server and hands back every answer twice, as the
// parsed JSON-RPC message and as the body bytes exactly as received.
//
//	c := mcpwire.NewHTTP("https://api.example.org/mcp", mcpwire.HTTPOptions{Token: token})
//	defer c.Close()
//	if _, err := c.Initialize(ctx, mcpwire.InitOptions{}); err != nil { ... }
//	pages, err := c.ListTools(ctx) // each page: Raw, the body as received; Message, the JSON-RPC message
//
// The stance: budgets are only as good as the bytes they count, so nothing
// here re-encodes an answer. A Response's Raw is what the server sent after
// the transport's own layers are undone (gzip and chunking, headers left
// out), the event-stream framing included; its Message is the JSON-RPC
// message itself (the body, or the data of the event that carries the
// answer). A ledger counts Raw; a walk reads Message.
//
// Three transports:
//
//   - Streamable HTTP ([NewHTTP]): each message is a POST with
//     `Accept: application/json, text/event-stream`. A JSON answer is read
//     whole. An event-stream answer is read event by event to the one that
//     carries the response; server requests and notifications before it are
//     kept in Response.Events. Per the transport the server then ends the
//     stream; the client reads on to the end (at most HTTPOptions.StreamGrace
//     after the answer), so Raw is the whole body, as a fetch's text() sees
//     it. The session id from initialize is sent back, and
//     MCP-Protocol-Version once a version is negotiated.
//   - HTTP+SSE, the older transport ([NewSSE]): a GET opens the event
//     stream, its `endpoint` event names where to POST, and answers arrive
//     as `message` events on the stream; Raw is the answering event's bytes.
//   - stdio ([NewStdio]): a child process speaking newline-delimited JSON;
//     Raw is the answer's line without its newline. Lines before the answer
//     (notifications, server requests) are kept in Response.Events; a server
//     request is answered (ping with an empty result, anything else with
//     "method not found") so the server does not wait. Stderr is kept for
//     error messages. Close always reaps the process and its group.
//
// Two protocol shapes: [Client.Initialize] (initialize, then
// notifications/initialized; 2025-06-18 or 2025-11-25) and
// [Client.Discover] (server/discover, 2026-07-28: every request then carries
// the `_meta` triple and the MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers).
//
// One home for what every caller of a server needs: [Dial] picks the
// transport for a [Server] (a command, or a URL over HTTP or HTTP+SSE);
// [InitializeParams] is the initialize request's params; [Client.ListTools]
// and [Client.ListToolsWith] follow nextCursor, and [MergeToolPages] makes
// the pages one answer.
//
// Errors are *Error values that name the address or command and the
// method; a JSON-RPC error answer wraps an *RPCError, an HTTP status of 400
// or more an *HTTPError, both holding the Response. A token given in
// HTTPOptions never appears in an error's text. Redirects are held to the
// one rule of package internal/redirect (HTTPOptions.Follow): followed
// within the URL's origin (scheme, host and port); one to another origin,
// or an SSE endpoint there, fails the request, and is followed only with
// redirect.CrossOrigin, carrying neither the token nor any header of
// HTTPOptions.Header.
//
// The package never prints, logs or exits.
package mcpwire
