// The oracle's Node side: one process answers many requests, each a frame
// on stdin, each answer a frame on stdout, in order.
//
// Request:  op (1 byte, "E") + length (uint32, big-endian) + the input bytes.
// Answer:   status (1 byte: 0 parsed, 1 JSON.parse threw, 2 JSON.stringify threw)
//           + length + Buffer.from(input.toString("utf8"))    (the decoded text)
//           + length + JSON.stringify(JSON.parse(text)) as UTF-8, or the error message
//           + count (uint32) + count pairs (uint32 s.length, uint32 Buffer.byteLength(s))
//             for every key and string value of the parsed value, depth first,
//             in property order (a key, then its value).
'use strict';

// Well-formed JSON.stringify (lone surrogates escaped) came with Node 12.
if (Number(process.versions.node.split('.')[0]) < 12) {
  process.stderr.write('nodeoracle: Node ' + process.versions.node + ' is too old: Node 20 is the reference\n');
  process.exit(3);
}

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function strings(root) {
  const out = [];
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      out.push(v.length, Buffer.byteLength(v, 'utf8'));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(v[keys[i]]);
        stack.push(keys[i]);
      }
    }
  }
  return out;
}

function answer(input) {
  const text = input.toString('utf8');
  const decoded = Buffer.from(text, 'utf8');
  let status = 0;
  let body;
  let lens = [];
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    status = 1;
    body = Buffer.from(String(e.message), 'utf8');
  }
  if (status === 0) {
    try {
      body = Buffer.from(JSON.stringify(value), 'utf8');
      lens = strings(value);
    } catch (e) {
      status = 2;
      body = Buffer.from(String(e.message), 'utf8');
    }
  }
  const n = lens.length / 2;
  const tail = Buffer.alloc(4 + 4 * lens.length);
  tail.writeUInt32BE(n, 0);
  for (let i = 0; i < lens.length; i++) tail.writeUInt32BE(lens[i], 4 + 4 * i);
  return Buffer.concat([Buffer.from([status]), u32(decoded.length), decoded, u32(body.length), body, tail]);
}

let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  const outs = [];
  while (pending.length >= 5) {
    const op = pending[0];
    const len = pending.readUInt32BE(1);
    if (pending.length < 5 + len) break;
    const input = pending.subarray(5, 5 + len);
    pending = pending.subarray(5 + len);
    if (op !== 0x45) {
      process.stderr.write('nodeoracle: unknown op ' + op + '\n');
      process.exit(3);
    }
    outs.push(answer(input));
  }
  if (outs.length > 0) process.stdout.write(Buffer.concat(outs));
});
process.stdin.on('end', () => process.exit(0));
