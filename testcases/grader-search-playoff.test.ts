/**
 * A heuristic's playoff, the reference alpha-beta run by the grader (GraderSearchPlayer), which asks
 * the submission's process only for heuristic values: a course's Python files over a bridge
 * (CSC384's heuristic_advanced, CPSC 4610's MancalaPlayer.score; evaluate-many over stdio) and the
 * same heuristic as a TypeScript module in the sandbox (SandboxSession.evaluateMany). Both must play
 * exactly the games of agents/alphabeta.ts calling the TypeScript heuristic in this (trusted)
 * process: the same playoff case, the same games, move for move (outcomes, final stores, lengths).
 * Then the search alone, without the leaves fetched ahead, on random positions: the same move and
 * value as the reference alpha-beta run here with the TypeScript heuristic.
 * Real python3, the real sandbox.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findAgent } from '../agents/index.ts';
import type { Player } from '../framework/contracts/game.ts';
import type { Attempt, MoveAsker } from '../framework/sandbox/exchange.ts';
import { boardToState } from '../framework/games/mancala/board-io/board.ts';
import type { Heuristic } from '../framework/contracts/heuristic.ts';
import { stateToBoard } from '../framework/games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { GraderSearchPlayer } from '../framework/grading/grader-search-player.ts';
import { createRandom } from '../framework/random.ts';
import { prepareSubmission } from '../framework/sandbox/submissions/prepare.ts';
import { SandboxSession } from '../framework/sandbox/session.ts';
import { StdioAgentSession } from '../framework/sandbox/stdio-agents/session.ts';
import { findStdioAgent } from '../framework/sandbox/stdio-agents/spec.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { createGame } from '../framework/suites/game.ts';
import { loadSuite } from '../framework/suites/load.ts';
import type { Suite } from '../framework/suites/types.ts';
import { playPlayoff, submissionOptions, type PlayoffResult } from '../graders/playoff.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'grader-search-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The fixtures' heuristics in TypeScript, as the Python computes them (the same floating-point
 * operations in the same order): CSC384's utils.heuristic_advanced and CPSC 4610's MancalaPlayer.score.
 */
const TS_HEURISTICS = {
  csc384: `export default { name: 'heuristic_advanced', evaluate(s, p, g) {
  const sum = (row) => row.reduce((a, b) => a + b, 0);
  return 2 * (g.store(s, p) - g.store(s, 1 - p)) + sum(g.row(s, p)) - sum(g.row(s, 1 - p));
} };\n`,
  cpsc4610: `export default { name: 'score', evaluate(s, p, g) {
  const sum = (row) => row.reduce((a, b) => a + b, 0);
  const mine = g.row(s, p), theirs = g.row(s, 1 - p), myStore = g.store(s, p), theirStore = g.store(s, 1 - p);
  if (sum(mine) === 0 || sum(theirs) === 0) {
    const final = myStore + sum(mine) - theirStore - sum(theirs);
    return final > 0 ? 1000 + final : final < 0 ? -1000 + final : 0;
  }
  let value = 2 * (myStore - theirStore);
  value += 0.75 * (sum(mine) - sum(theirs));
  const n = mine.length;
  for (let cup = 0; cup < n; cup++) {
    if (mine[cup] === n - cup) value += 1;
    if (theirs[cup] === n - cup) value -= 1;
  }
  return value;
} };\n`,
};

const COURSES = [
  { course: 'csc384', suite: 'csc384-hidden', caseId: 'advanced-heuristic-playoff', role: 'heuristic_advanced', python: 'testcases/fixtures/course-apis/csc384/full-marks' },
  { course: 'cpsc4610', suite: 'cpsc4610-hidden', caseId: 'score-playoff-equal-depth', role: 'score', python: 'testcases/fixtures/course-apis/cpsc4610/full-marks' },
] as const;

