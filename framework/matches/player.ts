/**
 * A side of a match from its command-line name: a reference agent by name (`alphabeta:depth=4`),
 * run in this process — trusted code — or a submission by path (`agents/examples/alice`,
 * `my-agent.ts`, optionally `path:depth=4`; or an agent in any language over stdio,
 * agents/clients/PROTOCOL.md), run in its own sandboxed process exactly as grading runs it, so a
 * student's crash, loop or illegal move costs a game, never the match.
 */
import { existsSync } from 'node:fs';
import type { AgentOptions } from '../contracts/agent.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { UserError } from '../errors.ts';
import { stateToBoard } from '../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { createRandom } from '../random.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { hardLimitFor } from '../sandbox/hard-limit.ts';
import { moveRequest, type Attempt, type ChildRequest, type MoveAsker } from '../sandbox/exchange.ts';
import type { PreparedSubmission } from '../sandbox/submissions/prepare.ts';
import { runAgent } from '../search/run-agent.ts';
import type { CaseOptions, GameSpec, RoleSpec } from '../suites/types.ts';
import { agentNames, agentTable, findHeuristic, optionsUnder, parseAgentSpec } from '../plugins/agents.ts';
import { withheldMessage } from '../plugins/student-kit.ts';
import type { MatchPlayer, MoveAttempt } from './types.ts';

/** Where a submission folder keeps its agent (the same patterns the bundled suites use). */
export const AGENT_ROLE: RoleSpec = {
  kind: 'agent',
  files: ['agent.ts', 'agent.js', 'agent.mjs', '*.agent.ts', '*.agent.js', 'src/agent.ts', 'src/agent.js', 'index.ts', 'index.js'],
  reference: 'alphabeta',
};

export interface OpenPlayerOptions {
  /** the match's game, as the sandbox needs it */
  game: GameSpec;
  /** the profile's conventions: the depth, unit and terminal evaluation an agent gets unless its spec says otherwise */
  conventions: SearchConventions;
  /** memory cap of a sandboxed submission, MB */
  memoryMb: number;
  /** how a submission is confined (sandbox/jail/mechanisms.ts); default: the session's (full) */
  sandbox?: SandboxMode;
}

/** True when `spec` names a file or folder rather than a reference agent. */
export function isPathSpec(spec: string): boolean {
  const path = splitOptions(spec).path;
  return path.includes('/') || path.includes('\\') || /\.(m?[jt]s)$/.test(path) || existsSync(path);
}

/** `path:depth=4,ms=200` → the path and the option text (an option part must contain `=` or be a known flag). */
export function splitOptions(spec: string): { path: string; options: string } {
  const colon = spec.lastIndexOf(':');
  if (colon > 0 && /^[a-z]+(=[^,]*)?(,[a-z]+(=[^,]*)?)*$/.test(spec.slice(colon + 1))) {
    return { path: spec.slice(0, colon), options: spec.slice(colon + 1) };
  }
  return { path: spec, options: '' };
}

/** A submission's options: its spec's over the profile's conventions (it decides what it reads). */
function withConventions(options: AgentOptions, conventions: SearchConventions): AgentOptions {
  return { depth: conventions.defaultDepth, unit: conventions.depthUnit, terminal: conventions.terminal, ...options };
}

/**
 * Refuses a bad side before any game starts: an unknown reference agent or option, a path that
 * does not exist, or bad options after a path (`agents/x:depth=banana`). One UserError line.
 */
export function checkAgentSpec(spec: string): void {
  if (!isPathSpec(spec)) {
    const { name } = parseAgentSpec(spec);
    // A student kit names the course's reference agents without holding them: refused before any game.
    if (agentTable()[name]?.withheld === true) throw new UserError(withheldMessage(`the agent ${name}`));
    return;
  }
  const { path, options } = splitOptions(spec);
  if (!existsSync(path)) throw new UserError(`agent ${path}: no such file or folder (a reference agent is one of ${agentNames().join(', ')})`);
  if (options !== '') parseAgentSpec(`alphabeta:${options}`);
}

export async function openPlayer(spec: string, o: OpenPlayerOptions): Promise<MatchPlayer> {
  return isPathSpec(spec) ? openSubmission(spec, o) : openReference(spec, o);
}

export function openReference(spec: string, o: OpenPlayerOptions): MatchPlayer {
  const parsed = parseAgentSpec(spec);
  const options = optionsUnder(parsed, o.conventions);
  const heuristic = findHeuristic('basic')!;
  return {
    label: spec,
    async chooseMove(game, state, timeLimitMs, seed): Promise<MoveAttempt> {
      const start = performance.now();
      try {
        const run = await runAgent(parsed.agent, { game, state, heuristic, options: { ms: timeLimitMs, ...options }, timeLimitMs, random: createRandom(seed) });
        const c = run.choice;
        return {
          status: 'ok',
          move: c.move,
          ms: run.ms,
          nodes: run.nodes,
          ...(c.value !== undefined ? { value: c.value } : {}),
          ...(c.depth !== undefined ? { depth: c.depth } : {}),
          ...(c.note !== undefined ? { note: c.note } : {}),
          // the anytime rule (cs540) plays this when the answer came too late
          ...(run.reported !== undefined ? { reported: run.reported } : {}),
        };
      } catch (e) {
        // A reference agent does not throw; if it ever does, the game records it like any crash.
        return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
      }
    },
    close: async () => {},
  };
}

