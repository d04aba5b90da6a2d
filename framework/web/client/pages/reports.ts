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
import type { FolderListing, ReportSummary } from '../../shared/api.ts';
import { api, ApiFailure, query } from '../api.ts';
import { h, replace } from '../dom.ts';
import type { Page, PageContext } from '../router.ts';

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Points as the report shows them: whole, or to two decimals. */
function points(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, '');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function mount(outlet: HTMLElement, ctx: PageContext): () => void {
  const p = ctx.params;
  let path = p.get('path') ?? undefined;
  // The folder listed: the one asked for, else the opened file's.
  let dir = p.get('dir') ?? (path !== undefined && path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  /** what the frame shows: undefined the class page, "3" submission 3, "all" every submission */
  let submission = p.get('submission') ?? undefined;
  let mounted = true;

  // ---- the file browser ----
  const crumbs = h('nav', { class: 'crumbs', 'aria-label': 'folder' });
  const files = h('ul', { class: 'files', id: 'report-files' });
  const side = h(
    'aside',
    { class: 'reports-side' },
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Open a report'),
      h('p', { class: 'hint-text' }, 'Grade reports written by ', h('code', {}, 'mancala grade … --json FILE'), ' (or csci561-grade, gauntlet, a shard of one).'),
      crumbs,
      files,
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
    ctx.setParams({ dir: dir === '' ? undefined : dir, path, submission });
  }

  /** The address of the page the frame shows. */
  function pageUrl(view: string, which: string | undefined): string {
    return which === undefined ? view : `${view}&submission=${encodeURIComponent(which)}`;
  }

  function markCurrent(): void {
    const prefix = dir === '' ? '' : `${dir}/`;
    for (const li of Array.from(files.querySelectorAll<HTMLElement>('li.file'))) li.classList.toggle('current', `${prefix}${li.dataset['name'] ?? ''}` === path);
  }

  function hideViewer(): void {
    viewer.hidden = true;
    empty.hidden = false;
    frame.removeAttribute('src');
  }

  function show(s: ReportSummary): void {
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
    markCurrent();
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
    try {
      s = await api<ReportSummary>('GET', `/api/report${query({ path: file })}`);
    } catch (e) {
      if (!mounted) return;
      hideViewer();
      showError(`Could not open ${file}: ${failure(e)}`);
      saveParams();
      return;
    }
    if (!mounted || path !== file) return;
    path = s.file;
    show(s);
    saveParams();
  }

  // The frame's page is the state: a link followed in it (a submission, back to the table) is written into the address.
  frame.addEventListener('load', () => {
    const win = frame.contentWindow;
    const doc = frame.contentDocument;
    // (A page that arrives after its summary was refused is no longer shown.)
    if (win === null || doc === null || win.location.pathname !== '/reports/view' || viewer.hidden) return;
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

  async function list(folder: string): Promise<void> {
    let listing: FolderListing;
    try {
      listing = await api<FolderListing>('GET', `/api/files${query({ dir: folder === '' ? undefined : folder })}`);
    } catch (e) {
      if (!mounted) return;
      showError(`Could not list ${folder === '' ? 'the folder' : folder}: ${failure(e)}`);
      if (folder !== '') return list('');
      return;
    }
    if (!mounted) return;
    dir = listing.dir;
    const parts = dir === '' ? [] : dir.split('/');
    replace(
      crumbs,
      h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), void list('')) }, 'root'),
      parts.map((part, k) => [' / ', h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), void list(parts.slice(0, k + 1).join('/'))) }, part)]),
    );
    const join = (name: string) => (dir === '' ? name : `${dir}/${name}`);
    const reports = listing.reports;
    replace(
      files,
      listing.folders.map((f) => h('li', { class: 'folder' }, h('a', { href: '#', 'data-folder': f, onclick: (e: Event) => (e.preventDefault(), void list(join(f))) }, `▸ ${f}/`))),
      reports.map((f) =>
        h(
          'li',
          { class: 'file report', 'data-name': f.name },
          h('a', { href: '#', 'data-file': f.name, title: f.suite === undefined ? undefined : `suite ${f.suite}`, onclick: (e: Event) => (e.preventDefault(), void openReport(join(f.name), undefined)) }, f.name),
          h('span', { class: 'size' }, f.suite === undefined ? kib(f.bytes) : `${f.suite} · ${kib(f.bytes)}`),
        ),
      ),
      listing.folders.length + reports.length === 0 ? h('li', { class: 'none' }, 'No grade reports or folders here.') : null,
    );
    markCurrent();
    saveParams();
  }

  void list(dir);
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
