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

  it('leaves how a program was run and built to --verbose and the reports: one line a submission at class scale', () => {
    const routine = [
      'CSCI-561 ran mancala3.py as Python 3: run `python3 mancala3.py -i input.txt`',
      'built once before the cases (`g++ -O2 -o mancala mancala.cpp`), not charged to them: 787 ms of CPU time, 1301 ms in all',
      'start-up not charged to the cases (measured in the sandbox): java: 64 ms of CPU time',
    ];
    const base = sampleReport();
    const withNotes: GradeReport = { ...base, submissions: base.submissions.map((s) => ({ ...s, notes: [...routine, 'mancala.yaml: a symbolic link (refused)'] })) };
    const text = renderConsole(withNotes, { color: false, verbose: false });
    for (const note of routine) expect(text).not.toContain(note);
    expect(text).toContain('  note: mancala.yaml: a symbolic link (refused)');
    expect(renderConsole(withNotes, { color: false, verbose: true })).toContain(routine[1]);
  });

  it("shows the run's notes under the isolation line, before any submission", () => {
    const text = renderConsole({ ...sampleReport(), notes: ['limits overridden for this run: time 500 ms', 'WARNING: all 3 x submissions failed'] }, { color: false, verbose: false });
    expect(text.split('\n').slice(2, 5)).toEqual(['note: limits overridden for this run: time 500 ms', 'note: WARNING: all 3 x submissions failed', '']);
    expect(renderConsole(sampleReport(), { color: false, verbose: false })).not.toContain('\nnote: ');
  });

  it('gives each submission one line: score, cases passed, CPU time, path and its leading reason with the count of the others; notes that matter', () => {
    const text = renderConsole(report, { color: false, verbose: false });
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Suite kalah-basics: 3 submissions',
      'Isolation: each submission ran in its own sandboxed process; the network was NOT cut off. unshare is not available here: the network was reachable',
    ]);
    const cpu = (id: string) => `${(report.submissions.find((s) => s.id === id)!.cases.reduce((t, c) => t + c.ms, 0) / 1000).toFixed(1)} s CPU`;
    expect(block(text, 'alice')).toEqual([
      `alice  2.3 / 15  1 of 6 cases passed  ${cpu('alice')}  submissions/alice  failed (move-02): expected move B3 (value 4), got B4 (value 2)  (+ 4 other reasons in 4 cases)`,
      // which file played a role is routine (--verbose and the reports); a refused symlink is not
      '  note: agents/evil: a symbolic link (refused)',
      // a name or path with a newline stays on its line
      `=HYPERLINK("http://evil.example","click")  4 / 15  all 2 cases passed  ${cpu('=HYPERLINK("http://evil.example","click")')}  submissions/a, "b" c`,
      `bob  15 / 15  all 6 cases passed  ${cpu('bob')}  submissions/bob`,
    ]);
    expect(text).not.toContain('✗');
    expect(text.endsWith('3 submissions: mean 7.1 / 15, 2 with every case passed\n')).toBe(true);
  });

  it('a reason repeated across a submission\'s cases is one line with its count; one shared by several submissions is one line for the class', () => {
    const base = sampleReport();
    const bob = base.submissions[2]!;
    const broken = (id: string, message: string) => ({
      ...bob,
      id,
      path: `class/${id}`,
      score: 0,
      notes: [],
      cases: Array.from({ length: 66 }, (_, k) => ({ ...bob.cases[k % bob.cases.length]!, id: `case-${k}`, status: 'error' as const, score: 0, ms: 0, message })),
    });
    const empty = (id: string) => broken(id, `no submission here: class/${id} (the folder is empty). CSC384 students hand in agent_minimax.py and agent_alphabeta.py\nmore`);
    const report: GradeReport = { ...base, submissions: [empty('ann'), empty('ben'), empty('cal'), broken('dee', 'SyntaxError: Missing parentheses in call to \'print\''), bob] };
    const text = renderConsole(report, { color: false, verbose: false });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('ann'))).toEqual(['ann  0 / 15  0 of 66 cases passed  0.0 s CPU  class/ann  error × 66 cases: no submission here: class/ann (the folder is empty). CSC384 students hand in agent_minimax.py and agent_alphabeta.py']);
    expect(lines.filter((l) => l.startsWith('dee'))).toEqual(["dee  0 / 15  0 of 66 cases passed  0.0 s CPU  class/dee  error × 66 cases: SyntaxError: Missing parentheses in call to 'print'"]);
    // one line a submission, one for the class: the 264 broken cases say their reasons in 5 lines
    expect(lines.filter((l) => l.includes('no submission here'))).toHaveLength(4);
    expect(lines).toContain('3 submissions: error: no submission here: <submission> (the folder is empty). CSC384 students hand in agent_minimax.py and agent_alphabeta.py  (ann, ben, cal)');
    expect(text).not.toMatch(/^1 submissions?:/m);
    expect(lines.length).toBeLessThan(15);
    // --verbose keeps every case
    expect(renderConsole(report, { color: false, verbose: true }).match(/no submission here/g)).toHaveLength(3 * 66);
  });

  it('names each mistake once per submission without --verbose, with the cases it explains: one depth off by one at several depths is one diagnosis', () => {
    const base = sampleReport();
    const bob = base.submissions[2]!;
    const message = (first: string, bug: string) => `${first}\nlikely bug: ${bug}\nposition: kalah(6,4): top [4 4 4 4 4 4] store 0, bottom [4 4 4 4 4 4] store 0, bottom to move`;
    const noPruning = 'Your search matches the reference with no pruning, plain minimax where alpha-beta is expected (same move, value and node count).';
    const offByOne = (d: number, same = 'move, value and node count') => `Your search matches the reference with depth ${d + 1} instead of ${d}, the depth off by one (same ${same}).`;
    const failed = (id: string, msg: string) => ({ ...bob.cases[0]!, id, status: 'failed' as const, message: msg, ms: 100 });
    const cases = [
      failed('nodes-1', message("nodes: expected exactly 92 (the reference's count), got 227", noPruning)),
      failed('nodes-2', message('nodes: expected at most 651, got 3,935', noPruning)),
      failed('move-1', message('move: expected B5 (index 5), got B2 (index 2)', offByOne(2))),
      failed('move-2', message('move: expected B1 (index 1), got B4 (index 4)', offByOne(3))),
      failed('move-3', message('move: expected B3 (index 3), got B0 (index 0)', offByOne(3, 'move and value; your node count was not reported'))),
      failed('nodes-3', message('nodes: expected exactly 7, got 9', noPruning)),
      failed('nodes-4', message('nodes: expected exactly 8, got 10', noPruning)),
      failed('value-1', message('value: expected 4, got 2', offByOne(3))),
      failed('value-2', message('value: expected 6, got 1', offByOne(5))),
      // only a grader's verdict names a bug: a crash printing such a line is not one
      { ...bob.cases[1]!, id: 'crash', status: 'error' as const, message: 'Error: boom\nlikely bug: nothing', ms: 100 },
      failed('plain', 'move: expected B5 (index 5), got B2 (index 2)\nposition: …'),
    ];
    const report: GradeReport = { ...base, submissions: [{ ...bob, score: 0, notes: [], cases }] };
    expect(block(renderConsole(report, { color: false, verbose: false }), 'bob')).toEqual([
      'bob  0 / 15  0 of 11 cases passed  1.1 s CPU  submissions/bob  failed × 4 cases, e.g. move-1: move: expected B5 (index 5), got B2 (index 2)  (+ 5 other reasons in 7 cases)',
      `  likely bug × 4 cases (nodes-1, nodes-2, nodes-3 and 1 more): ${noPruning}`,
      // five "likely bug" lines of one mistake, at depths 2, 3 and 5: one diagnosis, worded as most of its cases word it
      `  likely bug × 5 cases (move-1, move-2, move-3 and 2 more): ${offByOne(3)}`,
    ]);
    // --verbose shows each case's whole message instead, the likely bug within it
    const verbose = renderConsole(report, { color: false, verbose: true });
    expect(verbose.match(/likely bug: Your search/g)).toHaveLength(9);
    expect(verbose).not.toContain('likely bug ×');
  });

  it('a diagnosis of one case names its case; bugs of different kinds stay apart', () => {
    const base = sampleReport();
    const bob = base.submissions[2]!;
    const failed = (id: string, bug: string) => ({ ...bob.cases[0]!, id, status: 'failed' as const, message: `move: expected B5 (index 5), got B2 (index 2)\nlikely bug: ${bug}` });
    const strict = 'Your search matches the reference with pruning on > / < instead of >= / <= (same move, value and node count).';
    const partial = 'Your move and value match the reference with depth 3 instead of 2, the depth off by one (which visits 1,200 nodes), though not your node count (900): that may be one of your bugs, with another one changing the count.';
    const full = 'Your search matches the reference with depth 3 instead of 2, the depth off by one (same move, value and node count).';
    const report: GradeReport = { ...base, submissions: [{ ...bob, notes: [], cases: [failed('a', strict), failed('b', partial), failed('c', full)] }] };
    const lines = renderConsole(report, { color: false, verbose: false }).split('\n').filter((l) => l.startsWith('  likely bug'));
    expect(lines).toEqual([`  likely bug (a): ${strict}`, `  likely bug (b): ${partial}`, `  likely bug (c): ${full}`]);
  });

  it("a student's check (failedCases): each failed case's first line under the submission's line", () => {
    const text = renderConsole(report, { color: false, verbose: false, failedCases: true });
    expect(block(text, 'alice').slice(1, 3)).toEqual(['  ✗ failed   move-02    expected move B3 (value 4), got B4 (value 2)', '  ✗ error    nodes-01   TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more']);
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
      // the escapes and control characters shown, never obeyed (student-text.ts)
      '      \\x1b[31mred\\x1b[0m \\x00nul \\x07bell \\ud800 \\uffff ünïcödé 😀 =cmd()',
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