async function openSubmission(spec: string, o: OpenPlayerOptions): Promise<MatchPlayer> {
  const { path, options: optionText } = splitOptions(spec);
  if (!existsSync(path)) throw new UserError(`agent ${path}: no such file or folder (a reference agent is one of ${agentNames().join(', ')})`);
  // Options on a path use the reference agents' syntax: borrow alphabeta's parser for them.
  const options = optionText === '' ? {} : parseAgentSpec(`alphabeta:${optionText}`).options;
  const caseOptions = withConventions(options, o.conventions) as CaseOptions;
  // Loaded here, not at the top: a match between reference agents (and each match worker) then
  // starts without the sandbox's modules, about 200 ms.
  const session = await openSession(path, o);
  return {
    label: spec,
    async chooseMove(game: MancalaGame, state: MancalaState, timeLimitMs: number, seed: number, graceMs?: number, bankMs?: number): Promise<MoveAttempt> {
      const board = stateToBoard(game, state);
      const options = { ...caseOptions, seed, ms: caseOptions.ms ?? timeLimitMs };
      // A grace of the match's own (cs540's course rules) replaces the sandbox's hard limit; a time bank's left adds to either.
      const bank = bankMs !== undefined && bankMs > 0 ? bankMs : 0;
      const a =
        graceMs === undefined && bank === 0
          ? await session.chooseMove(board, game.toMove(state), options, timeLimitMs)
          : await session.request(moveRequest('agent', o.game, board, game.toMove(state), options, timeLimitMs, bank), (graceMs === undefined ? hardLimitFor(timeLimitMs) : timeLimitMs + graceMs) + bank);
      if (a.status !== 'ok') return a;
      const ob = a.observation;
      if (ob.move === undefined) return { status: 'error', message: 'the agent returned no move', ms: a.ms };
      return {
        status: 'ok',
        move: ob.move,
        ms: ob.ms,
        ...(ob.value !== undefined ? { value: ob.value } : {}),
        ...(ob.nodes !== undefined ? { nodes: ob.nodes } : {}),
        ...(ob.reported !== undefined ? { reported: ob.reported } : {}),
      };
    },
    stderr() {
      const out = session.output();
      return { text: out.stderr, total: out.stderrTotal };
    },
    async close() {
      await session.close();
    },
  };
}

/**
 * The sandboxed session of a submission: an agent in any language over stdio when the folder is
 * one (sandbox/stdio-agents/spec.ts), else a TypeScript agent. `close()` also removes its copy.
 */
async function openSession(
  path: string,
  o: OpenPlayerOptions,
): Promise<MoveAsker & { request(req: ChildRequest, hardLimitMs: number): Promise<Attempt>; output(): { stderr: string; stderrTotal: number }; close(): Promise<void> }> {
  const sandbox = o.sandbox !== undefined ? { sandbox: o.sandbox } : {};
  const { noSubmissionAt, presenceQuery } = await import('../sandbox/submission-presence.ts');
  const absent = await noSubmissionAt(path, presenceQuery(o.game, { agent: AGENT_ROLE }));
  if (absent !== undefined) throw new UserError(absent);
  const { findStdioAgent } = await import('../sandbox/stdio-agents/spec.ts');
  const stdio = await findStdioAgent(path);
  if (stdio !== undefined) {
    const { StdioAgentSession } = await import('../sandbox/stdio-agents/session.ts');
    return StdioAgentSession.open(stdio, { memoryMb: o.memoryMb }, { game: o.game, ...sandbox });
  }
  const { prepareSubmission } = await import('../sandbox/submissions/prepare.ts');
  const { SandboxSession } = await import('../sandbox/session.ts');
  const prepared: PreparedSubmission = await prepareSubmission(path, { agent: AGENT_ROLE });
  const role = prepared.roles['agent']!;
  if ('missing' in role) {
    await prepared.dispose();
    throw new UserError(`agent ${path}: ${role.missing}`);
  }
  const session = await SandboxSession.open(prepared, { memoryMb: o.memoryMb }, { game: o.game, ...sandbox });
  return {
    chooseMove: (...args) => session.chooseMove(...args),
    request: (...args) => session.request(...args),
    output: () => session.output(),
    async close() {
      await session.close();
      await prepared.dispose();
    },
  };
}
