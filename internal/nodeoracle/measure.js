#!/usr/bin/env node
// measure.js [--json] [--lean] [--drop-empty-output-schemas] CAPTURE...: what a
// model reads of a saved tools/list answer,
// computed in Node the way the service's builders compute it. It is the
// reference the Go `measure --json` is checked against, and the Node side
// of the whole-process benchmark.
//
// It prints, for one capture, one JSON object with the top-level figures of
// `measure --json` (for several, an array in the order given):
//   wire_bytes, tools, model_read_bytes, model_read_tokens,
//   description_bytes, field_description_bytes,
//   longest_description {tool, chars},
//   per_tool [{name, model_read_bytes, model_read_tokens, description_chars}]
// and, for each what-if asked (lean first, as measure applies them), its
// saving: lean / drop_empty_output_schemas {wire_saving_bytes,
// model_read_saving_bytes, changes, tools_changed}.
// With --tokenizers=o200k,cl100k, "tokenizers": {"o200k": N, ...} follows
// model_read_tokens, at the top and in each tool: js-tiktoken's count of
// each tool's model-read text, summed over the tools at the top.
//
// A capture is a JSON-RPC response, a bare result ({"tools": [...]}), or an
// event-stream body. Wire bytes are the bytes of the file, less one final
// newline for a JSON capture; an event stream counts every byte.
// Bad input: one line on stderr naming the file, exit 2.
'use strict';

const fs = require('fs');

class InputError extends Error {}

function fail(msg) {
  throw new InputError(msg);
}

// isEventStream: an event-stream body starts with a field name and a colon
// (or a comment, a bare colon); JSON starts with whitespace or a bracket.
function isEventStream(text) {
  return /^(event|data|id|retry)?:/.test(text);
}

// events returns the data of every event in an event-stream body, as the
// EventSource rules read it: lines end at \r\n, \r or \n; a blank line ends
// an event; data lines join with \n. Events with empty data (priming
// events) are skipped. An event the body ends without a blank line is kept.
function events(text) {
  const out = [];
  let data = null;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data !== null && data.length > 0) out.push(data.join('\n'));
      data = null;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      if (data === null) data = [];
      data.push(value);
    }
  }
  if (data !== null && data.length > 0) out.push(data.join('\n'));
  return out.filter((d) => d !== '');
}

function parseJSON(text, where) {
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(where + ': not JSON: ' + e.message);
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// toolsOf returns the tools array of a JSON-RPC response or a bare result.
function toolsOf(msg) {
  if (!isObject(msg)) fail('not a JSON object');
  let result = msg;
  if ('jsonrpc' in msg || 'result' in msg || 'error' in msg) {
    if ('error' in msg && !('result' in msg)) fail('a JSON-RPC error, not a tools/list result: ' + JSON.stringify(msg.error));
    result = msg.result;
  }
  if (!isObject(result) || !Array.isArray(result.tools)) fail('no tools array');
  result.tools.forEach((t, i) => {
    if (!isObject(t)) fail('tools[' + i + '] is not an object');
  });
  return result.tools;
}

function load(path) {
  let buf;
  try {
    buf = fs.readFileSync(path);
  } catch (e) {
    fail(e.code === 'EISDIR' ? 'is a directory' : e.message);
  }
  if (buf.length === 0) fail('empty file');
  const text = buf.toString('utf8');
  if (isEventStream(text)) {
    const datas = events(text);
    if (datas.length === 0) fail('event stream with no data');
    // The answer is the first message that is a response (result or error);
    // notifications before it are skipped.
    const msgs = datas.map((d, i) => parseJSON(d, 'event ' + (i + 1)));
    const answer = msgs.find((m) => isObject(m) && ('result' in m || 'error' in m));
    if (answer === undefined) fail('event stream with no response');
    return { wireBytes: buf.length, tools: toolsOf(answer) };
  }
  let wireBytes = buf.length;
  if (buf[buf.length - 1] === 0x0a) wireBytes--;
  return { wireBytes, tools: toolsOf(parseJSON(text, 'capture')) };
}

// fieldDescriptionBytes sums the bytes of every string that is the value of
// a key named "description" anywhere inside v.
function fieldDescriptionBytes(v) {
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += fieldDescriptionBytes(x);
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      if (k === 'description' && typeof v[k] === 'string') n += Buffer.byteLength(v[k], 'utf8');
      else n += fieldDescriptionBytes(v[k]);
    }
  }
  return n;
}

// encoders returns a js-tiktoken encoder for each name of --tokenizers
// (o200k, cl100k), looked up in $READMETER_NPM_MODULES (where `make
// npm-deps` installs it) or beside the script.
function encoders(names) {
  const paths = [process.env.READMETER_NPM_MODULES || '', process.cwd()].filter((p) => p !== '');
  const lite = require(require.resolve('js-tiktoken/lite', { paths }));
  return names.map((name) => {
    const ranks = require(require.resolve('js-tiktoken/ranks/' + name + '_base', { paths }));
    const enc = new lite.Tiktoken(ranks);
    // Special tokens' spellings are ordinary text: none allowed, none refused.
    return { name, count: (text) => enc.encode(text, [], []).length };
  });
}

