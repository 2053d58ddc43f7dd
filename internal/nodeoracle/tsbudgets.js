// tsbudgets.js: what the TypeScript compiler's own parser sees in a budget
// file. It reads a JSON array of {name, text} on stdin and writes, for each
// file, its syntax errors and the budgets of its budget blocks, found on
// TypeScript's syntax tree (not on the toolkit's reader): the oracle of
// budgets.Parse. The blocks are the objects a file exports (export const,
// let or var; const NAME exported by export { NAME } or { NAME as OTHER };
// export default), with `as T` and `satisfies T` taken off. A block is a
// budget block when it holds a plain integer literal and nothing that is
// not a number; one that also holds a spread, a shorthand, a computed key
// or a number that is not a plain literal is "refused", as is a name
// exported twice.
const paths = [process.env.READMETER_NPM_MODULES];
const ts = require(require.resolve('typescript', { paths }));

function strip(e) {
  while (e && (ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
  return e;
}

function keyOf(name) {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return String(Number(name.text));
  return null; // computed
}

function read(file) {
  const sf = ts.createSourceFile(file.name, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const line = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const out = {
    diagnostics: sf.parseDiagnostics.map((d) => ({ line: sf.getLineAndCharacterOfPosition(d.start).line + 1, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') })),
    refused: '',
    budgets: {},
  };
  const blocks = []; // [name, object]
  const locals = new Map();
  const names = new Map();
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const exported = (ts.getModifiers(st) || []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        const init = strip(d.initializer);
        if (init && ts.isObjectLiteralExpression(init)) {
          if (exported) blocks.push([d.name.text, init, d.name]);
          else locals.set(d.name.text, [init, d.name]);
        }
      }
    } else if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) {
        const local = (el.propertyName || el.name).text;
        if (locals.has(local)) blocks.push([el.name.text, locals.get(local)[0], locals.get(local)[1]]);
      }
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      const e = strip(st.expression);
      if (ts.isObjectLiteralExpression(e)) blocks.push(['default', e, st]);
      else if (ts.isIdentifier(e) && locals.has(e.text)) blocks.push(['default', locals.get(e.text)[0], locals.get(e.text)[1]]);
    }
  }
  for (const [name, obj, at] of blocks) {
    if (names.has(name)) out.refused = out.refused || `${name} twice, lines ${names.get(name)} and ${line(at)}`;
    names.set(name, line(at));
    const leaves = [];
    let ints = 0, foreign = 0, doubtful = '';
    const walk = (o, prefix, hidden) => {
      for (const p of o.properties) {
        if (ts.isPropertyAssignment(p)) {
          const key = keyOf(p.name);
          if (key === null) { doubtful = doubtful || 'a computed key at line ' + line(p); continue; }
          const v = strip(p.initializer);
          const h = hidden || key === '' || key.includes('.');
          if (ts.isObjectLiteralExpression(v)) { walk(v, prefix + '.' + key, h); continue; }
          if (ts.isNumericLiteral(v)) {
            const text = v.getText(sf);
            const n = Number(v.text);
            if (/^(0|[1-9](_?[0-9])*)$/.test(text) && Number.isSafeInteger(n)) {
              ints++;
              if (!h) leaves.push([prefix + '.' + key, n, line(p.name)]);
              continue;
            }
            doubtful = doubtful || 'the number ' + text + ' at line ' + line(p);
            continue;
          }
          if (ts.isStringLiteralLike(v) || ts.isTemplateExpression(v) || ts.isArrayLiteralExpression(v) || ts.isFunctionLike(v) ||
              ts.isRegularExpressionLiteral(v) || v.kind === ts.SyntaxKind.TrueKeyword || v.kind === ts.SyntaxKind.FalseKeyword ||
              v.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(v) && v.text === 'undefined') || ts.isObjectLiteralExpression(v) ||
              ts.isNewExpression(v) || ts.isClassExpression(v)) {
            foreign++;
            continue;
          }
          doubtful = doubtful || 'an expression at line ' + line(p);
        } else if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) {
          foreign++;
        } else {
          doubtful = doubtful || 'a ' + ts.SyntaxKind[p.kind] + ' at line ' + line(p);
        }
      }
    };
    walk(obj, name, name.includes('.') || name === '');
    if (foreign > 0 || ints === 0) continue; // not a budget block
    if (doubtful) { out.refused = out.refused || name + ': ' + doubtful; continue; }
    const seen = new Set();
    for (const [n, v, l] of leaves) {
      if (seen.has(n)) { out.refused = out.refused || n + ' twice'; continue; }
      seen.add(n);
      out.budgets[n] = [v, l];
    }
  }
  out.module = evaluate(file);
  return out;
}

// evaluate runs the file as the module it is: transpiled to CommonJS by
// the TypeScript compiler (types taken off, nothing checked), then run in
// a fresh context with no require. It returns the error it threw, or the
// number leaves of every exported object (own enumerable properties, deep),
// by dotted name.
function evaluate(file) {
  const vm = require('vm');
  const js = ts.transpileModule(file.text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 }, fileName: file.name }).outputText;
  const module = { exports: {} };
  try {
    vm.runInNewContext(js, { module, exports: module.exports, require: () => { throw new Error('require'); } }, { timeout: 2000 });
  } catch (e) {
    return { error: String(e && e.message || e), values: {}, blocks: [] };
  }
  const values = {};
  const blocks = [];
  const walk = (o, prefix) => {
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (typeof v === 'number') values[prefix + '.' + k] = v;
      else if (v && typeof v === 'object') walk(v, prefix + '.' + k);
    }
  };
  for (const name of Object.keys(module.exports)) {
    const v = module.exports[name];
    if (v && typeof v === 'object') { blocks.push(name); walk(v, name); }
  }
  return { error: '', values, blocks };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(read)));
});