/** The TypeScript submission holding only the heuristic. */
function tsHeuristic(course: keyof typeof TS_HEURISTICS, role: string): string {
  const dir = join(work, course);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${role}.js`), TS_HEURISTICS[course]);
  return dir;
}

async function openStdio(suite: Suite, path: string): Promise<StdioAgentSession> {
  const spec = (await findStdioAgent(join(ROOT, path)))!;
  expect(spec.evaluates).toBe(true);
  return StdioAgentSession.open(spec, { memoryMb: 256 }, { game: suite.manifest.game, sandbox: 'full' });
}

/**
 * The reference path in this process: agents/alphabeta.ts calling `heuristic` itself, with the
 * case's search options and seed (no deadline: the search is depth-limited, as the grader's is).
 */
function inProcessReference(game: MancalaGame, heuristic: Heuristic<MancalaState>): MoveAsker {
  return {
    async chooseMove(board, player, options): Promise<Attempt> {
      const state = boardToState(game, board, player);
      const search = { depth: options.depth, unit: options.unit, caching: options.caching, terminal: options.terminal };
      const outcome = await runAgent(findAgent('alphabeta')!, { game, state, heuristic, options: search, random: createRandom(options.seed ?? 0) });
      const { move, value } = outcome.choice;
      return { status: 'ok', observation: { move, ...(value !== undefined ? { value } : {}), nodes: outcome.nodes, evaluations: outcome.evaluations, ms: 0 }, ms: 0 };
    },
  };
}

/** `asker`, writing down every move it answers with its value, in order: the games compared move for move. */
function recording(asker: MoveAsker, moves: string[]): MoveAsker {
  return {
    async chooseMove(board, player, options, timeLimitMs) {
      const a = await asker.chooseMove(board, player, options, timeLimitMs);
      moves.push(a.status === 'ok' ? `${JSON.stringify(board)} ${a.observation.move} ${a.observation.value}` : a.status);
      return a;
    },
  };
}

const gamesOf = (r: PlayoffResult) => r.games.map((g) => ({ game: g.index, side: g.side, opening: g.opening, outcome: g.outcome, stores: g.stores, plies: g.plies, forfeit: g.forfeit }));

describe.each(COURSES)('the $course heuristic playoff, its alpha-beta run by the grader', ({ course, suite: suiteName, caseId, role, python }) => {
  it('the Python files and the TypeScript module play the games of the reference alpha-beta calling the heuristic in this process', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases', suiteName));
    const c = suite.cases.find((x) => x.id === caseId)!;
    const input = { manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation: { ms: 0 } };
    const game = createGame(suite.manifest.game) as MancalaGame;
    const folder = tsHeuristic(course, role);
    const heuristic = (await import(join(folder, `${role}.js`))).default as Heuristic<MancalaState>;
    const stdio = await openStdio(suite, python);
    const prepared = await prepareSubmission(folder, { [role]: suite.manifest.roles[role]! });
    const sandboxed = await SandboxSession.open(prepared, { memoryMb: 256 }, { game: suite.manifest.game, sandbox: 'full' });
    try {
      const moves = { reference: [] as string[], python: [] as string[], typescript: [] as string[] };
      const reference = await playPlayoff(input, recording(inProcessReference(game, heuristic), moves.reference));
      const python = await playPlayoff(input, recording(new GraderSearchPlayer(stdio, suite.manifest.game), moves.python));
      const typescript = await playPlayoff(input, recording(new GraderSearchPlayer(sandboxed, suite.manifest.game), moves.typescript));
      expect(gamesOf(python)).toEqual(gamesOf(reference));
      expect(gamesOf(typescript)).toEqual(gamesOf(reference));
      expect(moves.reference.length).toBeGreaterThan(20);
      expect(moves.python).toEqual(moves.reference);
      expect(moves.typescript).toEqual(moves.reference);
      expect(python.forfeits + typescript.forfeits).toBe(0);
      // Games that differ from one another: the comparison is not of one game played many times.
      expect(new Set(reference.games.map((g) => JSON.stringify(g.stores))).size).toBeGreaterThan(2);
    } finally {
      await stdio.close();
      await sandboxed.close();
      await prepared.dispose();
    }
  }, 240_000);

  it('asking only the leaves the search reaches, round after round: the move and value of the reference alpha-beta with the TypeScript heuristic', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases', suiteName));
    const c = suite.cases.find((x) => x.id === caseId)!;
    const options = submissionOptions({ manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation: { ms: 0 } });
    const game = createGame(suite.manifest.game) as MancalaGame;
    const heuristic = (await import(join(tsHeuristic(course, role), `${role}.js`))).default as Heuristic<MancalaState>;
    const stdio = await openStdio(suite, python);
    const lazy = new GraderSearchPlayer(stdio, suite.manifest.game, 0);
    try {
      let searched = 0;
      for (let seed = 1; searched < 25; seed++) {
        const random = createRandom(seed);
        let state = game.initial();
        for (let i = 0, plies = 2 + (seed % 30); i < plies && !game.isOver(state); i++) {
          const moves = game.legalMoves(state);
          state = game.play(state, moves[Math.floor(random() * moves.length)]!);
        }
        if (game.isOver(state)) continue;
        searched++;
        const want = await runAgent(findAgent('alphabeta')!, { game, state, heuristic, options: { depth: options.depth, unit: options.unit, terminal: options.terminal }, random: createRandom(0) });
        const got = await lazy.chooseMove(stateToBoard(game, state), game.toMove(state) as Player, options, 60_000);
        expect(got.status, got.status === 'ok' ? '' : got.message).toBe('ok');
        if (got.status === 'ok') expect({ seed, move: got.observation.move, value: got.observation.value }).toEqual({ seed, move: want.choice.move, value: want.choice.value });
      }
    } finally {
      await stdio.close();
    }
  }, 240_000);
});
