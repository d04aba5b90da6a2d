/**
 * The HTML report's one stylesheet and one script, inlined into the page (html.ts) so the file
 * opens from disk with nothing to fetch. The script is a constant: no report data is ever put
 * into it (the rows carry what it sorts and filters on in data attributes, escaped like all
 * text), so a hostile message cannot reach script context, and the page's Content-Security-Policy
 * allows this script alone, by its hash. Without scripts the page still works: every link is a
 * #hash, the boards and the histogram are markup; only sorting, filtering and copying need it.
 *
 * Both are written so the page is also well-formed XML (the tests parse it): the script sits in a
 * CDATA section inside JavaScript comments, and the CSS holds no `<` or `&`.
 */
import { BOARD_CSS } from './html-board.ts';

export const REPORT_CSS = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--link:#0958c7;--ok:#1a7f37;--ok-bg:#dafbe1;--bad:#c9252d;--bad-bg:#ffd7d5;--warn:#8a5a00;--warn-bg:#fff1c2;--info-bg:#ddf4ff;--focus:#0969da;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;--link:#4493f8;--ok:#3fb950;--ok-bg:#12361f;--bad:#f85149;--bad-bg:#4a1b1b;--warn:#d29922;--warn-bg:#3a2a06;--info-bg:#0c2d48}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:var(--bg);padding:.5rem;z-index:2}
.skip:focus{left:.5rem}
.page{max-width:1240px;margin:0 auto;padding:1rem}
header.top h1{font-size:1.5rem;margin:.2rem 0}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
h4{font-size:1rem;margin:0 0 .3rem;display:flex;flex-wrap:wrap;gap:.3rem .5rem;align-items:baseline;overflow-wrap:anywhere}
.muted,.path{color:var(--muted)}
.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere}
.notes{margin:.3rem 0;padding-left:1.2rem}
.notes li{overflow-wrap:anywhere}
.run-note{background:var(--warn-bg);border-left:4px solid var(--warn);padding:.4rem .7rem;margin:.4rem 0;overflow-wrap:anywhere}
.stats{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0;padding:0;list-style:none}
.stats li{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.3rem .7rem}
.stats b{font-size:1.1rem}
.charts{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
/* side by side only where the histogram (470 px wide) fits in its 5/11 of the width; else one above the other */
@media (min-width:1080px){.charts{grid-template-columns:minmax(0,5fr) minmax(0,6fr)}}
.hist{width:100%;max-width:520px;min-width:420px;height:auto;display:block}
.hist .bar{fill:var(--link)}
.hist text{fill:var(--fg);font:10.5px system-ui,sans-serif}
.hist .axis-label{fill:var(--muted)}
.hist .axis{stroke:var(--line)}
.scroll{overflow-x:auto;max-width:100%}
table.data{border-collapse:collapse;width:100%;font-size:.9rem}
table.data th,table.data td{border-bottom:1px solid var(--line);padding:.3rem .45rem;text-align:left;vertical-align:top}
table.data thead th{background:var(--panel);position:sticky;top:0;white-space:nowrap}
table.data td.num,table.data th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.data tbody tr:hover{background:var(--panel)}
.rate{display:inline-block;width:5rem;height:.6rem;background:var(--bad-bg);border-radius:3px;vertical-align:middle;margin-right:.3rem;overflow:hidden}
.rate rect{fill:var(--ok)}
.pc{display:inline-block;min-width:3.2em;text-align:right}
table.data .path{overflow-wrap:normal;white-space:nowrap}
table.data.cats{width:auto;min-width:min(100%,26rem)}
.clip{display:block;max-width:28rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;color:inherit;cursor:pointer}
th[aria-sort=ascending] button::after{content:" ▲";content:" ▲"/""}
th[aria-sort=descending] button::after{content:" ▼";content:" ▼"/""}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.5rem 0}
.filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
.filters input,.filters select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.3rem .4rem;min-height:2.2rem;max-width:100%}
.filters select{max-width:16rem}
.badge{display:inline-block;border-radius:999px;padding:0 .5rem;font-size:.78rem;font-weight:600;border:1px solid transparent;white-space:nowrap}
.st-passed{background:var(--ok-bg);color:var(--ok)}
.st-failed{background:var(--bad-bg);color:var(--bad)}
.st-error,.st-timeout,.st-memory,.st-output-limit{background:var(--warn-bg);color:var(--warn)}
.vis{background:var(--panel);border-color:var(--line);color:var(--muted)}
.tag{display:inline-block;white-space:nowrap;background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:0 .3rem;margin:0 .2rem .2rem 0;font-size:.8rem}
.sub{border-top:2px solid var(--line);margin-top:1.5rem;padding-top:.5rem}
.subnav{display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.9rem}
.sub h2{margin-top:.5rem;display:flex;flex-wrap:wrap;gap:.2rem .8rem;align-items:baseline;overflow-wrap:anywhere}
.score{font-variant-numeric:tabular-nums}
.case{border:1px solid var(--line);border-left:5px solid var(--bad);border-radius:8px;padding:.6rem .8rem;margin:.7rem 0;background:var(--bg)}
.case-error,.case-timeout,.case-memory,.case-output-limit{border-left-color:var(--warn)}
.case.info-only{border-left-color:var(--link)}
.case .desc{margin:.1rem 0 .4rem;color:var(--muted)}
.case-body{display:grid;grid-template-columns:minmax(0,1fr);gap:.4rem 1.2rem}
@media (min-width:900px){.case-body.with-board{grid-template-columns:minmax(0,1fr) auto}}
table.cmp{border-collapse:collapse;font-size:.9rem;margin:.2rem 0 .4rem;max-width:100%}
table.cmp th,table.cmp td{border:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
table.cmp thead th{background:var(--panel)}
td.exp{background:var(--ok-bg)}
td.got{background:var(--bad-bg)}
.bug{background:var(--warn-bg);border-left:4px solid var(--warn);padding:.3rem .6rem;margin:.3rem 0;overflow-wrap:anywhere}
.info{background:var(--info-bg);border-left:4px solid var(--link);padding:.3rem .6rem;margin:.3rem 0}
.info p{margin:.1rem 0;overflow-wrap:anywhere}
.repro{margin:.4rem 0}
.repro-row{display:flex;gap:.4rem;align-items:flex-start}
.repro pre{flex:1;min-width:0}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.45rem .6rem;margin:.2rem 0;overflow:auto;max-height:28rem;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre}
pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
button.copy{font:inherit;font-size:.85rem;border:1px solid var(--line);background:var(--panel);color:var(--fg);border-radius:6px;padding:.35rem .7rem;cursor:pointer;min-height:2.2rem;white-space:nowrap}
button.copy:hover{border-color:var(--link)}
details>summary{cursor:pointer;color:var(--link)}
.passed-list{columns:14rem;font-size:.9rem}
.anchor{display:block;height:0}
.many .sub{display:none}
.many .sub:target,.many .sub.shown,.many.all .sub{display:block}
.many.one>.summary,.many.one>.subs{display:none}
.many.all .sub{content-visibility:auto;contain-intrinsic-size:auto 1800px}
.case:target{outline:3px solid var(--focus);outline-offset:3px}
footer{margin:2rem 0 1rem;color:var(--muted);font-size:.85rem}
@media (max-width:640px){.page{padding:.6rem}table.data thead th,table.data th.num{white-space:normal}.wide{display:none}table.data th,table.data td{padding:.3rem}.clip{max-width:12rem}body{font-size:14px}}
@media print{.many .sub{display:block}.many.one>.summary,.many.one>.subs{display:block}.filters,.subnav,button.copy{display:none}}
${BOARD_CSS}`;

/**
 * A submission at a time (the #hash names it, or a case in it: the summary and the table give way
 * to it), sorting and filtering the submissions table, the reproduce commands' copy buttons.
 * Without the script a submission's link still shows it (CSS :target), under the table.
 */
const SCRIPT_BODY = `(function () {
  'use strict';
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function has(list, value) { return (' ' + (list || '') + ' ').indexOf(' ' + value + ' ') !== -1; }
  function route() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id === '' ? null : document.getElementById(id);
    var sub = target && target.closest ? target.closest('.sub') : null;
    each(document.querySelectorAll('.report.many'), function (report) {
      var all = target !== null && target.classList.contains('all-anchor') && report.contains(target);
      var mine = sub !== null && report.contains(sub);
      report.classList.toggle('all', all);
      report.classList.toggle('one', mine);
      each(report.querySelectorAll('.sub.shown'), function (s) { if (s !== sub) s.classList.remove('shown'); });
      if (mine) sub.classList.add('shown');
    });
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }
  window.addEventListener('hashchange', route);
  route();
  each(document.querySelectorAll('.subs'), function (box) {
    var table = box.querySelector('table.subs-table');
    if (!table) return;
    var body = table.tBodies[0];
    var filters = box.querySelector('.filters');
    if (filters) filters.hidden = false;
    var name = box.querySelector('.f-name');
    var cat = box.querySelector('.f-cat');
    var kase = box.querySelector('.f-case');
    var count = box.querySelector('.f-count');
    function apply() {
      var q = name ? name.value.trim().toLowerCase() : '';
      var c = cat ? cat.value : '';
      var k = kase ? kase.value : '';
      var shown = 0;
      each(body.rows, function (row) {
        var ok = (q === '' || row.getAttribute('data-name').indexOf(q) !== -1) &&
          (c === '' || has(row.getAttribute('data-cats'), c)) &&
          (k === '' || has(row.getAttribute('data-cases'), k));
        row.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = 'Showing ' + shown + ' of ' + body.rows.length + ' submissions';
    }
    each([name, cat, kase], function (control) {
      if (control) control.addEventListener(control.tagName === 'INPUT' ? 'input' : 'change', apply);
    });
    each(table.querySelectorAll('th button[data-sort]'), function (button) {
      button.addEventListener('click', function () {
        var key = button.getAttribute('data-sort');
        var th = button.parentNode;
        var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        each(table.querySelectorAll('thead th'), function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir);
        var sign = dir === 'ascending' ? 1 : -1;
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.getAttribute('data-' + key);
          var y = b.getAttribute('data-' + key);
          var d = key === 'name' ? x.localeCompare(y) : Number(x) - Number(y);
          return d * sign || Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index'));
        });
        each(rows, function (row) { body.appendChild(row); });
      });
    });
    apply();
  });
  document.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('button.copy') : null;
    if (!button) return;
    var code = button.parentNode.querySelector('code');
    if (!code) return;
    var text = code.textContent;
    function said(what) {
      button.textContent = what;
      setTimeout(function () { button.textContent = 'Copy'; }, 1800);
    }
    function select() {
      var range = document.createRange();
      range.selectNodeContents(code);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      said(ok ? 'Copied' : 'Selected: press Ctrl+C');
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { said('Copied'); }, select);
    else select();
  });
})();`;

/** The script element's text: the code inside a CDATA section that JavaScript reads as comments. */
export const REPORT_SCRIPT = `/*<![CDATA[*/\n${SCRIPT_BODY}\n/*]]>*/`;
