/**
 * The csci561 suites (public and hidden): their input files say what their cases ask, their
 * blessed answers are exactly the course's reference solution's on those files, and `mancala grade`
 * gives the example submissions what they deserve: full marks for csci561-reference, points lost
 * in every search category by csci561-off-by-one with each failure naming the depth off by one,
 * and alice (an alpha-beta agent written for kalah-basics) matching Greedy and Alpha-Beta.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../framework/cli/main.ts';
import { boardToState, parseCsci561Input, writeCsci561NextState } from '../../framework/games/mancala/board-io/index.ts';
import type { SubmissionReport } from '../../framework/grading/report.ts';
import { blessSuite } from '../../framework/suites/bless.ts';
import { loadSuite } from '../../framework/suites/load.ts';
import { solveCsci561 } from '../../agents/reference/csci561-task.ts';
import { csci561Game } from '../../framework/packs/csci561/game.ts';
import { alphaBeta } from '../../agents/reference/alphabeta.ts';
import { minimax } from '../../agents/reference/minimax.ts';
import basic from '../../agents/heuristics/basic.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SUITES = ['testcases/csci561-public', 'testcases/csci561-hidden'];
const TASK_OF_ROLE: Record<string, number> = { greedy: 1, minimax: 2, agent: 3 };
const work = mkdtempSync(join(tmpdir(), 'csci561-suites-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(SUITES)('%s', (dir) => {
  it('is blessed and up to date', async () => {
    const suite = await loadSuite(join(root, dir));
    expect(suite.cases).toHaveLength(30);
    expect((await blessSuite(suite)).changed).toEqual([]);
  });

  it("each case's input.txt says its task and depth, and the blessed answers are the reference solution's on it", async () => {
    const suite = await loadSuite(join(root, dir));
    for (const c of suite.cases) {
      // Each case reads inputs/<id>.txt, the input.txt a file-in/file-out program gets.
      const file = `inputs/${c.id}.txt`;
      expect(readFileSync(join(root, dir, c.file), 'utf8'), c.id).toContain(`{file: ../${file}, format: csci561}`);
      const text = readFileSync(join(root, dir, file), 'utf8');
      const input = parseCsci561Input(text, file);
      const task = TASK_OF_ROLE[c.role]!;
      expect(input.csci561!.task, c.id).toBe(task);
      expect(c.options.depth, c.id).toBe(task === 1 ? 1 : input.csci561!.depth);
      expect([input.top, input.bottom, input.topStore, input.bottomStore, input.toMove], c.id).toEqual([
        c.board.top,
        c.board.bottom,
        c.board.topStore,
        c.board.bottomStore,
        c.board.toMove,
      ]);

      const expected = suite.expected[c.id]!;
      const solved = solveCsci561(text, file);
      // The log the suite holds is the course's traverse_log.txt, line for line.
      if (task !== 1) expect(expected.trace, c.id).toEqual(solved.traverseLog);
      // The move the suite expects starts the turn whose end is the course's next_state.txt.
      const pits = input.top.length;
      const game = csci561Game(pits);
      const start = boardToState(game, input);
      let s = game.play(start, expected.move!);
      const search = task === 3 ? alphaBeta : minimax;
      while (!game.isOver(s) && game.toMove(s) === game.toMove(start)) {
        s = game.play(s, search({ game, heuristic: basic, depth: task === 1 ? 1 : input.csci561!.depth, unit: 'turn', terminal: 'score' }, s).move);
      }
      expect(writeCsci561NextState(game, s), c.id).toBe(solved.nextState);
    }
  });
});

async function grade(dir: string, ...submissions: string[]): Promise<SubmissionReport[]> {
  const json = join(work, `${dir.replace(/\W+/g, '_')}-${submissions.length}.json`);
  let err = '';
  const code = await main(['grade', ...submissions.map((s) => join(root, 'agents', s)), '--suite', join(root, dir), '--json', json], {
    out: () => {},
    err: (t) => void (err += t),
  });
  expect(code, err).toBe(0);
  return (JSON.parse(readFileSync(json, 'utf8')) as { submissions: SubmissionReport[] }).submissions;
}

const byCategory = (s: SubmissionReport): Record<string, [number, number]> => {
  const out: Record<string, [number, number]> = {};
  for (const c of s.cases) {
    const [got, max] = out[c.category] ?? [0, 0];
    out[c.category] = [got + c.score, max + c.maxScore];
  }
  return out;
};

describe.each(SUITES)('mancala grade on %s', (dir) => {
  it('gives csci561-reference full marks and takes points from csci561-off-by-one in each search category, naming its bug', async () => {
    const [reference, offByOne] = await grade(dir, 'examples/csci561-reference', 'examples/csci561-off-by-one');
    expect(reference!.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(reference!.score).toBe(reference!.maxScore);
    expect(reference!.maxScore).toBe(30);

    const categories = byCategory(offByOne!);
    expect(Object.keys(categories).sort()).toEqual(['alpha-beta', 'greedy', 'minimax']);
    for (const [name, [got, max]] of Object.entries(categories)) expect(got, name).toBeLessThan(max);
    const failed = offByOne!.cases.filter((c) => c.status !== 'passed');
    for (const c of failed) {
      expect(c.status, c.id).toBe('failed');
      const depth = c.id.startsWith('greedy') ? 1 : Number(/-d(\d)-/.exec(c.id)![1]);
      expect(c.message, c.id).toContain(`likely bug: Your search matches the reference with depth ${depth + 1} instead of ${depth}, the depth off by one`);
    }
  });
});

describe('alice (an alpha-beta agent written for kalah-basics) on csci561-public', () => {
  it('matches Greedy and Alpha-Beta, and has no MiniMax module', async () => {
    const [alice] = await grade('testcases/csci561-public', 'examples/alice');
    const categories = byCategory(alice!);
    expect(categories['greedy']![0]).toBe(categories['greedy']![1]);
    expect(categories['alpha-beta']![0]).toBe(categories['alpha-beta']![1]);
    expect(alice!.cases.filter((c) => c.category === 'minimax').every((c) => c.status === 'error' && /no module found for role minimax/.test(c.message))).toBe(true);
  });
});