// The what-ifs, as the service's own code would apply them: lean removes
// every "$schema" member and every "maximum" of Number.MAX_SAFE_INTEGER
// from inputSchema and outputSchema at any depth; dropping empty output
// schemas removes an outputSchema that declares no property.
const MAX_SAFE = 9007199254740991;
function leanValue(v, count) {
  if (Array.isArray(v)) return v.map((x) => leanValue(x, count));
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => {
    if (k === '$schema' || (k === 'maximum' && x === MAX_SAFE)) { count.n++; return []; }
    return [[k, leanValue(x, count)]];
  }));
}
function lean(t) {
  const count = { n: 0 };
  const out = Object.fromEntries(Object.entries(t).map(([k, x]) =>
    [k, k === 'inputSchema' || k === 'outputSchema' ? leanValue(x, count) : x]));
  return [out, count.n];
}
function dropEmptyOutputSchema(t) {
  const s = t.outputSchema;
  if (!isObject(s) || (isObject(s.properties) && Object.keys(s.properties).length > 0)) return [t, 0];
  return [Object.fromEntries(Object.entries(t).filter(([k]) => k !== 'outputSchema')), 1];
}

function measure(path, tokenizers, whatIfs) {
  const { wireBytes, tools } = load(path);
  const report = {
    wire_bytes: wireBytes,
    tools: tools.length,
    model_read_bytes: 0,
    model_read_tokens: 0,
    ...(tokenizers.length > 0 ? { tokenizers: Object.fromEntries(tokenizers.map((e) => [e.name, 0])) } : {}),
    description_bytes: 0,
    field_description_bytes: 0,
    longest_description: { tool: '', chars: 0 },
    per_tool: [],
  };
  let longest = null;
  for (const t of tools) {
    const text = JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema });
    const bytes = Buffer.byteLength(text, 'utf8');
    const counts = {};
    for (const e of tokenizers) {
      counts[e.name] = e.count(text);
      report.tokenizers[e.name] += counts[e.name];
    }
    const chars = typeof t.description === 'string' ? t.description.length : 0;
    report.model_read_bytes += bytes;
    if (typeof t.description === 'string') {
      report.description_bytes += Buffer.byteLength(t.description, 'utf8');
      if (longest === null || chars > longest.chars) longest = { tool: t.name, chars };
    }
    report.field_description_bytes += fieldDescriptionBytes(t.inputSchema);
    report.per_tool.push({
      name: t.name,
      model_read_bytes: bytes,
      model_read_tokens: Math.floor(bytes / 3),
      ...(tokenizers.length > 0 ? { tokenizers: counts } : {}),
      description_chars: chars,
    });
  }
  report.model_read_tokens = Math.floor(report.model_read_bytes / 3);
  if (longest !== null) report.longest_description = longest;
  const bytes = (t) => Buffer.byteLength(JSON.stringify(t), 'utf8');
  const read = (t) => bytes({ name: t.name, description: t.description, input_schema: t.inputSchema });
  const savings = whatIfs.map(() => ({ wire_saving_bytes: 0, model_read_saving_bytes: 0, changes: 0, tools_changed: [] }));
  tools.forEach((t, i) => {
    const label = typeof t.name === 'string' ? t.name : 'tools[' + i + ']';
    whatIfs.forEach(([, f], k) => {
      const [nt, n] = f(t);
      if (n === 0) return;
      const s = savings[k];
      s.wire_saving_bytes += bytes(t) - bytes(nt);
      s.model_read_saving_bytes += read(t) - read(nt);
      s.changes += n;
      s.tools_changed.push(label);
      t = nt;
    });
  });
  whatIfs.forEach(([name], k) => { report[name] = savings[k]; });
  return report;
}

function main(args) {
  const whatIfs = [];
  if (args.includes('--lean')) whatIfs.push(['lean', lean]);
  if (args.includes('--drop-empty-output-schemas')) whatIfs.push(['drop_empty_output_schemas', dropEmptyOutputSchema]);
  // the output is always JSON
  args = args.filter((a) => !['--json', '--lean', '--drop-empty-output-schemas'].includes(a));
  let tokenizers = [];
  const flag = args.findIndex((a) => a.startsWith('--tokenizers='));
  if (flag >= 0) {
    tokenizers = encoders(args[flag].slice('--tokenizers='.length).split(','));
    args.splice(flag, 1);
  }
  if (args.length === 0) {
    process.stderr.write('usage: node measure.js CAPTURE...\n');
    return 2;
  }
  const reports = [];
  for (const path of args) {
    try {
      reports.push(measure(path, tokenizers, whatIfs));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      process.stderr.write('measure.js: ' + path + ': ' + e.message.replace(/\r?\n/g, '\\n') + '\n');
      return 2;
    }
  }
  process.stdout.write(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2) + '\n');
  return 0;
}

process.exitCode = main(process.argv.slice(2));
