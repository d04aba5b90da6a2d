/**
 * `suite bless`: deterministic (twice gives the same bytes, and the shipped expected.json files
 * are what it writes), its answers agree with the reference search run directly on the same
 * position, and it reports what changed.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { countingHeuristic } from '../contracts/heuristic.ts';
import { collectTrace } from '../contracts/search-trace.ts';
import { boardToState, stateToBoard } from '../games/mancala/board-io/index.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { renderTraverseLog } from '../search/traverse-log.ts';
import { setupPosition } from '../cli/game-setup.ts';
import { planSearch, runSearch } from '../cli/commands/search.ts';
import basic from '../../agents/heuristics/basic.ts';
import { alphaBeta } from '../../agents/reference/alphabeta.ts';
import { blessSuite, canonicalTrace, formatExpected, writeExpected } from './bless.ts';
import { EXPECTED_FILE } from './expected.ts';
import { loadSuite } from './load.ts';
import type { Expected, Suite } from './types.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SUITES = ['testcases/kalah-basics', 'testcases/hidden-example'].map((d) => join(root, d));
const work = mkdtempSync(join(tmpdir(), 'suite-bless-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('determinism', () => {
  it.each(SUITES)('%s: blessing from nothing twice gives the same bytes, equal to the shipped expected.json', async (dir) => {
    const copy = join(work, dir.split('/').pop()!);
    cpSync(dir, copy, { recursive: true });
    rmSync(join(copy, EXPECTED_FILE));

    const first = await blessSuite(await loadSuite(copy));
    expect(first.added.length).toBe(first.changed.length);
    writeExpected(copy, first.expected);
    const bytes = readFileSync(join(copy, EXPECTED_FILE), 'utf8');

    const second = await blessSuite(await loadSuite(copy));
    expect(second.changed).toEqual([]);
    writeExpected(copy, second.expected);
    expect(readFileSync(join(copy, EXPECTED_FILE), 'utf8')).toBe(bytes);

    expect(bytes.endsWith('}\n')).toBe(true);
    expect(bytes).toBe(readFileSync(join(dir, EXPECTED_FILE), 'utf8'));
  });

  it('keys are sorted at every level and nothing but the answers is stored', async () => {
    const suite = await loadSuite(SUITES[0]!);
    const text = formatExpected(suite.expected);
    const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>;
    expect(Object.keys(parsed)).toEqual(Object.keys(parsed).sort());
    const fields = ['hash', 'move', 'moveName', 'value', 'nodes', 'evaluations', 'trace', 'nextState', 'heuristicValue'];
    for (const entry of Object.values(parsed)) {
      expect(Object.keys(entry)).toEqual(Object.keys(entry).sort());
      for (const key of Object.keys(entry)) expect(fields).toContain(key);
    }
    // Only what the checks compare: a move-only case stores its move and nothing else.
    expect(parsed['start-depth-1']).toEqual({ hash: expect.any(String), move: 2, moveName: 'B2' });
    expect(parsed['playoff-vs-random']).toEqual({ hash: expect.any(String) });
  });
});

describe('the answers are the reference search run directly', () => {
  // Kalah at the case's own board size: a suite may mix sizes.
  const kalah = (pits: number) => new MancalaGame({ ...PROFILES.kalah!.rules, pits }, 'kalah');

  async function checkSuite(suite: Suite): Promise<number> {
    const result = await blessSuite(suite);
    let compared = 0;
    for (const c of suite.cases) {
      const e: Expected = result.expected[c.id]!;
      const game = kalah(c.board.top.length);
      const state = boardToState(game, c.board);
      if (suite.manifest.roles[c.role]!.kind === 'heuristic') {
        if (!c.checks.heuristicValue) continue; // a heuristic's playoff needs no reference answer
        expect(e.heuristicValue, c.id).toBe(basic.evaluate(state, game.toMove(state), game));
        compared++;
        continue;
      }
      if (Object.keys(c.checks).every((k) => k === 'playoff' || k === 'time')) continue;
      const trace = collectTrace();
      const direct = alphaBeta(
        {
          game,
          heuristic: countingHeuristic(basic, game),
          depth: c.options.depth,
          unit: c.options.unit!,
          terminal: c.options.terminal!,
          caching: c.options.caching,
          trace: trace.sink,
        },
        state,
      );
      if (c.checks.move) expect([e.move, e.moveName], c.id).toEqual([direct.move, game.moveName(state, direct.move)]);
      if (c.checks.value) expect(e.value, c.id).toBe(direct.value);
      if (c.checks.nodes) expect(e.nodes, c.id).toBe(direct.nodes);
      if (c.checks.evaluations) expect(e.evaluations, c.id).toBe(game.counters.evaluations);
      if (c.checks.nextState) expect(e.nextState, c.id).toEqual(stateToBoard(game, game.play(state, direct.move)));
      if (c.checks.trace?.format === 'events') expect(e.trace, c.id).toEqual(canonicalTrace(trace.events));
      if (c.checks.trace?.format === 'traverse-log') expect(e.trace, c.id).toEqual(renderTraverseLog(trace.events, { alphaBeta: true }));
      compared++;
    }
    return compared;
  }

  it('kalah-basics', async () => {
    expect(await checkSuite(await loadSuite(SUITES[0]!))).toBe(20);
  });

  it('hidden-example', async () => {
    expect(await checkSuite(await loadSuite(SUITES[1]!))).toBe(7);
  });

  it('agrees with `mancala search` on a board file', async () => {
    const suite = await loadSuite(SUITES[0]!);
    const setup = setupPosition({ game: 'mancala', rules: 'kalah', board: join(SUITES[0]!, 'boards/midgame.csc384.txt'), boardFormat: 'csc384', player: 'top' });
    const report = await runSearch(setup, planSearch({ algo: 'alphabeta', depth: 5 }, setup));
    expect(suite.expected['midgame-csc384-file']).toMatchObject({ move: report.move, moveName: report.moveName, value: report.value });
  });

  it('trace values of ±Infinity and ±1e9 are stored as ±1e9', () => {
    const events = canonicalTrace([
      { type: 'enter', name: 'root', level: 0, maximizing: true, value: -Infinity },
      { type: 'update', name: 'root', level: 0, maximizing: true, value: 3, alpha: 3, beta: 2e9 },
    ]);
    expect(events).toEqual([
      { type: 'enter', name: 'root', level: 0, maximizing: true, value: -1e9 },
      { type: 'update', name: 'root', level: 0, maximizing: true, value: 3, alpha: 3, beta: 1e9 },
    ]);
  });
});

describe('what changed', () => {
  it('an edited case is changed, a deleted one removed, a new one added', async () => {
    const dir = join(work, 'changes');
    cpSync(SUITES[0]!, dir, { recursive: true });
    const file = join(dir, 'cases/opening.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text
        .replace('options: {depth: 4}', 'options: {depth: 3}')
        .replace('  - id: start-depth-1\n', '  - id: start-depth-1-renamed\n'),
    );
    const result = await blessSuite(await loadSuite(dir));
    expect(result.added).toEqual(['start-depth-1-renamed']);
    expect(result.removed).toEqual(['start-depth-1']);
    expect(result.changed.sort()).toEqual(['start-depth-1', 'start-depth-1-renamed', 'start-depth-4'].sort());
    expect(Object.hasOwn(result.expected, 'start-depth-1')).toBe(false);
  });

  it('blesses a Tic-Tac-Toe suite with minimax', async () => {
    const dir = join(work, 'ttt');
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(
      join(dir, 'suite.yaml'),
      'name: t\ngame: tictactoe\nvisibility: visible\nroles:\n  agent: {kind: agent, files: agent.ts, reference: minimax}\ncategories: [{name: values, weight: 1}]\n',
    );
    writeFileSync(
      join(dir, 'cases/win.yaml'),
      '- id: win-now\n  category: values\n  position: {tictactoe: "XX_/OO_/___"}\n  checks: {move: true, value: true}\n' +
        '- id: empty-board\n  category: values\n  checks: {value: true}\n',
    );
    const result = await blessSuite(await loadSuite(dir));
    expect(result.expected['win-now']).toMatchObject({ move: 2, value: 1 });
    expect(result.expected['empty-board']).toMatchObject({ value: 0 });
  });
});
