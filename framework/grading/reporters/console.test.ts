import { describe, expect, it } from 'vitest';
import type { GradeReport } from '../report.ts';
import { renderCheck, renderConsole } from './console.ts';
import { sampleReport, visibleOnly } from '../../../testcases/fixtures/grade-report.ts';

const ESC = '\u001b';

/** Lines of `text` from the one starting with `start` up to the next blank line. */
function block(text: string, start: string): string[] {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.startsWith(start));
  expect(from).toBeGreaterThanOrEqual(0);
  const to = lines.findIndex((l, i) => i > from && l === '');
  return lines.slice(from, to === -1 ? undefined : to);
}

describe('renderConsole', () => {
  const report = sampleReport();

  it("shows the run's notes under the isolation line, before any submission", () => {
    const text = renderConsole({ ...sampleReport(), notes: ['limits overridden for this run: time 500 ms', 'WARNING: all 3 x submissions failed'] }, { color: false, verbose: false });
    expect(text.split('\n').slice(2, 5)).toEqual(['note: limits overridden for this run: time 500 ms', 'note: WARNING: all 3 x submissions failed', '']);
    expect(renderConsole(sampleReport(), { color: false, verbose: false })).not.toContain('\nnote: ');
  });

  it('gives each submission a header with its score, a line per failed case and a summary per category', () => {
    const text = renderConsole(report, { color: false, verbose: false });
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Suite kalah-basics: 3 submissions',
      'Isolation: each submission ran in its own sandboxed process; the network was NOT cut off. unshare is not available here: the network was reachable',
    ]);
    expect(block(text, 'alice')).toEqual([
      'alice  2.3 / 15  1 of 6 cases passed  submissions/alice',
      '  ✗ failed   move-02    expected move B3 (value 4), got B4 (value 2)',
      '  ✗ error    nodes-01   TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more',
      '  ✗ timeout  nodes-02   no answer within 1000 ms (the limit); the process was killed',
      '  ✗ memory   deep-01    the process went over its 256 MB memory limit',
      '  ✗ failed   secret-02  HIDDEN-ANSWER: won 3 of 10 games',
      '  · move       2 / 4  1 of 2 passed',
      '  · nodes    0.3 / 4  0 of 2 passed',
      '  · playoff    0 / 7  0 of 2 passed',
      '  note: role agent: agent.ts',
      '  note: agents/evil: a symbolic link (refused)',
    ]);
    expect(block(text, 'bob')).toEqual([
      'bob  15 / 15  all 6 cases passed  submissions/bob',
      '  · move     4 / 4  2 of 2 passed',
      '  · nodes    4 / 4  2 of 2 passed',
      '  · playoff  7 / 7  2 of 2 passed',
    ]);
    // a name or path with a newline stays on its header line
    expect(text).toContain('=HYPERLINK("http://evil.example","click")  4 / 15  all 2 cases passed  submissions/a, "b" c\n');
    expect(text.endsWith('3 submissions: mean 7.1 / 15, 2 with every case passed\n')).toBe(true);
  });

  it('names each likely bug once per submission without --verbose, with its cases (what `npm start` prints)', () => {
    const base = sampleReport();
    const bob = base.submissions[2]!;
    const message = (first: string, bug: string) => `${first}\nlikely bug: ${bug}\nposition: kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move`;
    const noPruning = 'Your search matches the reference with no pruning, plain minimax where alpha-beta is expected (same move, value and node count).';
    const offByOne = 'Your search matches the reference with depth 3 instead of 2, the depth off by one (same move, value and node count).';
    const failed = (id: string, msg: string) => ({ ...bob.cases[0]!, id, status: 'failed' as const, message: msg });
    const cases = [
      failed('nodes-1', message("nodes: expected exactly 92 (the reference's count), got 227", noPruning)),
      failed('nodes-2', message('nodes: expected at most 651, got 3,935', noPruning)),
      failed('move-1', message('move: expected B5 (index 5), got B2 (index 2)', offByOne)),
      failed('nodes-3', message('nodes: expected exactly 7, got 9', noPruning)),
      failed('nodes-4', message('nodes: expected exactly 8, got 10', noPruning)),
      // only a grader's verdict names a bug: a crash printing such a line is not one
      { ...bob.cases[1]!, id: 'crash', status: 'error' as const, message: 'Error: boom\nlikely bug: nothing' },
      failed('plain', 'move: expected B5 (index 5), got B2 (index 2)\nposition: …'),
    ];
    const report: GradeReport = { ...base, submissions: [{ ...bob, score: 0, notes: [], cases }] };
    expect(block(renderConsole(report, { color: false, verbose: false }), 'bob').slice(0, 10)).toEqual([
      'bob  0 / 15  0 of 7 cases passed  submissions/bob',
      "  ✗ failed  nodes-1  nodes: expected exactly 92 (the reference's count), got 227",
      '  ✗ failed  nodes-2  nodes: expected at most 651, got 3,935',
      '  ✗ failed  move-1   move: expected B5 (index 5), got B2 (index 2)',
      '  ✗ failed  nodes-3  nodes: expected exactly 7, got 9',
      '  ✗ failed  nodes-4  nodes: expected exactly 8, got 10',
      '  ✗ error   crash    Error: boom',
      '  ✗ failed  plain    move: expected B5 (index 5), got B2 (index 2)',
      `  likely bug (nodes-1, nodes-2, nodes-3 and 1 more): ${noPruning}`,
      `  likely bug (move-1): ${offByOne}`,
    ]);
    // --verbose shows each case's whole message instead, the likely bug within it
    const verbose = renderConsole(report, { color: false, verbose: true });
    expect(verbose.match(/likely bug: Your search/g)).toHaveLength(5);
    expect(verbose).not.toContain('likely bug (');
  });

  it('verbose: passed cases too, and whole messages, indented', () => {
    const text = renderConsole(report, { color: false, verbose: true });
    const alice = block(text, 'alice');
    expect(alice.slice(0, 7)).toEqual([
      'alice  2.3 / 15  1 of 6 cases passed  submissions/alice',
      '  ✓ passed   move-01  opening, "free turn" pit',
      '  ✗ failed   move-02',
      '      expected move B3 (value 4), got B4 (value 2)',
      '      position: 4,4,4,4,4,4 / 4,4,4,4,4,4',
      '      reproduce: mancala search --rules kalah --depth 4',
      '  ✗ error    nodes-01',
    ]);
    expect(alice).toContain('        at chooseMove (agent.ts:12:5)');
    expect(block(text, 'bob')).toContain('  ✓ passed  deep-01');
  });

  it('never lets student text drive the terminal: no escape or control character without color', () => {
    for (const verbose of [false, true]) {
      const text = renderConsole(report, { color: false, verbose });
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Cs}/u);
    }
  });

  it('with color: only our own SGR sequences', () => {
    const text = renderConsole(report, { color: true, verbose: true });
    expect(text).toContain(`${ESC}[31m✗${ESC}[39m`);
    expect(text).toContain(`${ESC}[32m✓${ESC}[39m`);
    const sequences = text.match(/\u001b\[[0-9;]*m/g) ?? [];
    expect(new Set(sequences)).toEqual(new Set(['1', '22', '2', '31', '39', '32', '33'].map((n) => `${ESC}[${n}m`)));
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).toBe(renderConsole(report, { color: false, verbose: true }));
  });
});

