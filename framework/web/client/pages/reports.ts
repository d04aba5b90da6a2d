/**
 * Reports: a grade report (`mancala grade --json FILE`; csci561-grade's, gauntlet's, a shard's)
 * as pages: the class summary (the histogram of scores, each case's pass rate) and its table of
 * submissions, and a page a submission with each case that did not pass drawn out — the position
 * on a board, expected against got, the reproduce command. The file is chosen from the server's
 * folder; the address keeps what is shown: `#/reports?path=grade.json&submission=3`.
 *
 * The server checks the file (GET /api/report: a malformed one is its one line, naming the file
 * and the line or field) and renders the pages (GET /reports/view: server/report-pages.ts, from
 * the `--html` report's own parts); this page shows them in a frame. A frame, not the pages drawn
 * here from JSON: the parts exist and escape every string a student wrote, a class of 200 is
 * markup the browser lays out faster than a script would build it, and the page's links and the
 * browser's Back work inside the frame as on any page. The frame has a height of its own, about
 * the window's, and scrolls: its links to a place in a page (a case, the table) then scroll it
 * as they would a tab, and the table's header stays in sight. "Open in its own tab" opens the
 * page shown.
 */
import type { ReportSummary } from '../../shared/api.ts';
import { api, ApiFailure, query } from '../api.ts';
import { h, replace } from '../dom.ts';
import { fileSize, folderPicker, startFolder } from '../folder-picker.ts';
import type { Page, PageContext } from '../router.ts';

