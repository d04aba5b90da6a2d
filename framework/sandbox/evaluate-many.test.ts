/**
 * A heuristic's playoff for a TypeScript or JavaScript heuristic module: the reference alpha-beta
 * runs in the grader (grading/grader-search-player.ts) and asks the submission's sandboxed process
 * only for the heuristic's values (SandboxSession.evaluateMany, one request a batch). The runtime
 * that process runs holds no reference search; the values are the module's own, in order; the
 * process loads only the heuristic; its failures read as its own; and the grader's search makes
 * the same move with the same value and counts as the reference alpha-beta calling the same
 * module in this (trusted) process.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import alphabeta from '../../agents/alphabeta.ts';
import type { Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import { stateToBoard, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { GraderSearchPlayer } from '../grading/grader-search-player.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import type { CaseOptions, GameSpec, RoleSpec } from '../suites/types.ts';
import { MAX_BATCH, type ValuesAttempt } from './exchange.ts';
import { childRuntime, runtimeFolder } from './runtime.ts';
import { SandboxSession } from './session.ts';
import { prepareSubmission, type PreparedSubmission } from './submissions/prepare.ts';

const kalah = PROFILES['kalah']!;
const GAME: GameSpec = { kind: 'mancala', profile: 'kalah', rules: kalah.rules, name: 'kalah(6,4)' };
const MIDGAME: BoardSpec = { top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], topStore: 9, bottomStore: 10, toMove: 1 };
const ROLES: Record<string, RoleSpec> = {
  agent: { kind: 'agent', files: ['agent.js'], reference: 'alphabeta' },
  heuristic: { kind: 'heuristic', files: ['heuristic.js'], reference: 'basic' },
};
/** A heuristic with many distinct values (so a wrong order or a wrong side shows): stores, seeds and the side to move. */
const WEIGHED = `export default { name: "weighed", evaluate(s, p, g) {
  const mine = g.row(s, p), theirs = g.row(s, 1 - p);
  let v = 3 * (g.store(s, p) - g.store(s, 1 - p)) + (g.toMove(s) === p ? 0.5 : -0.5);
  for (let i = 0; i < mine.length; i++) v += (mine[i] - theirs[i]) * (i + 1) / 7;
  return v;
} };\n`;
const FIRST_LEGAL_AGENT = 'export default { name: "first", chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[0] };\n';

