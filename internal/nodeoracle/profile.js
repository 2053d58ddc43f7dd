#!/usr/bin/env node
// profile.js: reads a JSON array of tools (tools/list's tools) on stdin and
// prints, for each tool, where the bytes a model reads of it go, and what
// dropping unused definitions and hoisting repeated subschemas save, as
// Node counts them. It is the reference for toollist's ProfileBytes,
// DropUnusedDefs and HoistRepeated.
//
// Output: a JSON array, one object a tool:
//   {name, model_read_bytes, wire_bytes, components: {component: bytes},
//    wire: {member: bytes}, refs_ok,
//    drop_unused_defs: {changes, model_read_bytes, wire_bytes, tool},
//    hoist_repeated:   {changes, model_read_bytes, wire_bytes, tool}}
// where the what-ifs give the tool after them, and its bytes.
'use strict';

const len = (v) => Buffer.byteLength(JSON.stringify(v), 'utf8');
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

const DATA = new Set(['enum', 'const', 'default', 'examples', 'example']);
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMAS = new Set(['items', 'additionalItems', 'prefixItems', 'contains', 'additionalProperties',
  'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else',
  'anyOf', 'allOf', 'oneOf']);
const CONTAINERS = ['$defs', 'definitions'];

function modelRead(tool) {
  return {name: tool.name, description: tool.description, input_schema: tool.inputSchema};
}

// pointer decodes a local JSON Pointer $ref, or returns null.
function pointer(ref) {
  if (!ref.startsWith('#')) return null;
  let frag;
  try { frag = decodeURIComponent(ref.slice(1)); } catch (e) { return null; }
  if (frag === '') return [];
  if (frag[0] !== '/') return null;
  const toks = frag.slice(1).split('/');
  for (const t of toks) if (/~(?![01])/.test(t)) return null;
  return toks.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolve(v, toks) {
  for (const t of toks) {
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= v.length) return undefined;
      v = v[Number(t)];
    } else if (isObj(v)) {
      if (!has(v, t)) return undefined;
      v = v[t];
    } else return undefined;
  }
  return v;
}

// refs: {ok, outside: [toks], inside: {container: {name: [toks]}}, used}
function analyze(schema) {
  for (const c of CONTAINERS) if (has(schema, c) && !isObj(schema[c])) return {ok: false};
  let ok = true;
  const outside = [];
  const inside = {};
  function walk(v, root, sink) {
    if (!ok) return;
    if (Array.isArray(v)) { for (const e of v) walk(e, false, sink); return; }
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$dynamicRef' || k === '$recursiveRef' || (k === '$id' && !root)) { ok = false; return; }
      if (k === '$ref') {
        if (typeof x !== 'string') { ok = false; return; }
        const toks = pointer(x);
        if (toks === null || resolve(schema, toks) === undefined) { ok = false; return; }
        sink.push(toks);
      } else if (DATA.has(k)) {
      } else if (root && CONTAINERS.includes(k)) {
        inside[k] = {};
        for (const [n, d] of Object.entries(x)) { inside[k][n] = []; walk(d, false, inside[k][n]); }
      } else if (MAPS.has(k) && isObj(x)) {
        for (const d of Object.values(x)) walk(d, false, sink);
      } else walk(x, false, sink);
    }
  }
  walk(schema, true, outside);
  if (!ok) return {ok: false};
  const used = {};
  for (const c of CONTAINERS) if (has(schema, c)) used[c] = new Set();
  const all = [...outside];
  const queue = [...outside];
  while (queue.length) {
    const toks = queue.shift();
    if (toks.length === 0 || !used[toks[0]]) continue;
    const c = toks[0];
    const names = toks.length === 1 ? Object.keys(schema[c]) : [toks[1]];
    for (const n of names) {
      if (used[c].has(n)) continue;
      used[c].add(n);
      all.push(...inside[c][n]);
      queue.push(...inside[c][n]);
    }
  }
  return {ok: true, used, all};
}