describe('renderCheck', () => {
  it('lists every visible case with ✓ or ✗, whole messages for failures, and what to do', () => {
    const text = renderCheck(visibleOnly(sampleReport()), { color: false });
    expect(block(text, 'kalah-basics: submissions/alice')).toEqual([
      'kalah-basics: submissions/alice',
      '  ✓ [move] move-01 — opening, "free turn" pit',
      '  ✗ [move] move-02',
      '      expected move B3 (value 4), got B4 (value 2)',
      '      position: 4,4,4,4,4,4 / 4,4,4,4,4,4',
      '      reproduce: mancala search --rules kalah --depth 4',
      '  ✗ [nodes] nodes-01 (error)',
      '      TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more',
      '        at chooseMove (agent.ts:12:5)',
      '      red nul bell   ünïcödé 😀 =cmd()',
      '  ✗ [nodes] nodes-02 (timeout)',
      '      no answer within 1000 ms (the limit); the process was killed',
      '  note: role agent: agent.ts',
      '  note: agents/evil: a symbolic link (refused)',
      '3 of 4 cases failed — fix these before submitting',
    ]);
    expect(block(text, 'kalah-basics: submissions/bob')).toEqual([
      'kalah-basics: submissions/bob',
      '  ✓ [move] move-01',
      '  ✓ [move] move-02',
      '  ✓ [nodes] nodes-01',
      '  ✓ [nodes] nodes-02',
      'all 4 visible cases passed',
    ]);
  });

  it('never shows a case that is not visible, even when the report holds one', () => {
    const report = sampleReport();
    const text = renderCheck(report, { color: true });
    for (const secret of ['deep-01', 'secret-02', 'HIDDEN-ANSWER', 'playoff', 'memory limit']) expect(text).not.toContain(secret);
    expect(text).toContain('3 of 4 cases failed');
  });

  it('says so when nothing is visible, and words one failure in the singular', () => {
    const report = sampleReport();
    const hidden: GradeReport = { ...report, submissions: [{ ...report.submissions[2]!, cases: report.submissions[2]!.cases.map((c) => ({ ...c, visibility: 'hidden' as const })) }] };
    expect(renderCheck(hidden, { color: false })).toBe('kalah-basics: submissions/bob\nno visible cases to check\n');
    const one: GradeReport = { ...report, submissions: [{ ...report.submissions[0]!, notes: [], cases: report.submissions[0]!.cases.slice(0, 2) }] };
    expect(renderCheck(one, { color: false }).endsWith('\n1 of 2 cases failed — fix it before submitting\n')).toBe(true);
  });
});
