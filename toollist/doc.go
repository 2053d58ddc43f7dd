// Package toollist measures what a language model reads of an MCP tool list,
// byte-exact with Node, and answers what-if questions about it.
//
//	c, err := toollist.Open("captures/twin/tools-mcp.json", toollist.Options{
//		Transforms: []toollist.Transform{toollist.Lean()},
//	})
//	defer c.Close()
//	c.Figures // ModelReadBytes, ModelReadTokens, PerTool ...
//	c.Savings // what Lean saves
//
// Open reads a capture and computes, in one pass, every figure its
// Options ask for: the figures always, the what-ifs' savings
// (Transforms), the tokenizers' counts (Counters), the capture
// transformed (Write) and the byte profile (Profile). OpenReader does the same for a capture that is not
// a file (standard input).
//
// The stance: a tools/list answer is measured as the client that hands it to
// a model sees it. For each tool, the model reads
//
//	JSON.stringify({name: t.name, description: t.description, input_schema: t.inputSchema})
//
// as Node writes it (members that are absent are dropped, null is kept);
// the UTF-8 bytes are summed over the tools, and tokens are floor(bytes/3).
// Package jsonjs does the JavaScript parts; this package never uses
// encoding/json for a counted byte.
//
// The steps:
//
//  1. Open takes a capture as it was stored, in any of three forms detected
//     by content: a JSON-RPC response ({"jsonrpc", "id", "result":
//     {"tools": [...]}}), a bare result ({"tools": [...]}), or an
//     event-stream body whose answer event carries the JSON-RPC response.
//     Event-stream parsing follows the SSE specification: lines end with
//     CRLF, LF or CR; one space after "data:" is dropped; several data lines
//     are joined with "\n"; a blank line ends an event (so does the end of
//     the file); events with empty data (priming events) are skipped, and
//     so are messages that are not responses (notifications, requests). The
//     first response is the answer.
//  2. Wire bytes are the answer as received: the file's bytes, except that
//     a JSON capture's one final "\n" (added when it was saved) is left
//     out. An event-stream capture counts every byte, framing included.
//     Invalid UTF-8 is decoded as Node decodes it (each maximal invalid
//     subpart becomes U+FFFD) and reported as a warning; wire bytes still
//     count the bytes received.
//  3. One validating pass (jsonjs.ValidateFindEach; errors carry line and
//     column) finds result.tools (duplicate keys: the last wins, as
//     JSON.parse) and hands each validated tool, in batches, to goroutines
//     that measure it in one pass over its text (jsonjs.MeasureValid):
//     model-read bytes and field-description bytes together, building
//     nothing. Only the figures are kept, so a capture of hundreds of
//     megabytes is measured in far less memory than the file, which Read
//     maps rather than reads from 1 MiB on: each pass over a mapped
//     capture gives back the pages it has read, so only a window of it is
//     resident at a time. From 1 MiB on, the text is taken to be UTF-8 and
//     checked in the same pass (text that is not is decoded and read
//     again), so that a syntax error is reported as soon as the pass meets
//     it, nothing after it read (with the line and column the decoded text
//     has). An event stream's events are read the same way, each event's
//     data checked (jsonjs.Checker) as the scan reaches it, a long line a
//     window at a time. A mapped file that another writer cuts or rewrites while it is
//     read gives an *Error saying so, never a crash: every pass over the
//     mapping turns a fault there into that error
//     (debug.SetPanicOnFault), and checks the file's size and modification
//     time when it ends.
//  4. The figures: model-read bytes and tokens per tool and in total;
//     description bytes (the UTF-8 bytes of every tool description that is
//     a string; a description that is not a string counts nothing here and
//     gives a warning, though the model still reads it); field description
//     bytes (every string value of a member named "description" at any
//     depth of a tool's inputSchema: a property that is itself named
//     "description" inside "properties" is a field whose value is a schema
//     object, so it counts only through the descriptions inside it); the
//     longest description in UTF-16 code units (JavaScript's length), the
//     first tool on ties.
//     Options.Counters add real tokenizers' counts (Counter) of each
//     tool's model-read text, written from the tool's text as Node's
//     JSON.stringify writes it, counted in the pass of step 3 while each
//     tool's text is at hand.
//  5. Toolsets, ceilings and comparisons are computed from those figures.
//  6. What-if transforms (Lean, DropEmptyOutputSchemas, Words) rewrite each
//     tool. A transform's wire saving is what the server's answer would
//     shrink by: the answer re-serialized as the server sends it
//     (JSON.stringify, compact) before the transform, minus the same after
//     it. Only tools change, so that is the sum over tools of the
//     JSON.stringify length before minus after; re-serializing both sides
//     keeps a pretty-printed or differently escaped capture from counting
//     its layout as a saving. The model-read saving is the model-read bytes
//     before minus after. Transforms apply in the order given, each
//     measured against the result of the one before. Each transform has
//     one implementation: Lean, DropEmptyOutputSchemas and Words are a
//     walk over the tool's text that writes the transformed tool and
//     measures every stage of it at once, building nothing (a tool whose
//     objects JavaScript would reorder or merge is first written as
//     JSON.stringify would); the finders (DropUnusedDefs, HoistRepeated,
//     SDKKeyOrder) rewrite the parsed tool. A list mixing them is taken
//     in stages, each handing the next its text. Unless the capture is
//     written, that is done by the workers of step 3 as they measure each
//     tool.
//  7. With Options.Write, Open also writes the transformed answer back in
//     the capture's own form, tool by tool as they are done: JSON forms as
//     JSON.stringify of the whole message (with the final newline kept if
//     the capture had one); an event stream with its framing kept and the
//     answer's data lines replaced by one data line.
package toollist