function profile(tool) {
  const a = {};
  const add = (c, n) => { a[c] = (a[c] || 0) + n; };
  const keyLen = (k) => len(k) + 1;
  const mr = modelRead(tool);
  add('framing', 2);
  const members = Object.entries(JSON.parse(JSON.stringify(mr)));
  let info = null;
  if (isObj(tool.inputSchema)) {
    info = analyze(tool.inputSchema);
    if (!info.ok) info = null;
  }
  function schema(v, root) {
    if (Array.isArray(v)) {
      add('structure', v.length === 0 ? 2 : v.length + 1);
      for (const e of v) schema(e, false);
      return;
    }
    if (!isObj(v)) { add('structure', len(v)); return; }
    add('structure', 2);
    Object.entries(v).forEach(([k, x], i) => {
      const whole = keyLen(k) + len(x) + (i > 0 ? 1 : 0);
      const frame = keyLen(k) + (i > 0 ? 1 : 0);
      if (k === 'description' && typeof x === 'string') add('field_descriptions', whole);
      else if (k === 'title' && typeof x === 'string') add('titles', whole);
      else if (k === 'enum' || k === 'const') add('enum_const', whole);
      else if (k === 'default' || k === 'examples' || k === 'example') add('defaults_examples', whole);
      else if (root && CONTAINERS.includes(k) && isObj(x)) {
        let any = false;
        Object.entries(x).forEach(([n, d], j) => {
          const u = info === null || info.used[k].has(n);
          if (u) any = true;
          add(u ? 'definitions_used' : 'definitions_unused', keyLen(n) + len(d) + (j > 0 ? 1 : 0));
        });
        add(any || info === null ? 'definitions_used' : 'definitions_unused', frame + 2);
      } else if (MAPS.has(k) && isObj(x)) {
        add('structure', frame + 2);
        Object.entries(x).forEach(([n, d], j) => {
          add('property_names', keyLen(n) + (j > 0 ? 1 : 0));
          schema(d, false);
        });
      } else {
        add('structure', frame);
        schema(x, false);
      }
    });
  }
  members.forEach(([k, v], i) => {
    add('framing', keyLen(k) + (i > 0 ? 1 : 0));
    if (k === 'name') add('name', len(v));
    else if (k === 'description') add('description', len(v));
    else schema(v, true);
  });
  const wire = {};
  Object.entries(tool).forEach(([k, v], i) => {
    if (k === 'name' || k === 'description' || k === 'inputSchema') return;
    wire[k] = (wire[k] || 0) + keyLen(k) + len(v) + (i > 0 ? 1 : 0);
  });
  return {components: a, wire, refs_ok: info !== null};
}

function dropUnused(tool) {
  const s = tool.inputSchema;
  if (!isObj(s) || !CONTAINERS.some((c) => has(s, c))) return {tool, changes: 0};
  const info = analyze(s);
  if (!info.ok) return {tool, changes: 0};
  // whole-container pointers keep every definition
  const ns = {...s};
  let changes = 0;
  for (const c of CONTAINERS) {
    if (!has(s, c)) continue;
    const kept = {};
    let n = 0;
    for (const [k, d] of Object.entries(s[c])) {
      if (info.used[c].has(k)) kept[k] = d; else n++;
    }
    if (n === 0) continue;
    changes += n;
    if (Object.keys(kept).length === 0) delete ns[c]; else ns[c] = kept;
  }
  if (changes === 0) return {tool, changes: 0};
  return {tool: {...tool, inputSchema: ns}, changes};
}

const PLAIN = /^[A-Za-z_-][A-Za-z0-9_-]{0,63}$/;

