(function () {
  'use strict';
  // The page's one script: it draws the report embedded as JSON with text
  // nodes only (textContent, never markup), so no name can become an element.
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var kind = document.body.getAttribute('data-kind');
  var main = document.getElementById('main');
  main.textContent = '';

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) {
    for (var i = 1; i < arguments.length; i++) parent.appendChild(arguments[i]);
    return parent;
  }
  var group = new Intl.NumberFormat('en-US');
  function fmt(n) { return group.format(n); }
  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '?'; }
  function signed(n) { return (n > 0 ? '+' : '') + fmt(n); }
  function delta(old, now) { return old > 0 ? ((now - old) >= 0 ? '+' : '') + (100 * (now - old) / old).toFixed(2) + '%' : '?'; }

  // The tip shows a cell's exact figures on hover and on focus.
  var tip = el('div', 'tip');
  tip.hidden = true;
  tip.setAttribute('role', 'tooltip');
  tip.id = 'tip';
  document.body.appendChild(tip);
  var status = el('p', 'status');
  status.setAttribute('aria-live', 'polite');
  function show(text, x, y) {
    tip.textContent = text;
    tip.hidden = false;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    tip.style.left = Math.max(0, Math.min(x + 12, window.innerWidth - w - 4)) + 'px';
    tip.style.top = Math.max(0, Math.min(y + 12, window.innerHeight - h - 4)) + 'px';
    status.textContent = text.replace(/\n/g, ' \u00b7 ');
  }
  function hide() { tip.hidden = true; }
  // hover shows text (a string, or a function making it when asked) on
  // hover and focus; label is what a screen reader says of the node
  // (default: the text on one line).
  function hover(node, text, label) {
    function get() { return typeof text === 'function' ? text() : text; }
    node.setAttribute('aria-label', label || get().replace(/\n/g, ', '));
    node.addEventListener('mousemove', function (ev) { show(get(), ev.clientX, ev.clientY); });
    node.addEventListener('mouseleave', hide);
    node.addEventListener('focus', function () { var r = node.getBoundingClientRect(); show(get(), r.left, r.top); });
    node.addEventListener('blur', hide);
  }

  // squarify lays out items (sorted by value, largest first) in the
  // rectangle x, y, w, h with areas proportional to their values (Bruls,
  // Huizing and van Wijk's squarified treemap).
  function squarify(items, x, y, w, h) {
    var out = [], total = 0, i;
    for (i = 0; i < items.length; i++) total += items[i].value;
    if (total <= 0 || w <= 0 || h <= 0) return out;
    var scale = w * h / total, rest = items.slice(), row = [];
    function worst(r, side) {
      var s = 0, mx = 0, mn = Infinity;
      for (var j = 0; j < r.length; j++) { var a = r[j].value * scale; s += a; mx = Math.max(mx, a); mn = Math.min(mn, a); }
      return Math.max(side * side * mx / (s * s), s * s / (side * side * mn));
    }
    function place(r) {
      var s = 0, j;
      for (j = 0; j < r.length; j++) s += r[j].value * scale;
      if (w >= h) {
        var cw = s / h, cy = y;
        for (j = 0; j < r.length; j++) { var ch = r[j].value * scale / cw; out.push({ item: r[j], x: x, y: cy, w: cw, h: ch }); cy += ch; }
        x += cw; w -= cw;
      } else {
        var rh = s / w, cx = x;
        for (j = 0; j < r.length; j++) { var rw = r[j].value * scale / rh; out.push({ item: r[j], x: cx, y: y, w: rw, h: rh }); cx += rw; }
        y += rh; h -= rh;
      }
    }
    while (rest.length) {
      var side = Math.min(w, h), next = rest[0];
      if (row.length === 0 || worst(row.concat([next]), side) <= worst(row, side)) { row.push(next); rest.shift(); }
      else { place(row); row = []; }
    }
    if (row.length) place(row);
    return out;
  }
  function byValue(a, b) { return b.value - a.value; }

  function treePage() {
    var diff = kind === 'diff';
    var servers = data.servers || [];
    var units = [{ key: 'bytes', label: 'bytes' }, { key: 'tokens', label: 'tokens (bytes/3)' }];
    (data.units || []).forEach(function (u, i) { units.push({ key: 'count' + i, label: u + ' tokens', index: i }); });
    var unit = units[0];
    function value(t) {
      if (unit.key === 'bytes') return t.bytes;
      if (unit.key === 'tokens') return t.tokens;
      return (t.counts || [])[unit.index] || 0;
    }
    function unitName() { return unit.key === 'bytes' ? 'bytes' : unit.label; }
    // Each kind of component has one colour and pattern, the same in every tool.
    var kinds = {}, kindNames = [];
    servers.forEach(function (s) { (s.tools || []).forEach(function (t) { (t.components || []).forEach(function (c) {
      if (!(c.name in kinds)) { kinds[c.name] = 'k' + (kindNames.length % 11); kindNames.push(c.name); }
    }); }); });
    var tools = [];
    servers.forEach(function (s, si) { (s.tools || []).forEach(function (t, ti) { tools.push({ server: s, si: si, ti: ti, tool: t }); }); });
    // the sum of the values in the unit shown, kept as the unit changes
    var sum = 0;
    function recount() { sum = 0; tools.forEach(function (r) { sum += value(r.tool); }); }
    function total() { return sum; }
    recount();
    function figures(r) {
      var t = r.tool, lines = [t.name];
      if (servers.length > 1) lines[0] = r.server.name + ' \u203a ' + t.name;
      lines.push(fmt(t.bytes) + ' bytes, ' + fmt(t.tokens) + ' tokens');
      (data.units || []).forEach(function (u, i) { lines.push(fmt((t.counts || [])[i] || 0) + ' ' + u + ' tokens'); });
      lines.push(pct(value(t), total()) + ' of ' + unitName());
      (t.components || []).forEach(function (c) { lines.push('  ' + c.name + ': ' + fmt(c.bytes) + ' bytes (' + pct(c.bytes, t.bytes) + ')'); });
      if (diff) lines.push(t.old === undefined || t.old === null ? 'new: not in the old capture' : 'was ' + fmt(t.old) + ' bytes: ' + signed(t.bytes - t.old) + ' (' + delta(t.old, t.bytes) + ')');
      if (t.description) lines.push(t.description);
      return lines.join('\n');
    }
    function colour(r) {
      if (!diff) return 'tool';
      var t = r.tool;
      if (t.old === undefined || t.old === null) return 'added';
      if (t.bytes === t.old) return 'same';
      var d = t.old > 0 ? Math.abs(t.bytes - t.old) / t.old : 1;
      var step = d < 0.1 ? 1 : d < 0.5 ? 2 : 3;
      return (t.bytes > t.old ? 'grew' : 'shrank') + step;
    }
    function mark(r) {
      if (!diff) return '';
      var t = r.tool;
      if (t.old === undefined || t.old === null) return ' (new)';
      return ' (' + delta(t.old, t.bytes) + ')';
    }

    var sumBytes = 0, sumOld = 0;
    tools.forEach(function (r) { sumBytes += r.tool.bytes; if (r.tool.old) sumOld += r.tool.old; });
    (data.removed || []).forEach(function (t) { sumOld += t.old || 0; });
    add(main, el('p', 'summary', tools.length + (tools.length === 1 ? ' tool' : ' tools') + ' in ' + servers.length + (servers.length === 1 ? ' capture' : ' captures') + ': ' +
      fmt(sumBytes) + ' model-read bytes, ' + fmt(Math.floor(sumBytes / 3)) + ' tokens' + (diff ? ' (was ' + fmt(sumOld) + ' bytes: ' + delta(sumOld, sumBytes) + ')' : '') + '.'));

    var controls = add(el('div', 'controls'));
    var fs = add(el('fieldset'), el('legend', null, 'Size by'));
    units.forEach(function (u, i) {
      var input = el('input');
      input.type = 'radio'; input.name = 'unit'; input.value = u.key; input.id = 'unit-' + u.key;
      input.checked = i === 0;
      input.addEventListener('change', function () { unit = u; recount(); draw(); fillTable(); });
      var label = el('label', null); label.htmlFor = input.id;
      add(label, input, document.createTextNode(' ' + u.label));
      fs.appendChild(label);
    });
    var crumbs = el('nav', 'crumbs'); crumbs.setAttribute('aria-label', 'Zoom');
    add(controls, fs, crumbs);
    add(main, controls);

    var legend = el('div', 'legend');
    var map = el('div', 'map'); map.setAttribute('role', 'group'); map.id = 'treemap';
    map.setAttribute('aria-label', 'Treemap of the tools: area is ' + 'model-read size. Enter zooms in, Escape zooms out.');
    add(main, legend, map, status);
    add(main, el('p', 'summary', 'Click a tool, or focus it with Tab and press Enter, to see its components; Escape goes back out.'));

    // zoom: [] everything, [si] one capture, [si, ti] one tool.
    var zoom = servers.length === 1 ? [0] : [];
    function setZoom(z) { zoom = z; draw(); var f = map.querySelector('.cell'); if (f && z.length === 2) f.focus(); }
    function legendFor(items) {
      legend.textContent = '';
      items.forEach(function (it) { add(legend, add(el('span'), el('span', 'swatch ' + it[0]), document.createTextNode(it[1]))); });
    }
    function cell(cls, x, y, w, h, label) {
      var c = el('div', 'cell ' + cls);
      c.style.left = x + 'px'; c.style.top = y + 'px'; c.style.width = w + 'px'; c.style.height = h + 'px';
      if (w > 30 && h > 14) c.appendChild(el('span', 'label', label));
      map.appendChild(c);
      return c;
    }
    function drawTools(list, x, y, w, h) {
      var items = list.map(function (r) { return { value: value(r.tool), r: r }; }).filter(function (i) { return i.value > 0; }).sort(byValue);
      squarify(items, x, y, w, h).forEach(function (b) {
        var r = b.item.r;
        var c = cell(colour(r), b.x, b.y, b.w, b.h, r.tool.name + (diff ? mark(r) : ' \u00b7 ' + pct(b.item.value, total())));
        c.tabIndex = 0;
        c.setAttribute('role', 'button');
        c.setAttribute('data-tool', r.tool.name);
        c.setAttribute('data-server', String(r.si));
        c.setAttribute('data-value', String(b.item.value));
        hover(c, function () { return figures(r); }, r.tool.name + ', ' + fmt(r.tool.bytes) + ' bytes, ' + fmt(r.tool.tokens) + ' tokens, ' + pct(b.item.value, total()) + ' of ' + unitName());
        // the components inside, under the label, when there is room
        if (!diff && r.tool.components && b.w > 24 && b.h > 36) {
          var items = r.tool.components.map(function (k) { return { value: k.bytes, c: k }; }).filter(function (i) { return i.value > 0; }).sort(byValue);
          squarify(items, 0, 16, b.w, b.h - 16).forEach(function (kb) {
            var sub = el('div', 'sub ' + kinds[kb.item.c.name]);
            sub.style.left = kb.x + 'px'; sub.style.top = kb.y + 'px'; sub.style.width = kb.w + 'px'; sub.style.height = kb.h + 'px';
            c.appendChild(sub);
          });
        }
        function open() { setZoom([r.si, r.ti]); }
        c.addEventListener('click', open);
        c.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(); } });
      });
    }
    function draw() {
      hide();
      map.textContent = '';
      var W = map.clientWidth, H = map.clientHeight;
      crumbs.textContent = '';
      var path = [['All', []]];
      if (zoom.length >= 1 && servers.length > 1) path.push([servers[zoom[0]].name, [zoom[0]]]);
      if (zoom.length === 2) path.push([servers[zoom[0]].tools[zoom[1]].name, zoom.slice()]);
      if (servers.length === 1) path[0][0] = servers[0].name;
      path.forEach(function (p, i) {
        var b = el('button', null, p[0]);
        b.type = 'button';
        if (i === path.length - 1) b.setAttribute('aria-current', 'page');
        b.addEventListener('click', function () { setZoom(p[1].length ? p[1] : (servers.length === 1 ? [0] : [])); });
        crumbs.appendChild(b);
      });
      if (zoom.length === 2) {
        var t = servers[zoom[0]].tools[zoom[1]];
        var comps = (t.components && t.components.length ? t.components : [{ name: 'the whole tool', bytes: t.bytes }]);
        if (!(comps[0].name in kinds)) kinds[comps[0].name] = 'k8';
        var items = comps.map(function (c) { return { value: c.bytes, c: c }; }).filter(function (i) { return i.value > 0; }).sort(byValue);
        squarify(items, 0, 0, W, H).forEach(function (b) {
          var c = b.item.c;
          var node = cell(kinds[c.name], b.x, b.y, b.w, b.h, c.name + ' ' + pct(c.bytes, t.bytes));
          node.tabIndex = 0;
          node.setAttribute('data-component', c.name);
          hover(node, t.name + ' \u203a ' + c.name + '\n' + fmt(c.bytes) + ' bytes, ' + fmt(Math.floor(c.bytes / 3)) + ' tokens (bytes/3)\n' + pct(c.bytes, t.bytes) + ' of the tool');
          node.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') setZoom([zoom[0]]); });
          node.addEventListener('click', function () { setZoom(servers.length === 1 ? [0] : [zoom[0]]); });
        });
        legendFor(comps.map(function (c) { return [kinds[c.name], c.name]; }));
        return;
      }
      if (zoom.length === 1) {
        drawTools(tools.filter(function (r) { return r.si === zoom[0]; }), 0, 0, W, H);
      } else {
        var groups = servers.map(function (s, si) {
          var v = 0; tools.forEach(function (r) { if (r.si === si) v += value(r.tool); });
          return { value: v, si: si };
        }).filter(function (g) { return g.value > 0; }).sort(byValue);
        squarify(groups, 0, 0, W, H).forEach(function (b) {
          drawTools(tools.filter(function (r) { return r.si === b.item.si; }), b.x, b.y, b.w, b.h);
          var edge = cell('server-edge', b.x, b.y, b.w, b.h, servers[b.item.si].name);
          edge.setAttribute('aria-hidden', 'true');
        });
      }
      if (diff) legendFor([['grew1', 'grew under 10%'], ['grew2', 'grew 10\u201350%'], ['grew3', 'grew over 50%'], ['same', 'unchanged'],
        ['shrank1', 'shrank under 10%'], ['shrank2', 'shrank 10\u201350%'], ['shrank3', 'shrank over 50%'], ['added', 'new tool']]);
      else legendFor(kindNames.map(function (n) { return [kinds[n], n]; }));
    }
    document.addEventListener('keydown', function (ev) {
      if (ev.key === 'Escape' && (zoom.length === 2 || (zoom.length === 1 && servers.length > 1))) {
        setZoom(zoom.length === 2 && servers.length > 1 ? [zoom[0]] : (servers.length === 1 ? [0] : []));
      }
    });
    window.addEventListener('resize', draw);

    // The table of the tools, sortable by any column.
    add(main, el('h2', null, 'Tools'));
    var cols = [];
    if (servers.length > 1) cols.push({ label: 'Capture', get: function (r) { return r.server.name; } });
    cols.push({ label: 'Tool', get: function (r) { return r.tool.name; } });
    if (diff) cols.push({ label: 'Old bytes', num: true, get: function (r) { return r.tool.old === undefined || r.tool.old === null ? -1 : r.tool.old; }, show: function (r) { return r.tool.old === undefined || r.tool.old === null ? 'new' : fmt(r.tool.old); } });
    cols.push({ label: 'Bytes', num: true, get: function (r) { return r.tool.bytes; } });
    if (diff) cols.push({ label: 'Delta', num: true, get: function (r) { return r.tool.old ? (r.tool.bytes - r.tool.old) / r.tool.old : Infinity; }, show: function (r) { return r.tool.old === undefined || r.tool.old === null ? '?' : delta(r.tool.old, r.tool.bytes); } });
    cols.push({ label: 'Tokens (bytes/3)', num: true, get: function (r) { return r.tool.tokens; } });
    (data.units || []).forEach(function (u, i) { cols.push({ label: u, num: true, get: function (r) { return (r.tool.counts || [])[i] || 0; } }); });
    cols.push({ label: 'Share', num: true, get: function (r) { return value(r.tool); }, show: function (r) { return pct(value(r.tool), total()); } });
    var table = el('table'); table.id = 'tools';
    var thead = el('thead'), tr = el('tr'), tbody = el('tbody');
    var order = { col: -1, dir: 1 };
    cols.forEach(function (c, ci) {
      var th = el('th', c.num ? 'num' : null); th.scope = 'col';
      var b = el('button', null, c.label); b.type = 'button';
      b.addEventListener('click', function () {
        order.dir = order.col === ci ? -order.dir : (c.num ? -1 : 1);
        order.col = ci;
        Array.prototype.forEach.call(tr.children, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', order.dir > 0 ? 'ascending' : 'descending');
        fillTable();
      });
      add(tr, add(th, b));
    });
    add(main, add(table, add(thead, tr), tbody));
    function fillTable() {
      var rows = tools.slice();
      if (order.col >= 0) {
        var c = cols[order.col];
        rows.sort(function (a, b) {
          var x = c.get(a), y = c.get(b);
          var d = typeof x === 'string' ? (x < y ? -1 : x > y ? 1 : 0) : x - y;
          return d * order.dir || a.si - b.si || a.ti - b.ti;
        });
      }
      var body = el('tbody');
      rows.forEach(function (r) {
        var row = el('tr');
        cols.forEach(function (c) { row.appendChild(el('td', c.num ? 'num' : null, c.show ? c.show(r) : (c.num ? fmt(c.get(r)) : c.get(r)))); });
        body.appendChild(row);
      });
      table.replaceChild(body, tbody);
      tbody = body;
    }
    fillTable();

    if (diff) {
      add(main, el('h2', null, 'Tools added and removed'));
      var ul = el('ul', 'findings'); ul.id = 'changes';
      tools.forEach(function (r) { if (r.tool.old === undefined || r.tool.old === null) ul.appendChild(el('li', null, 'added: ' + r.tool.name + ', ' + fmt(r.tool.bytes) + ' bytes')); });
      (data.removed || []).forEach(function (t) { ul.appendChild(el('li', null, 'removed: ' + t.name + ', ' + fmt(t.old || 0) + ' bytes')); });
      if (!ul.children.length) ul.appendChild(el('li', null, 'none'));
      main.appendChild(ul);
    }
    add(main, el('h2', null, 'Findings'));
    var fl = el('ul', 'findings'); fl.id = 'findings';
    (data.findings || []).forEach(function (f) {
      fl.appendChild(el('li', null, f.text + (f.saving_bytes ? ' (saves ' + (f.estimate ? 'about ' : '') + fmt(f.saving_bytes) + ' bytes, ' + fmt(Math.floor(f.saving_bytes / 3)) + ' tokens)' : '')));
    });
    if (!fl.children.length) fl.appendChild(el('li', null, 'none'));
    main.appendChild(fl);
    if ((data.savings || []).length) {
      add(main, el('h2', null, 'What-if savings'));
      var st = el('table'); st.id = 'savings';
      var h = el('tr');
      ['What-if', 'Model-read bytes saved', 'Tokens saved', 'Wire bytes saved', 'Tools changed'].forEach(function (x, i) { var th = el('th', i ? 'num' : null, x); th.scope = 'col'; h.appendChild(th); });
      var sb = el('tbody');
      data.savings.forEach(function (s) {
        add(sb, add(el('tr'), el('td', null, s.name), el('td', 'num', fmt(s.model_read_bytes)), el('td', 'num', fmt(Math.floor(s.model_read_bytes / 3))), el('td', 'num', fmt(s.wire_bytes)), el('td', 'num', fmt(s.tools))));
      });
      add(main, add(st, add(el('thead'), h), sb));
    }
    draw();
  }

  function walksPage() {
    var walks = data.walks || [];
    var scale = 1;
    function total(w) { var b = null; (w.budgets || []).forEach(function (x) { if (x.measure === 'total' && x.unit !== 'calls' && !b) b = x; }); return b; }
    // Bars are drawn in bytes; a budget in tokens is drawn at 3 bytes a token.
    function budgetBytes(b) { return b && b.budget !== undefined && b.budget !== null ? (b.unit === 'bytes' ? b.budget : 3 * b.budget) : null; }
    walks.forEach(function (w) { scale = Math.max(scale, w.bytes || 0, budgetBytes(total(w)) || 0); });
    add(main, el('p', 'summary', walks.length + (walks.length === 1 ? ' walk' : ' walks') + '. Each bar is a walk\u2019s parts, in the order read; the black line is its budget; what is over the budget is hatched and named.'));
    var over = 0;
    walks.forEach(function (w, wi) {
      var sec = el('section', 'walk'); sec.setAttribute('data-walk', w.walk);
      var b = total(w);
      var verdict;
      if (w.error) verdict = el('span', 'verdict over', 'FAILED: ' + w.error);
      else if (b && b.status === 'over') { verdict = el('span', 'verdict over', 'OVER BUDGET by ' + fmt(-b.slack) + ' ' + b.unit); over++; }
      else if (b && b.budget !== undefined && b.budget !== null) verdict = el('span', 'verdict ok', 'within budget, ' + fmt(b.slack) + ' ' + b.unit + ' to spare');
      else verdict = el('span', 'verdict', 'no budget');
      add(sec, el('h2', null, w.walk), add(el('p'), document.createTextNode(fmt(w.bytes) + ' bytes, ' + fmt(w.tokens) + ' tokens' + (b && b.budget !== undefined && b.budget !== null ? ' of a budget of ' + fmt(b.budget) + ' ' + b.unit : '') + '. '), verdict));
      var bar = el('div', 'bar'); bar.setAttribute('role', 'group'); bar.setAttribute('aria-label', w.walk + ': parts');
      var x = 0;
      (w.parts || []).forEach(function (p, pi) {
        var seg = el('div', 'seg k' + (pi % 8));
        seg.style.left = (100 * x / scale) + '%'; seg.style.width = (100 * p.bytes / scale) + '%';
        seg.tabIndex = 0; seg.setAttribute('data-part', p.name);
        hover(seg, p.name + '\n' + fmt(p.bytes) + ' bytes, ' + fmt(p.tokens) + ' tokens\n' + pct(p.bytes, w.bytes) + ' of the walk');
        bar.appendChild(seg);
        x += p.bytes;
      });
      var bb = budgetBytes(b);
      if (bb !== null) {
        var line = el('div', 'budget-line' + (bb / scale > 0.7 ? ' left' : '')); line.style.left = (100 * bb / scale) + '%';
        line.appendChild(el('span', null, 'budget ' + fmt(b.budget) + ' ' + b.unit));
        bar.appendChild(line);
        if (b.status === 'over' && x > bb) {
          var o = el('div', 'overflow'); o.style.left = (100 * bb / scale) + '%'; o.style.width = (100 * (x - bb) / scale) + '%';
          o.setAttribute('data-over', w.walk);
          add(o, el('span', 'visually-hidden', 'over budget'));
          bar.appendChild(o);
        }
      }
      sec.appendChild(bar);
      var t = el('table'), h = el('tr'), body = el('tbody');
      ['Part', 'Bytes', 'Tokens (bytes/3)', 'Share'].forEach(function (s, i) { var th = el('th', i ? 'num' : null, s); th.scope = 'col'; h.appendChild(th); });
      (w.parts || []).forEach(function (p, pi) {
        add(body, add(el('tr'), add(el('td'), el('span', 'swatch k' + (pi % 8)), document.createTextNode(p.name)), el('td', 'num', fmt(p.bytes)), el('td', 'num', fmt(p.tokens)), el('td', 'num', pct(p.bytes, w.bytes))));
      });
      var details = add(el('details'), el('summary', null, (w.parts || []).length + ' parts'));
      add(sec, add(details, add(t, add(el('thead'), h), body)));
      main.appendChild(sec);
    });
    if (over) main.insertBefore(el('p', 'verdict over', over + (over === 1 ? ' walk is' : ' walks are') + ' over budget.'), main.children[1] || null);
    main.insertBefore(status, main.children[1] || null);
    if ((data.warnings || []).length) {
      add(main, el('h2', null, 'Warnings'));
      var ul = el('ul', 'findings');
      data.warnings.forEach(function (s) { ul.appendChild(el('li', null, s)); });
      main.appendChild(ul);
    }
  }

  if (kind === 'walks') walksPage(); else treePage();
  performance.mark('drawn');
  document.body.setAttribute('data-ready', 'true');
})();