const scratch: string[] = [];
const opened: { session: SandboxSession; sub: PreparedSubmission }[] = [];
afterAll(async () => {
  for (const { session, sub } of opened) {
    await session.close();
    await sub.dispose();
  }
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function submission(files: Record<string, string>): Promise<{ session: SandboxSession; folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'evaluate-many-test-'));
  scratch.push(folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  const sub = await prepareSubmission(folder, ROLES);
  const session = await SandboxSession.open(sub, { memoryMb: 128 }, { game: GAME });
  opened.push({ session, sub });
  return { session, folder };
}

/** Positions reached by random moves from the start, none of them over. */
function positions(game: MancalaGame, count: number, seed: number): MancalaState[] {
  const random = createRandom(seed);
  const out: MancalaState[] = [];
  while (out.length < count) {
    let state = game.initial();
    for (let i = 0, plies = 1 + Math.floor(random() * 30); i < plies && !game.isOver(state); i++) {
      const moves = game.legalMoves(state);
      state = game.play(state, moves[Math.floor(random() * moves.length)]!);
    }
    if (!game.isOver(state)) out.push(state);
  }
  return out;
}

function messageOf(a: ValuesAttempt): string {
  expect(a.status, JSON.stringify(a)).not.toBe('ok');
  return (a as { message: string }).message;
}

describe('the sandbox runtime', () => {
  it('holds nothing of agents/ (no reference search), and only its bootstrap is on disk', async () => {
    const runtime = await childRuntime();
    expect(runtime.code).toContain('framework/heuristics/basic.ts');
    expect(runtime.code).not.toContain('agents/');
    expect(runtime.code).not.toContain('AlphaBetaSearch');
    expect(runtime.dir).toBe(runtimeFolder());
    expect(runtime.file.startsWith(runtime.dir)).toBe(true);
    for (const name of readdirSync(runtime.dir)) {
      const text = readFileSync(join(runtime.dir, name), 'utf8');
      expect(text).not.toContain('agents/');
      expect(text).not.toContain('AlphaBetaSearch');
    }
    expect(readFileSync(runtime.file, 'utf8')).toContain('new Script(');
  });
});

describe('evaluateMany', () => {
  it("answers the heuristic's values of many positions, in order, from the side asked, as the module computes them here", async () => {
    const { session, folder } = await submission({ 'heuristic.js': WEIGHED, 'agent.js': FIRST_LEGAL_AGENT });
    const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
    const heuristic = (await import(join(folder, 'heuristic.js'))).default as Heuristic<MancalaState>;
    const states = positions(game, 300, 5);
    for (const side of [0, 1] as const) {
      const got = await session.evaluateMany('heuristic', GAME, side, states, 10_000);
      expect(got.status, JSON.stringify(got).slice(0, 300)).toBe('ok');
      if (got.status === 'ok') {
        expect(got.values).toEqual(states.map((s) => heuristic.evaluate(s, side, game)));
        expect(new Set(got.values).size).toBeGreaterThan(100);
        expect(got.ms).toBeGreaterThan(0);
      }
    }
  });

  it('answers a full batch (MAX_BATCH positions, the most the grader sends in one request)', async () => {
    const { session, folder } = await submission({ 'heuristic.js': WEIGHED, 'agent.js': FIRST_LEGAL_AGENT });
    const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
    const heuristic = (await import(join(folder, 'heuristic.js'))).default as Heuristic<MancalaState>;
    const some = positions(game, 500, 9);
    const states = Array.from({ length: MAX_BATCH }, (_, k) => some[k % some.length]!);
    const got = await session.evaluateMany('heuristic', GAME, 1, states, 30_000);
    expect(got.status, JSON.stringify(got).slice(0, 300)).toBe('ok');
    if (got.status === 'ok') expect(got.values).toEqual(states.map((s) => heuristic.evaluate(s, 1, game)));
  });

  it('loads the heuristic role only: an agent module that would exit at import is never imported', async () => {
    const { session } = await submission({ 'agent.js': 'process.exit(3);\nexport default { name: "x", chooseMove: () => 0 };\n', 'heuristic.js': WEIGHED });
    const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
    for (let k = 0; k < 2; k++) expect(await session.evaluateMany('heuristic', GAME, 0, positions(game, 5, k), 5000)).toMatchObject({ status: 'ok', values: expect.any(Array) });
  });

  it("words the heuristic's failures as its own", async () => {
    const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
    const states = positions(game, 20, 3);
    const loud = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': 'export default { name: "loud", evaluate: (s) => { throw new Error("no idea"); } };\n' });
    expect(messageOf(await loud.session.evaluateMany('heuristic', GAME, 0, states, 5000))).toMatch(/^role heuristic: evaluate failed: Error: no idea \(at heuristic\.js:1:\d+\)$/);
    const words = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': 'export default { name: "words", evaluate: () => "good" };\n' });
    expect(messageOf(await words.session.evaluateMany('heuristic', GAME, 0, states, 5000))).toBe('role heuristic: evaluate must return a number, got "good"');
    const endless = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': 'export default { name: "endless", evaluate: () => { for (;;) {} } };\n' });
    const stopped = await endless.session.evaluateMany('heuristic', GAME, 0, states, 300);
    expect(stopped.status).toBe('timeout');
  });
});

describe("the grader's search with a sandboxed heuristic", () => {
  it('makes the move, value, node and evaluation counts of agents/alphabeta.ts calling the same module in this process', async () => {
    const { session, folder } = await submission({ 'heuristic.js': WEIGHED, 'agent.js': FIRST_LEGAL_AGENT });
    const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
    const heuristic = (await import(join(folder, 'heuristic.js'))).default as Heuristic<MancalaState>;
    const grader = new GraderSearchPlayer(session, GAME);
    const cases: CaseOptions[] = [
      { depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: 'role:heuristic', seed: 1 },
      { depth: 3, unit: 'turn', terminal: 'heuristic', caching: true, heuristic: 'role:heuristic', seed: 2 },
    ];
    for (const options of cases) {
      for (const state of positions(game, 8, 11)) {
        const want = await runAgent(alphabeta, {
          game,
          state,
          heuristic,
          options: { depth: options.depth!, unit: options.unit!, terminal: options.terminal!, caching: options.caching! },
          random: createRandom(options.seed!),
        });
        const got = await grader.chooseMove(stateToBoard(game, state), game.toMove(state) as Player, options, 60_000);
        expect(got, JSON.stringify(got)).toMatchObject({
          status: 'ok',
          observation: { move: want.choice.move, value: want.choice.value, nodes: want.nodes, evaluations: want.evaluations },
        });
      }
    }
  });
});