function hoistOnce(s) {
  let container = '$defs';
  if (!has(s, '$defs') && has(s, 'definitions')) container = 'definitions';
  const hasC = has(s, container);
  if (hasC && !isObj(s[container])) return null;
  const defs = hasC ? s[container] : {};
  const cands = new Map();
  function walk(v, path, prop, cand, inSchema) {
    let pinned = false;
    if (Array.isArray(v)) {
      v.forEach((e, i) => { if (walk(e, [...path, i], '', cand, inSchema)) pinned = true; });
      return pinned;
    }
    if (!isObj(v)) return false;
    for (const [k, x] of Object.entries(v)) {
      const p = [...path, k];
      if (k === '$id' || k === '$anchor' || k === '$dynamicAnchor') pinned = true;
      else if (!inSchema) { if (walk(x, p, '', false, false)) pinned = true; }
      else if (DATA.has(k)) {}
      else if (path.length === 0 && CONTAINERS.includes(k)) {
        for (const [n, d] of Object.entries(x)) if (walk(d, [...p, n], '', false, true)) pinned = true;
      } else if (MAPS.has(k) && isObj(x)) {
        for (const [n, d] of Object.entries(x)) if (walk(d, [...p, n], n, true, true)) pinned = true;
      } else {
        const sub = SCHEMAS.has(k);
        if (walk(x, p, '', sub, sub)) pinned = true;
      }
    }
    if (cand && inSchema && !pinned && path.length > 0) {
      const t = JSON.stringify(v);
      if (!cands.has(t)) cands.set(t, []);
      cands.get(t).push({path, prop});
    }
    return pinned;
  }
  walk(s, [], '', false, true);
  let best = null;
  for (const [t, occ] of cands) {
    if (occ.length < 2) continue;
    const base = PLAIN.test(occ[0].prop) ? occ[0].prop : 'schema';
    let name = base;
    for (let k = 2; has(defs, name); k++) name = base + '_' + k;
    const L = Buffer.byteLength(t);
    const ref = len({$ref: '#/' + container + '/' + name});
    let addc = len(name) + 1 + L;
    if (!hasC) addc += 1 + len(container) + 1 + 2;
    else if (Object.keys(defs).length > 0) addc += 1;
    const save = occ.length * (L - ref) - addc;
    if (save > 0 && (best === null || save > best.save)) best = {t, occ, name, save};
  }
  if (best === null) return null;
  const ns = JSON.parse(JSON.stringify(s));
  for (const o of best.occ) {
    let v = ns;
    for (const st of o.path.slice(0, -1)) v = v[st];
    v[o.path[o.path.length - 1]] = {$ref: '#/' + container + '/' + best.name};
  }
  ns[container] = {...(hasC ? ns[container] : {}), [best.name]: JSON.parse(best.t)};
  return {s: ns, n: best.occ.length};
}

function hoist(tool) {
  const s = tool.inputSchema;
  if (!isObj(s)) return {tool, changes: 0};
  const info = analyze(s);
  if (!info.ok) return {tool, changes: 0};
  for (const toks of info.all) {
    if (!(toks.length === 0 || (toks.length === 2 && CONTAINERS.includes(toks[0])))) return {tool, changes: 0};
  }
  let cur = s;
  let changes = 0;
  for (;;) {
    const r = hoistOnce(cur);
    if (r === null) break;
    cur = r.s;
    changes += r.n;
  }
  if (changes === 0) return {tool, changes: 0};
  return {tool: {...tool, inputSchema: cur}, changes};
}

const tools = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = tools.map((tool, i) => {
  const name = typeof tool.name === 'string' ? tool.name : `tools[${i}]`;
  const p = profile(tool);
  const what = (r) => ({changes: r.changes, model_read_bytes: len(modelRead(r.tool)), wire_bytes: len(r.tool), tool: r.tool});
  return {
    name, model_read_bytes: len(modelRead(tool)), wire_bytes: len(tool), ...p,
    drop_unused_defs: what(dropUnused(tool)),
    hoist_repeated: what(hoist(tool)),
  };
});
process.stdout.write(JSON.stringify(out));
