/**
 * A heuristic's playoff for a course's Python files (CSC384's heuristic_advanced, CPSC 4610's
 * MancalaPlayer.score): the reference alpha-beta runs in the grader (GraderSearchPlayer), asking
 * the bridge's process only for heuristic values (evaluate-many). It must play exactly the games
 * the TypeScript reference path plays (the player session: the reference alpha-beta in its own
 * sandboxed process with a TypeScript heuristic): here, the same heuristic written in TypeScript,
 * the same playoff case, the same games, move for move (outcomes, final stores, lengths).
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

/** The TypeScript submission holding only the heuristic, as the player session loads it. */
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

const gamesOf = (r: PlayoffResult) => r.games.map((g) => ({ game: g.index, side: g.side, opening: g.opening, outcome: g.outcome, stores: g.stores, plies: g.plies, forfeit: g.forfeit }));

describe.each(COURSES)('the $course heuristic playoff, its alpha-beta run by the grader', ({ course, suite: suiteName, caseId, role, python }) => {
  it('plays the same games as the TypeScript reference path with the same heuristic', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases', suiteName));
    const c = suite.cases.find((x) => x.id === caseId)!;
    const input = { manifest: suite.manifest, case: c, expected: suite.expected[c.id]!, observation: { ms: 0 } };
    const stdio = await openStdio(suite, python);
    const prepared = await prepareSubmission(tsHeuristic(course, role), { [role]: suite.manifest.roles[role]! });
    const players = await SandboxSession.open(prepared, { memoryMb: 256 }, { game: suite.manifest.game, sandbox: 'full', runtime: 'player' });
    try {
      const grader = await playPlayoff(input, new GraderSearchPlayer(stdio, suite.manifest.game));
      const reference = await playPlayoff(input, players);
      expect(gamesOf(grader)).toEqual(gamesOf(reference));
      expect(grader.forfeits).toBe(0);
      // Games that differ from one another: the comparison is not of one game played many times.
      expect(new Set(grader.games.map((g) => JSON.stringify(g.stores))).size).toBeGreaterThan(2);
    } finally {
      await stdio.close();
      await players.close();
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