/** Points as the report shows them: whole, or to two decimals. */
function points(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, '');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  const p = ctx.params;
  let path = p.get('path') ?? undefined;
  /** what the frame shows: undefined the class page, "3" submission 3, "all" every submission */
  let submission = p.get('submission') ?? undefined;
  /** whether the current report's summary was read (false: refused), once it is known */
  let summary: Promise<boolean> = Promise.resolve(true);
  let mounted = true;

  // ---- the file browser ----
  const picker = folderPicker({
    id: 'report-files',
    dir: startFolder(p.get('dir'), path),
    files: (listing) =>
      listing.reports.map((f) => ({
        name: f.name,
        kind: 'report',
        size: f.suite === undefined ? fileSize(f.bytes) : `${f.suite} · ${fileSize(f.bytes)}`,
        title: f.suite === undefined ? undefined : f.suite === 'similarity' ? 'a similarity report' : `suite ${f.suite}`,
      })),
    none: 'No grade reports or folders here.',
    current: () => path,
    open: (file) => void openReport(file, undefined),
    listed: () => saveParams(),
    showError: (text) => showError(text),
    mounted: () => mounted,
  });
  const side = h(
    'aside',
    { class: 'reports-side' },
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Open a report'),
      h(
        'p',
        { class: 'hint-text' },
        'Grade reports written by ',
        h('code', {}, 'mancala grade … --json FILE'),
        ' (or csci561-grade, gauntlet, a shard of one), and similarity reports (',
        h('code', {}, 'mancala similarity … --json FILE'),
        ').',
      ),
      picker.crumbs,
      picker.files,
    ),
  );

  // ---- the report ----
  const message = h('div', { class: 'message error', role: 'alert', id: 'report-error', hidden: true });
  const empty = h(
    'div',
    { class: 'card empty-view', id: 'report-empty' },
    h('h2', {}, 'No report open'),
    h('p', {}, 'Choose a grade report from the list. To write one in the folder this server reads: ', h('code', {}, 'mancala grade SUBMISSIONS… --suite SUITE --json grade.json'), '.'),
  );
  const title = h('h2', { class: 'report-title', id: 'report-title' });
  const meta = h('p', { class: 'hint-text report-meta', id: 'report-meta' });
  const jump = h('select', { id: 'report-jump' });
  const tab = h('a', { id: 'report-tab', target: '_blank', rel: 'noopener', href: '#' }, 'Open in its own tab');
  const frame = h('iframe', { id: 'report-frame', class: 'report-frame', title: 'the grade report' });
  const viewer = h(
    'div',
    { class: 'report-view', hidden: true },
    h('div', { class: 'report-head' }, h('div', { class: 'report-name' }, title, meta), h('div', { class: 'controls' }, h('label', { class: 'jump', for: 'report-jump' }, 'Show'), jump, tab)),
    frame,
  );
  const main = h('section', { class: 'reports-main' }, message, empty, viewer);
  outlet.appendChild(h('div', { class: 'page reports' }, main, side));

  const showError = (text: string | undefined) => {
    message.hidden = text === undefined;
    message.textContent = text ?? '';
  };
  const failure = (e: unknown) => (e instanceof ApiFailure ? e.message : String(e));

  function saveParams(): void {
    ctx.setParams({ dir: picker.dir === '' ? undefined : picker.dir, path, submission });
  }

  /** The address of the page the frame shows. */
  function pageUrl(view: string, which: string | undefined): string {
    return which === undefined ? view : `${view}&submission=${encodeURIComponent(which)}`;
  }

  function hideViewer(): void {
    viewer.hidden = true;
    empty.hidden = false;
    frame.removeAttribute('src');
  }

  function show(s: ReportSummary): void {
    if (s.similarity !== undefined) {
      title.textContent = 'Similarity';
      meta.textContent = `${s.file} · ${plural(s.similarity.submissions, 'submission')} · ${plural(s.similarity.pairs, 'pair')}, strongest first`;
      replace(jump, h('option', { value: '' }, 'The pairs'));
      jump.value = '';
      frame.title = 'similarity report';
      return;
    }
    const n = s.submissions.length;
    const mean = n === 0 ? 0 : s.submissions.reduce((t, x) => t + x.score, 0) / n;
    const max = n === 0 ? 0 : Math.max(...s.submissions.map((x) => x.maxScore));
    const perfect = s.submissions.filter((x) => x.passed === x.cases).length;
    title.textContent = `Suite ${s.suite}`;
    meta.textContent = `${s.file} · ${plural(n, 'submission')}${n > 0 ? ` · mean ${points(mean)} / ${points(max)} · ${perfect} with every case passed` : ''}`;
    replace(
      jump,
      h('option', { value: '' }, 'The class summary'),
      s.submissions.map((x, k) =>
        h('option', { value: String(k + 1) }, `${k + 1}. ${x.id}: ${points(x.score)} / ${points(x.maxScore)}${x.passed < x.cases ? ` (${x.cases - x.passed} not passed)` : ''}`),
      ),
      n > 1 ? h('option', { value: 'all' }, 'Every submission') : null,
    );
    jump.value = submission ?? '';
    frame.title = `grade report: ${s.suite}`;
  }

  async function openReport(file: string, which: string | undefined): Promise<void> {
    path = file;
    submission = which;
    picker.markCurrent(path);
    // The page and the summary are asked for at once: the server reads the file once (the later request finds it
    // kept), and a class's page, the one that takes time, is on its way while the summary is. A refusal of the
    // summary closes the frame; one of the page alone (a submission the report does not have) is said by the frame.
    showError(undefined);
    empty.hidden = true;
    viewer.hidden = false;
    title.textContent = file;
    meta.textContent = 'Reading the report…';
    replace(jump);
    frame.src = pageUrl(`/reports/view${query({ path: file })}`, which);
    let s: ReportSummary;
    let summaryRead!: (ok: boolean) => void;
    summary = new Promise((resolve) => (summaryRead = resolve));
    try {
      s = await api<ReportSummary>('GET', `/api/report${query({ path: file })}`);
    } catch (e) {
      summaryRead(false);
      if (!mounted) return;
      hideViewer();
      showError(`Could not open ${file}: ${failure(e)}`);
      saveParams();
      return;
    }
    summaryRead(true);
    if (!mounted || path !== file) return;
    path = s.file;
    show(s);
    saveParams();
  }

  // The frame's page is the state: a link followed in it (a submission, back to the table) is written into the address.
  frame.addEventListener('load', async () => {
    const win = frame.contentWindow;
    const doc = frame.contentDocument;
    // (A page that arrives after its summary was refused is no longer shown; one that arrives first waits for the
    // summary, whose refusal is the one said: otherwise the page's showed for a moment, then the summary's.)
    if (win === null || doc === null || win.location.pathname !== '/reports/view' || viewer.hidden) return;
    if (doc.contentType !== 'text/html' && !(await summary)) return;
    const at = new URLSearchParams(win.location.search);
    const which = at.get('submission') ?? undefined;
    if (doc.contentType !== 'text/html') {
      // A refusal (a submission the report does not have, a file changed since): the server's one line of JSON.
      const text = (doc.querySelector('pre') ?? doc.body)?.textContent ?? '';
      let reason = text.trim();
      try {
        const error = (JSON.parse(text) as { error?: unknown }).error;
        if (typeof error === 'string') reason = error;
      } catch {
        // not JSON: shown as it is
      }
      frame.hidden = true;
      showError(`Could not show ${which === undefined ? 'the report' : which === 'all' ? 'every submission' : `submission ${which}`}: ${reason}`);
      submission = which;
      saveParams();
      return;
    }
    frame.hidden = false;
    showError(undefined);
    submission = which;
    jump.value = Array.from(jump.options).some((o) => o.value === (which ?? '')) ? (which ?? '') : '';
    tab.href = `${win.location.pathname}${win.location.search}${win.location.hash}`;
    saveParams();
  });

  jump.addEventListener('change', () => {
    if (path === undefined) return;
    const which = jump.value === '' ? undefined : jump.value;
    frame.src = pageUrl(`/reports/view${query({ path })}`, which);
  });

  void picker.list(picker.dir);
  if (path !== undefined) void openReport(path, submission);

  return () => {
    mounted = false;
  };
}

export const reportsPage: Page = {
  id: 'reports',
  title: 'Reports',
  summary: 'A grade report as pages: the class summary, and each submission with its failing cases drawn out.',
  mount,
};
