/**
 * Test support for the graders: a suite manifest and cases built in memory, reference answers
 * computed the way blessing computes them (the role's reference agent through runAgent, with the
 * options case-context.ts resolves), agents observed the way the sandbox observes them, and a
 * MoveAsker that runs an agent in this process in place of a sandboxed submission.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import type { Player } from '../framework/contracts/game.ts';
import type { TraceEvent } from '../framework/contracts/search-trace.ts';
import { boardToState, stateToBoard, type BoardSpec } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { findProfile } from '../framework/games/mancala/profiles.ts';
import type { GradeInput } from '../framework/grading/types.ts';
import { createRandom } from '../framework/random.ts';
import type { Attempt, MoveAsker, Observation } from '../framework/sandbox/exchange.ts';
import { runAgent } from '../framework/search/run-agent.ts';
import { renderTraverseLog } from '../framework/search/traverse-log.ts';
import type { CaseOptions, Checks, Expected, GameSpec, Manifest, RoleSpec, SuiteCase } from '../framework/suites/types.ts';
import { findHeuristic, parseAgentSpec } from '../agents/index.ts';
import { casePosition, referencePlan } from './case-context.ts';

export function mancalaSpec(profile: string, pits?: number, seeds?: number): GameSpec {
  const p = findProfile(profile)!;
  const rules = { ...p.rules, pits: pits ?? p.rules.pits, seeds: seeds ?? p.rules.seeds };
  return { kind: 'mancala', profile, rules, name: `${profile}(${rules.pits},${rules.seeds})` };
}

export function testManifest(game: GameSpec, roles: Record<string, RoleSpec> = { agent: { kind: 'agent', files: ['agent.ts'], reference: 'alphabeta' } }): Manifest {
  return {
    name: 'test-suite',
    file: '/suites/test/suite.yaml',
    dir: '/suites/test',
    game,
    roles,
    categories: [{ name: 'search', weight: 1 }],
    limits: { ms: 10_000, memoryMb: 512 },
    visibility: 'visible',
    cases: ['*.yaml'],
  };
}

/** The game's start position with `player` to move. */
export function startBoard(game: GameSpec, player: Player = 0): BoardSpec {
  if (game.kind !== 'mancala') return { top: [], bottom: [], topStore: 0, bottomStore: 0, toMove: player };
  const row = Array<number>(game.rules.pits).fill(game.rules.seeds);
  return { top: [...row], bottom: [...row], topStore: 0, bottomStore: 0, toMove: player };
}

export function testCase(manifest: Manifest, fields: { board?: BoardSpec; options?: CaseOptions; checks: Checks; role?: string; id?: string; tictactoe?: string }): SuiteCase {
  return {
    id: fields.id ?? 'case-1',
    file: 'cases.yaml',
    category: 'search',
    role: fields.role ?? 'agent',
    board: fields.board ?? startBoard(manifest.game),
    ...(fields.tictactoe !== undefined ? { tictactoe: fields.tictactoe } : {}),
    options: fields.options ?? {},
    checks: fields.checks,
    points: 1,
    limits: manifest.limits,
    visibility: 'visible',
  };
}

/** Runs `agent` on the case's position as the sandbox would, with the case's options and heuristic. */
export async function observe(manifest: Manifest, c: SuiteCase, agent: Agent, options = c.options): Promise<Observation> {
  const { game, state } = casePosition(manifest, c);
  // A heuristic from a role (`role:NAME`): that role's reference stands in for the submission's.
  const name = c.options.heuristic ?? 'basic';
  const heuristic = findHeuristic(name.startsWith('role:') ? manifest.roles[name.slice('role:'.length)]!.reference : name)!;
  const events: TraceEvent[] = [];
  const outcome = await runAgent(agent, { game, state, heuristic, options: { ...options }, random: createRandom(c.options.seed ?? 1), trace: (e) => void events.push(e) });
  return {
    move: outcome.choice.move,
    ...(outcome.choice.value !== undefined ? { value: outcome.choice.value } : {}),
    nodes: outcome.nodes,
    evaluations: outcome.evaluations,
    trace: events,
    ms: outcome.ms,
  };
}

/** The reference answers of a case, as `suite bless` computes them. */
export async function bless(manifest: Manifest, c: SuiteCase): Promise<Expected> {
  const { game, state, player } = casePosition(manifest, c);
  const plan = referencePlan(manifest, c);
  if (plan === undefined) {
    const heuristic = findHeuristic(manifest.roles[c.role]!.reference)!;
    return { hash: 'test', heuristicValue: heuristic.evaluate(state, player, game) };
  }
  const agent = parseAgentSpec(plan.spec).agent;
  const options = { depth: plan.depth, unit: plan.unit, terminal: plan.terminal, caching: plan.caching };
  const o = await observe(manifest, c, agent, options);
  const expected: Expected = { hash: 'test', move: o.move!, moveName: game.moveName(state, o.move!), nodes: o.nodes!, evaluations: o.evaluations! };
  if (o.value !== undefined) expected.value = o.value;
  if (c.checks.trace !== undefined) {
    expected.trace = c.checks.trace.format === 'events' ? o.trace : renderTraverseLog(o.trace!, { alphaBeta: plan.agent === 'alphabeta' });
  }
  if (game instanceof MancalaGame) expected.nextState = stateToBoard(game, game.play(state, o.move!));
  return expected;
}

export async function gradeInput(manifest: Manifest, c: SuiteCase, observation: Observation, session?: MoveAsker): Promise<GradeInput> {
  return { manifest, case: c, expected: await bless(manifest, c), observation, ...(session ? { session } : {}) };
}

/** A MoveAsker that runs `agent` in this process: a stand-in for a sandboxed submission. */
export function inProcessAsker(game: GameSpec, agent: Agent, heuristicName = 'basic'): MoveAsker {
  const heuristic = findHeuristic(heuristicName)!;
  return {
    async chooseMove(board, player, options, timeLimitMs): Promise<Attempt> {
      const g = new MancalaGame((game as Extract<GameSpec, { kind: 'mancala' }>).rules, game.name);
      const state = boardToState(g, board, player);
      const start = performance.now();
      try {
        const outcome = await runAgent(agent, { game: g, state, heuristic, options: { ...options }, timeLimitMs, random: createRandom(options.seed ?? 1) });
        const observation: Observation = { move: outcome.choice.move, nodes: outcome.nodes, evaluations: outcome.evaluations, ms: outcome.ms };
        return { status: 'ok', observation, ms: performance.now() - start };
      } catch (e) {
        return { status: 'error', message: (e as Error).message, ms: performance.now() - start };
      }
    },
  };
}
