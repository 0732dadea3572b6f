/// The review page's HTML: one static file with its style and script inline, no network.
///
/// The report's data is one JSON array in a `<script type="application/json"
/// id="flipbook-report">` element (the entry objects of `DIR/entries`); the script sorts it
/// (failures first, then by group and name), draws the list as text rows with lazily loaded
/// thumbnails (`loading="lazy"`: a 1,000-frame report loads only the thumbnails in view and
/// the selected image), and shows one image at a time in the chosen view.
///
/// What the page promises to its tests (and to anyone scripting it): the list is
/// `#list > li.row` with `data-key`, `data-status` and the class `fail` or `pass`; the viewer
/// `#stage` carries `data-key`, `data-mode` (`side`, `swipe`, `onion`, `heat`) and
/// `data-zoom`; the slider is `#slider` (0…100: swipe = where actual begins, from the left;
/// onion = actual's opacity); `html[data-ready]` holds `performance.now()` when the first
/// render finished. `index.html#<name>` (or `#<key>`) opens that image, and the address follows
/// the selection.
enum ReviewPage {
    /// The page with `json` (a JSON array, `<` already escaped) as its data.
    static func html(json: String) -> String {
        _head + json + _tail
    }

    static let _head = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Flipbook">
<title>Flipbook review</title>
<style>
:root { --bg:#16181d; --panel:#1f2229; --line:#2e323c; --text:#e6e8ee; --dim:#9aa1b1;
        --fail:#ff5d6c; --pass:#4cc38a; --accent:#6aa8ff; color-scheme: dark; }
* { box-sizing: border-box; }
html, body { margin:0; height:100%; background:var(--bg); color:var(--text);
             font:13px/18px system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display:flex; align-items:center; gap:16px; padding:8px 14px; border-bottom:1px solid var(--line);
         background:var(--panel); height:44px; }
header h1 { font-size:15px; line-height:20px; margin:0; font-weight:600; }
#summary .fail { color:var(--fail); } #summary .pass { color:var(--pass); }
header label { margin-left:auto; cursor:pointer; user-select:none; }
header .keys { color:var(--dim); }
#app { display:flex; height:calc(100% - 44px); }
#list { list-style:none; margin:0; padding:0; width:320px; min-width:240px; overflow-y:auto;
        border-right:1px solid var(--line); }
.row { display:flex; gap:8px; padding:6px 10px; border-bottom:1px solid var(--line); cursor:pointer;
       border-left:3px solid transparent; }
.row.fail { border-left-color:var(--fail); }
.row.selected { background:#2a3040; }
.row .thumb { width:48px; height:36px; object-fit:contain; flex:none; image-rendering:pixelated;
              background:repeating-conic-gradient(#3a3d45 0 25%, #2c2f36 0 50%) 0 0/8px 8px; }
.row .noimg { width:48px; height:36px; flex:none; border:1px dashed var(--line); }
.row .text { min-width:0; }
.row .name { white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
.row .meta { color:var(--dim); font-size:12px; line-height:18px; }
.failed-only .row.pass { display:none; }
.badge { display:inline-block; padding:0 6px; border-radius:8px; font-size:11px; line-height:16px; font-weight:600; vertical-align:top; margin-top:1px; }
.badge.fail { background:#5a1f27; color:#ffc2c8; } .badge.pass { background:#1d4633; color:#b8f0d3; }
#view { flex:1; display:flex; flex-direction:column; min-width:0; }
#info { padding:10px 14px; border-bottom:1px solid var(--line); }
#info h2 { margin:0 0 2px; font-size:15px; line-height:20px; font-weight:600; word-break:break-all; }
#info .group { color:var(--dim); }
#figures { color:var(--dim); margin-top:4px; } #figures b { color:var(--text); font-weight:600; }
#toolbar { display:flex; flex-wrap:wrap; align-items:center; gap:8px; padding:8px 14px; border-bottom:1px solid var(--line); }
#toolbar > * { height:24px; line-height:22px; }
#toolbar button { background:var(--panel); color:var(--text); border:1px solid var(--line); border-radius:4px;
                  padding:0 9px; cursor:pointer; font:inherit; }
#toolbar button.on { border-color:var(--accent); color:var(--accent); }
#toolbar .sep { width:1px; height:20px; background:var(--line); }
#slider { width:180px; }
#stage { flex:1; overflow:auto; padding:14px; }
.panels { display:flex; gap:14px; align-items:flex-start; }
figure { margin:0; }
figcaption { color:var(--dim); font-size:12px; line-height:16px; margin-bottom:4px; }
.px { display:block; image-rendering:pixelated; image-rendering:crisp-edges; max-width:none; }
.frame { position:relative; background:repeating-conic-gradient(#3a3d45 0 25%, #2c2f36 0 50%) 0 0/16px 16px; }
.stack { position:relative; cursor:ew-resize; }
.stack .px { position:absolute; left:0; top:0; }
.divider { position:absolute; top:0; bottom:0; width:0; border-left:1px solid #fff; box-shadow:0 0 0 1px rgba(0,0,0,.5);
           pointer-events:none; }
.missing { display:flex; align-items:center; justify-content:center; color:var(--dim); border:1px dashed var(--line);
           width:160px; height:100px; font-size:12px; }
.legend { display:flex; align-items:center; gap:6px; color:var(--dim); font-size:12px; margin-top:8px; }
.legend .ramp { width:160px; height:10px; background:linear-gradient(90deg, #2828ff 0%, #00c8ff 25%, #00dc00 50%, #ffe600 75%, #ff0000 100%); }
#accept { padding:10px 14px; border-top:1px solid var(--line); max-height:30%; overflow:auto; }
#accept h3, #all-accept summary { margin:0 0 4px; font-size:13px; font-weight:600; }
pre { margin:4px 0; padding:6px 8px; background:#0f1115; border:1px solid var(--line); border-radius:4px;
      white-space:pre-wrap; word-break:break-all; font:12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; user-select:all; }
#message { white-space:pre-wrap; }
#help { position:fixed; right:14px; top:52px; background:var(--panel); border:1px solid var(--line); padding:10px 14px;
        border-radius:6px; display:none; z-index:2; } #help.open { display:block; }
#help td:first-child { color:var(--accent); padding-right:12px; font-family:ui-monospace, monospace; }
#empty { padding:30px; color:var(--dim); }
</style>
</head>
<body>
<header>
  <h1>Flipbook review</h1>
  <span id="summary"></span>
  <details id="all-accept" hidden><summary>Accept all failures</summary><pre id="all-accept-commands"></pre></details>
  <label><input type="checkbox" id="failed-only"> Failures only <span class="keys">(f)</span></label>
  <button id="help-button" title="Keys (?)">?</button>
</header>
<div id="help"><table>
  <tr><td>j ↓</td><td>next image</td></tr><tr><td>k ↑</td><td>previous image</td></tr>
  <tr><td>1 2 3 4</td><td>side by side, swipe, onion skin, heat map</td></tr>
  <tr><td>← →</td><td>move the swipe / onion slider</td></tr>
  <tr><td>+ − 0</td><td>zoom in, out, fit</td></tr><tr><td>f</td><td>failures only</td></tr>
</table></div>
<div id="app">
  <ul id="list"></ul>
  <section id="view">
    <div id="info"><div class="group" id="group"></div><h2 id="title"></h2><div id="figures"></div></div>
    <div id="toolbar">
      <button data-mode="side" title="1">Side by side</button><button data-mode="swipe" title="2">Swipe</button>
      <button data-mode="onion" title="3">Onion skin</button><button data-mode="heat" title="4">Heat map</button>
      <span class="sep"></span>
      <span id="slider-label">expected</span><input type="range" id="slider" min="0" max="100" value="50"><span>actual</span>
      <span class="sep"></span>
      <button id="zoom-out" title="−">−</button><span id="zoom-label"></span><button id="zoom-in" title="+">+</button>
      <button id="zoom-fit" title="0">Fit</button>
    </div>
    <div id="stage"></div>
    <div id="accept"></div>
  </section>
</div>
<script type="application/json" id="flipbook-report">
"""#

    static let _tail = #"""
</script>
<script>
(function () {
  'use strict';
  var entries = JSON.parse(document.getElementById('flipbook-report').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var list = $('list'), stage = $('stage'), slider = $('slider');
  var state = { index: -1, mode: 'side', slider: 50, zoom: 0, failedOnly: false };
  var ZOOMS = [0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32];
  var LABEL = { same: 'passed', different: 'different', 'size-mismatch': 'size mismatch',
                'missing-expected': 'no reference', 'missing-actual': 'no actual image',
                recorded: 'recorded', unreadable: 'unreadable', error: 'error' };

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function num(x, d) { return x === null || x === undefined ? '∞' : (Math.round(x * Math.pow(10, d)) / Math.pow(10, d)).toString(); }
  function pct(e) { return e.pixels ? num(100 * e.differing / e.pixels, 3) + '%' : '0%'; }
  function label(e) { return e.status === 'same' && e.changed > 0 ? 'within tolerance' : (LABEL[e.status] || e.status); }
  function shortFigures(e) {
    if (e.width === undefined) return '';
    return e.differing + ' px · Δ ' + e.maxDelta + ' · ' + (e.psnr === null ? '∞' : num(e.psnr, 1)) + ' dB';
  }

  entries.sort(function (a, b) {
    return (a.passed - b.passed) || cmp(a.group || '', b.group || '') || cmp(a.name, b.name) || cmp(a.key, b.key);
  });
  var failed = entries.filter(function (e) { return !e.passed; });

  // The summary and the accept-all commands.
  $('summary').innerHTML = entries.length + ' image' + (entries.length === 1 ? '' : 's') + ' · <span class="fail">' +
    failed.length + ' failed</span> · <span class="pass">' + (entries.length - failed.length) + ' passed</span>';
  var all = [];
  failed.forEach(function (e) { all = all.concat(e.accept); });
  if (all.length) { $('all-accept').hidden = false; $('all-accept-commands').textContent = all.join('\n'); }

  // The list: one string of rows, one innerHTML (fast for thousands of rows).
  var html = [];
  entries.forEach(function (e, i) {
    var thumb = e.actual || e.expected;
    html.push('<li class="row ' + (e.passed ? 'pass' : 'fail') + '" data-i="' + i + '" data-key="' + esc(e.key) +
      '" data-status="' + esc(e.status) + '">' +
      (thumb ? '<img class="thumb" loading="lazy" decoding="async" alt="" src="' + esc(thumb) + '">' : '<span class="noimg"></span>') +
      '<div class="text"><div class="name" title="' + esc(e.name) + '">' + esc(e.name) + '</div><div class="meta">' +
      '<span class="badge ' + (e.passed ? 'pass' : 'fail') + '">' + esc(label(e)) + '</span> ' + esc(shortFigures(e)) +
      '</div></div></li>');
  });
  list.innerHTML = html.join('');
  var rows = list.children;

  function visible(i) { return !(state.failedOnly && entries[i].passed); }
  function step(from, dir) {
    for (var i = from + dir; i >= 0 && i < entries.length; i += dir) if (visible(i)) return i;
    return from;
  }
  function select(i) {
    if (i < 0 || i >= entries.length) return;
    if (state.index >= 0) rows[state.index].classList.remove('selected');
    state.index = i;
    rows[i].classList.add('selected');
    rows[i].scrollIntoView({ block: 'nearest' });
    try { history.replaceState(null, '', '#' + encodeURIComponent(entries[i].name)); } catch (err) { /* not allowed here */ }
    showInfo();
    render();
  }

  function showInfo() {
    var e = entries[state.index];
    $('group').textContent = e.group || '';
    $('title').textContent = e.name;
    var f = '<span class="badge ' + (e.passed ? 'pass' : 'fail') + '">' + esc(label(e)) + '</span> ';
    if (e.width !== undefined) {
      f += '<b>' + e.differing + '</b> of ' + e.pixels + ' pixels differ (' + pct(e) + '; allowed ' + e.allowed + ')' +
        (e.changed !== e.differing ? ', ' + (e.changed - e.differing) + ' more changed within tolerance' : '') +
        ' · max Δ <b>' + e.maxDelta + '</b> · PSNR <b>' + (e.psnr === null ? '∞' : num(e.psnr, 2)) + '</b> dB' +
        (e.maxDeltaE !== null ? ' · max ΔE00 <b>' + num(e.maxDeltaE, 2) + '</b>' : '') +
        (e.bounds ? ' · differences in (' + e.bounds[0] + ',' + e.bounds[1] + ') ' + e.bounds[2] + '×' + e.bounds[3] : '') +
        ' · ' + e.width + '×' + e.height + ' · tolerance: ' + esc(e.tolerance);
    } else {
      var sizes = [];
      if (e.expectedSize) sizes.push('expected ' + e.expectedSize.join('×'));
      if (e.actualSize) sizes.push('actual ' + e.actualSize.join('×'));
      f += esc(sizes.join(', '));
    }
    $('figures').innerHTML = f;
    var a = '';
    if (e.message) a += '<div id="message">' + esc(e.message) + '</div>';
    if (!e.passed && e.accept.length) {
      a += '<h3>Accept</h3><div>To make the actual image the new reference, run:</div><pre>' + esc(e.accept.join('\n')) + '</pre>';
    } else if (e.passed) {
      a += '<div class="group">Within tolerance: nothing to accept.</div>';
    }
    $('accept').innerHTML = a;
  }

  function size(e) {
    var s = [e.expectedSize, e.actualSize].filter(Boolean);
    return [Math.max.apply(null, s.map(function (x) { return x[0]; }).concat([1])),
            Math.max.apply(null, s.map(function (x) { return x[1]; }).concat([1]))];
  }
  function fitZoom(e, panels) {
    var wh = size(e);
    var w = (stage.clientWidth - 28 - 14 * (panels - 1)) / panels, h = stage.clientHeight - 28 - 40;
    var z = Math.min(w / wh[0], h / wh[1]);
    if (!(z > 0)) return 1;
    return z >= 1 ? Math.min(32, Math.floor(z)) : z;
  }
  function img(src, sz, z, cls) {
    var el = document.createElement('img');
    el.className = 'px' + (cls ? ' ' + cls : '');
    el.src = src; el.alt = '';
    el.style.width = (sz[0] * z) + 'px'; el.style.height = (sz[1] * z) + 'px';
    return el;
  }
  function missing(what) {
    var d = document.createElement('div'); d.className = 'missing'; d.textContent = 'no ' + what + ' image'; return d;
  }
  function figure(caption, child) {
    var f = document.createElement('figure'), c = document.createElement('figcaption');
    c.textContent = caption; f.appendChild(c); f.appendChild(child); return f;
  }
  function framed(el, sz, z) {
    var d = document.createElement('div'); d.className = 'frame';
    d.style.width = (sz[0] * z) + 'px'; d.style.height = (sz[1] * z) + 'px';
    d.appendChild(el); return d;
  }

  function render() {
    var e = entries[state.index];
    if (!e) return;
    var mode = state.mode;
    var panels = mode === 'side' ? (e.heat ? 3 : 2) : 1;
    var z = state.zoom || fitZoom(e, panels);
    stage.dataset.key = e.key; stage.dataset.mode = mode; stage.dataset.zoom = String(z);
    stage.textContent = '';
    Array.prototype.forEach.call(document.querySelectorAll('#toolbar [data-mode]'), function (b) {
      b.classList.toggle('on', b.dataset.mode === mode);
    });
    $('zoom-label').textContent = (state.zoom ? '' : 'fit ') + (z >= 1 ? z : num(z, 2)) + '×';
    slider.value = state.slider;
    slider.disabled = !(mode === 'swipe' || mode === 'onion');
    $('slider-label').textContent = 'expected';
    var wrap = document.createElement('div'), sz = size(e);
    if (mode === 'side') {
      wrap.className = 'panels';
      wrap.appendChild(figure('Expected', e.expected ? framed(img(e.expected, e.expectedSize, z, 'expected'), e.expectedSize, z) : missing('expected')));
      wrap.appendChild(figure('Actual', e.actual ? framed(img(e.actual, e.actualSize, z, 'actual'), e.actualSize, z) : missing('actual')));
      if (e.heat) wrap.appendChild(figure('Difference (heat map)', framed(img(e.heat, [e.width, e.height], z, 'heat'), [e.width, e.height], z)));
    } else if (mode === 'heat') {
      if (e.heat) {
        wrap.appendChild(figure('Difference (heat map): how much each pixel changed', framed(img(e.heat, [e.width, e.height], z, 'heat'), [e.width, e.height], z)));
        var lg = document.createElement('div'); lg.className = 'legend';
        lg.innerHTML = 'Δ 1 <span class="ramp"></span> 255 · muted: within tolerance · gray: unchanged';
        wrap.appendChild(lg);
      } else {
        wrap.appendChild(missing(e.width !== undefined ? 'heat map: the images are identical, no' : 'heat map: nothing was compared, no'));
      }
    } else {
      var st = document.createElement('div'); st.className = 'stack frame';
      st.style.width = (sz[0] * z) + 'px'; st.style.height = (sz[1] * z) + 'px';
      if (e.expected) st.appendChild(img(e.expected, e.expectedSize, z, 'expected'));
      if (e.actual) {
        var over = img(e.actual, e.actualSize, z, 'actual over');
        st.appendChild(over);
      }
      if (mode === 'swipe') { var dv = document.createElement('div'); dv.className = 'divider'; st.appendChild(dv); }
      st.addEventListener('pointerdown', function (ev) {
        if (state.mode !== 'swipe') return;
        st.setPointerCapture(ev.pointerId); drag(ev);
        st.onpointermove = drag;
        st.onpointerup = function () { st.onpointermove = null; };
      });
      function drag(ev) {
        var r = st.getBoundingClientRect();
        setSlider(Math.round(100 * (ev.clientX - r.left) / r.width));
      }
      wrap.appendChild(figure(mode === 'swipe' ? 'Swipe: expected on the left of the line, actual on the right'
                                               : 'Onion skin: actual over expected, the slider sets its opacity', st));
    }
    stage.appendChild(wrap);
    applySlider();
  }

  function applySlider() {
    var s = state.slider, over = stage.querySelector('.over'), dv = stage.querySelector('.divider');
    if (state.mode === 'swipe') {
      if (over) { over.style.clipPath = 'inset(0 0 0 ' + s + '%)'; over.style.opacity = ''; }
      if (dv) dv.style.left = s + '%';
    } else if (state.mode === 'onion' && over) {
      over.style.clipPath = ''; over.style.opacity = String(s / 100);
    }
  }
  function setSlider(v) {
    state.slider = Math.max(0, Math.min(100, v | 0));
    slider.value = state.slider;
    applySlider();
  }
  function setMode(m) { state.mode = m; render(); }
  function zoomBy(dir) {
    var e = entries[state.index]; if (!e) return;
    var z = state.zoom || fitZoom(e, state.mode === 'side' ? (e.heat ? 3 : 2) : 1), i;
    if (dir > 0) { for (i = 0; i < ZOOMS.length && ZOOMS[i] <= z; i++); state.zoom = ZOOMS[Math.min(i, ZOOMS.length - 1)]; }
    else { for (i = ZOOMS.length - 1; i >= 0 && ZOOMS[i] >= z; i--); state.zoom = ZOOMS[Math.max(i, 0)]; }
    render();
  }
  function setFailedOnly(on) {
    state.failedOnly = on;
    $('failed-only').checked = on;
    document.body.classList.toggle('failed-only', on);
    if (state.index >= 0 && !visible(state.index)) {
      var n = step(-1, 1);
      if (visible(n)) select(n);
    }
  }

  list.addEventListener('click', function (ev) {
    var li = ev.target.closest('.row');
    if (li) select(+li.dataset.i);
  });
  Array.prototype.forEach.call(document.querySelectorAll('#toolbar [data-mode]'), function (b) {
    b.addEventListener('click', function () { setMode(b.dataset.mode); });
  });
  slider.addEventListener('input', function () { setSlider(+slider.value); });
  $('zoom-in').addEventListener('click', function () { zoomBy(1); });
  $('zoom-out').addEventListener('click', function () { zoomBy(-1); });
  $('zoom-fit').addEventListener('click', function () { state.zoom = 0; render(); });
  $('failed-only').addEventListener('change', function () { setFailedOnly(this.checked); });
  $('help-button').addEventListener('click', function () { $('help').classList.toggle('open'); });
  window.addEventListener('resize', function () { if (!state.zoom) render(); });

  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target, onSlider = t === slider;
    if (t && (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && t.type === 'text'))) return;
    var handled = true;
    switch (ev.key) {
      case 'j': case 'ArrowDown': select(step(state.index, 1)); break;
      case 'k': case 'ArrowUp': select(step(state.index, -1)); break;
      case '1': setMode('side'); break;
      case '2': setMode('swipe'); break;
      case '3': setMode('onion'); break;
      case '4': setMode('heat'); break;
      case 'ArrowLeft': if (onSlider) handled = false; else setSlider(state.slider - 5); break;
      case 'ArrowRight': if (onSlider) handled = false; else setSlider(state.slider + 5); break;
      case '+': case '=': zoomBy(1); break;
      case '-': zoomBy(-1); break;
      case '0': state.zoom = 0; render(); break;
      case 'f': setFailedOnly(!state.failedOnly); break;
      case '?': $('help').classList.toggle('open'); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  });

  // Deep links: index.html#<key or name> opens that image; the hash follows the selection.
  function fromHash() {
    var want = '';
    try { want = decodeURIComponent(location.hash.slice(1)); } catch (err) { return -1; }
    for (var i = 0; want && i < entries.length; i++) if (entries[i].key === want || entries[i].name === want) return i;
    return -1;
  }
  window.addEventListener('hashchange', function () { var i = fromHash(); if (i >= 0 && i !== state.index) select(i); });

  if (entries.length) {
    select(Math.max(fromHash(), 0));
  } else {
    $('view').innerHTML = '<div id="empty">No comparisons in this report yet.</div>';
  }
  document.documentElement.setAttribute('data-ready', performance.now().toFixed(1));
})();
</script>
</body>
</html>

"""#
}
