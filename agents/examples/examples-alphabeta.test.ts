/**
 * The Python and Java alpha-beta examples (agents/examples/python-alphabeta, java-alphabeta) search
 * as the reference agent `alphabeta` does: asked over the stdio protocol, in the real sandbox, on
 * a few hundred seeded positions of the kalah profile, each answers the TypeScript agent's move,
 * value and node count (and Python its heuristic calls) at the same depth with the basic heuristic.
 * Real python3, javac and java.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../../framework/contracts/agent.ts';
import { stateToBoard } from '../../framework/games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../../framework/games/mancala/engine.ts';
import { PROFILES } from '../../framework/games/mancala/profiles.ts';
import basic from '../../framework/heuristics/basic.ts';
import { playMatch } from '../../framework/matches/match.ts';
import { createRandom, randomInt, type RandomSource } from '../../framework/random.ts';
import { StdioAgentSession } from '../../framework/sandbox/stdio-agents/session.ts';
import { findStdioAgent } from '../../framework/sandbox/stdio-agents/spec.ts';
import { runAgent } from '../../framework/search/run-agent.ts';
import { gameSpec } from '../../framework/suites/game.ts';
import alphabeta from '../alphabeta.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const EXAMPLES = { Python: join(HERE, 'python-alphabeta'), Java: join(HERE, 'java-alphabeta') } as const;
type Language = keyof typeof EXAMPLES;
const LANGUAGES = Object.keys(EXAMPLES) as Language[];

const kalah = gameSpec('kalah');
const game = new MancalaGame(PROFILES['kalah']!.rules, 'kalah(6,4)');
/** The kalah profile's conventions, as a match hands them to an agent. */
const KALAH_OPTIONS = { unit: 'move', terminal: 'score' } as const;

/** A position a seeded random game reaches (0 to 40 plies in), never a finished one. */
function playedPosition(random: RandomSource): MancalaState {
  const plies = randomInt(random, 41);
  let state = game.initial();
  for (let ply = 0; ply < plies; ply++) {
    const legal = game.legalMoves(state);
    const next = game.play(state, legal[randomInt(random, legal.length)]!);
    if (game.isOver(next)) break;
    state = next;
  }
  return state;
}

/**
 * A board random games seldom reach: 48 stones dropped on the pits and stores, a few pits with a
 * whole lap (13 stones or more) or none; both rows hold stones and either side may move.
 */
function scatteredPosition(random: RandomSource): MancalaState {
  const cells = new Array<number>(14).fill(0);
  const heavy = randomInt(random, 14);
  cells[heavy] = randomInt(random, 2) === 0 ? 13 + randomInt(random, 8) : 0;
  for (let stones = 48 - cells[heavy]!; stones > 0; stones--) cells[randomInt(random, 14)]!++;
  const bottom = cells.slice(0, 6);
  const top = cells.slice(7, 13);
  if (!bottom.some((x) => x > 0)) bottom[randomInt(random, 6)] = 1;
  if (!top.some((x) => x > 0)) top[randomInt(random, 6)] = 1;
  return game.fromRows(bottom, top, cells[6]!, cells[13]!, randomInt(random, 2) as 0 | 1);
}

interface Answer {
  move: number | undefined;
  value: number | undefined;
  nodes: number | undefined;
  evaluations?: number | undefined;
}

/** What the reference agent `alphabeta` answers, with the nodes and heuristic calls the instrumented game counted. */
async function reference(state: MancalaState, options: AgentOptions): Promise<Required<Answer>> {
  const run = await runAgent(alphabeta, { game, state, heuristic: basic, options, random: createRandom(1) });
  return { move: run.choice.move, value: run.choice.value, nodes: run.nodes, evaluations: run.evaluations };
}

const sessions = {} as Record<Language, StdioAgentSession>;

beforeAll(async () => {
  for (const language of LANGUAGES) {
    const spec = await findStdioAgent(EXAMPLES[language]);
    if (spec === undefined) throw new Error(`${EXAMPLES[language]} is not a stdio agent`);
    sessions[language] = await StdioAgentSession.open(spec, { memoryMb: 256 }, { game: kalah });
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(sessions).map((s) => s.close()));
});

/**
 * Asks each example for a move on `state` and expects the reference's move, value, node count and
 * (Python only: the Java client's Answer has no field for it) heuristic calls.
 */
async function expectSameAsReference(state: MancalaState, options: AgentOptions, label: string): Promise<void> {
  const { evaluations, ...expected } = await reference(state, options);
  for (const language of LANGUAGES) {
    const a = await sessions[language].chooseMove(stateToBoard(game, state), game.toMove(state), { ...options, seed: 1 }, 10_000);
    expect(a, `${language}, ${label}`).toMatchObject({ status: 'ok' });
    if (a.status !== 'ok') continue;
    const o = a.observation;
    const got: Answer = { move: o.move, value: o.value, nodes: o.nodes, ...(language === 'Python' ? { evaluations: o.evaluations } : {}) };
    expect(got, `${language}, ${label}: ${game.describe(state)}`).toEqual(language === 'Python' ? { ...expected, evaluations } : expected);
  }
}

describe('the Python and Java alpha-beta examples search as the TypeScript alphabeta agent', () => {
  it('400 seeded positions of the kalah profile, depths 1 to 6: the same move, value, node count and heuristic calls', async () => {
    const random = createRandom(540);
    for (let k = 0; k < 400; k++) {
      const state = k % 3 === 2 ? scatteredPosition(random) : playedPosition(random);
      const depth = 1 + (k % 6);
      await expectSameAsReference(state, { depth, ...KALAH_OPTIONS }, `position ${k}, depth ${depth}`);
    }
  }, 300_000);

  it("the conventions a request's options name: unit turn, terminal heuristic, free turns ignored", async () => {
    const random = createRandom(561);
    const variants: AgentOptions[] = [
      { unit: 'turn', terminal: 'score' },
      { unit: 'move', terminal: 'heuristic' },
      { unit: 'move', terminal: 'score', freeTurns: 'ignore' },
      { unit: 'turn', terminal: 'heuristic' },
    ];
    for (let k = 0; k < 80; k++) {
      const state = k % 2 === 1 ? scatteredPosition(random) : playedPosition(random);
      const options = { depth: 1 + (k % 4), ...variants[k % variants.length]! };
      await expectSameAsReference(state, options, `position ${k}, ${JSON.stringify(options)}`);
    }
  }, 300_000);

  it('each plays a seeded match against random in the sandbox, as `mancala match` runs its folder, without a forfeit', async () => {
    for (const language of LANGUAGES) {
      const r = await playMatch({ A: `${EXAMPLES[language]}:depth=3`, B: 'random', games: 4, seed: 7 });
      for (const g of r.games) expect(g.forfeit, `${language}, game ${g.index}`).toBeNull();
      expect(r.summary.A.wins, language).toBeGreaterThanOrEqual(3);
    }
  }, 120_000);
});
