/**
 * The agents' seats of `mancala play`. Without the handout's flags a side is opened as
 * `mancala match` opens it (framework/matches/player.ts); with them, the flags' depth limit,
 * caching and heuristic are handed to the agent too.
 */
import { basename, dirname } from 'node:path';
import { statSync } from 'node:fs';
import type { Heuristic } from '../contracts/heuristic.ts';
import { UserError } from '../errors.ts';
import { stateToBoard } from '../games/mancala/board-io/index.ts';
import { AGENT_ROLE, isPathSpec, openPlayer } from '../matches/player.ts';
import type { MatchPlayer, MoveAttempt } from '../matches/types.ts';
import { createRandom, type RandomSource } from '../random.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { runAgent } from '../search/run-agent.ts';
import type { CaseOptions, GameSpec, RoleSpec } from '../suites/types.ts';
import { agentTable, findHeuristic, optionsUnder, parseAgentSpec } from '../plugins/agents.ts';
import { ADVANCED_HEURISTIC_ROLE, flagOptions, type ResolvedPlay, type SeatPlan } from './play-setup.ts';

/**
 * A side played by an agent. Without the handout's flags, as `mancala match` opens it. With them,
 * the flags' depth limit, caching and heuristic are handed to the agent too: a reference agent
 * runs here with the heuristic asked for; a submission runs sandboxed, with its own
 * heuristic_advanced for 1 (a file is graded with the files beside it, as in its folder).
 */
export async function openSeat(seat: SeatPlan, plan: ResolvedPlay, spec: GameSpec, memoryMb: number, sandbox: SandboxMode): Promise<MatchPlayer> {
  if (!plan.handout) return openPlayer(seat.spec, { game: spec, conventions: plan.profile.search, memoryMb, sandbox });
  return isPathSpec(seat.spec) ? openSubmissionSeat(seat, plan, spec, memoryMb, sandbox) : referenceSeat(seat, plan);
}

function referenceSeat(seat: SeatPlan, plan: ResolvedPlay): MatchPlayer {
  const parsed = parseAgentSpec(seat.spec);
  const options = { ...optionsUnder(parsed, plan.profile.search), ...flagOptions(plan, agentTable()[parsed.name]!.options, parsed.options) };
  const heuristic: Heuristic = findHeuristic(seat.heuristic)!;
  return {
    label: seat.label,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const start = performance.now();
      try {
        const run = await runAgent(parsed.agent, { game, state, heuristic, options: { ms: timeLimitMs, ...options }, timeLimitMs, random: createRandom(seed) });
        const c = run.choice;
        const note = c.note !== undefined ? { note: c.note } : {};
        return { status: 'ok', move: c.move, ms: run.ms, nodes: run.nodes, ...(c.value !== undefined ? { value: c.value } : {}), ...(c.depth !== undefined ? { depth: c.depth } : {}), ...note };
      } catch (e) {
        return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
      }
    },
    close: async () => {},
  };
}

/** A file name as a globby pattern that matches just that file. */
function literalPattern(name: string): string {
  return name.replace(/[\\*?[\]{}()!+@]/g, (c) => `\\${c}`);
}

async function openSubmissionSeat(seat: SeatPlan, plan: ResolvedPlay, spec: GameSpec, memoryMb: number, sandbox: SandboxMode): Promise<MatchPlayer> {
  const path = seat.spec;
  const isFile = statSync(path).isFile();
  const roles: Record<string, RoleSpec> = { agent: isFile ? { ...AGENT_ROLE, files: [literalPattern(basename(path))] } : AGENT_ROLE };
  if (seat.heuristic === 'advanced') roles['heuristic_advanced'] = ADVANCED_HEURISTIC_ROLE;
  const conventions = plan.profile.search;
  const options: CaseOptions = {
    depth: conventions.defaultDepth,
    unit: conventions.depthUnit,
    terminal: conventions.terminal,
    ...flagOptions(plan, ['depth', 'caching'], {}),
    heuristic: seat.heuristic === 'advanced' ? 'role:heuristic_advanced' : 'basic',
  };
  const session = await openSeatSession(seat, plan, roles, spec, memoryMb, sandbox);
  return {
    label: seat.label,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const a = await session.chooseMove(stateToBoard(game, state), game.toMove(state), { ...options, seed, ms: timeLimitMs }, timeLimitMs);
      if (a.status !== 'ok') return a;
      const ob = a.observation;
      if (ob.move === undefined) return { status: 'error', message: 'the agent returned no move', ms: a.ms };
      return { status: 'ok', move: ob.move, ms: ob.ms, ...(ob.value !== undefined ? { value: ob.value } : {}), ...(ob.nodes !== undefined ? { nodes: ob.nodes } : {}) };
    },
    async close() {
      await session.close();
    },
  };
}

/** A seat's sandboxed session: an agent over stdio (agents/clients/PROTOCOL.md) or a TypeScript agent; close() removes its copy. */
async function openSeatSession(seat: SeatPlan, plan: ResolvedPlay, roles: Record<string, RoleSpec>, spec: GameSpec, memoryMb: number, sandbox: SandboxMode) {
  const path = seat.spec;
  const heuristicFlag = `--heuristic${seat === plan.seats[0] ? 'Bottom' : 'Top'} 1`;
  const { noSubmissionAt, presenceQuery } = await import('../sandbox/submission-presence.ts');
  const absent = await noSubmissionAt(path, presenceQuery(spec, roles));
  if (absent !== undefined) throw new UserError(absent);
  const { findStdioAgent } = await import('../sandbox/stdio-agents/spec.ts');
  const stdio = await findStdioAgent(path);
  if (stdio !== undefined) {
    if (roles['heuristic_advanced'] !== undefined) throw new UserError(`${heuristicFlag}: ${path} is an agent over stdio, which has no heuristic module`);
    const { StdioAgentSession } = await import('../sandbox/stdio-agents/session.ts');
    return StdioAgentSession.open(stdio, { memoryMb }, { game: spec, sandbox });
  }
  const isFile = statSync(path).isFile();
  const { prepareSubmission } = await import('../sandbox/submissions/prepare.ts');
  const { SandboxSession } = await import('../sandbox/session.ts');
  const prepared = await prepareSubmission(isFile ? dirname(path) : path, roles);
  for (const [name, role] of Object.entries(prepared.roles)) {
    if ('missing' in role) {
      await prepared.dispose();
      throw new UserError(`${name === 'agent' ? 'agent' : `${heuristicFlag}: the heuristic of`} ${path}: ${role.missing}`);
    }
  }
  const session = await SandboxSession.open(prepared, { memoryMb }, { game: spec, sandbox });
  return {
    chooseMove: session.chooseMove.bind(session),
    async close() {
      await session.close();
      await prepared.dispose();
    },
  };
}

/**
 * The player with its seeds drawn from `seeds`, one a decision in turn order: `mancala play`'s
 * agents share one generator seeded by --seed, and a human's turn draws nothing from it.
 */
export function seededBy(player: MatchPlayer, seeds: RandomSource): MatchPlayer {
  return {
    label: player.label,
    chooseMove: (game, state, timeLimitMs) => player.chooseMove(game, state, timeLimitMs, Math.floor(seeds() * 2 ** 31)),
    close: () => player.close(),
  };
}
