/**
 * One submission's fingerprint: it answers every behaviour position, run exactly as matches and
 * grading run it. An agent (TypeScript, any language over stdio, a course's own API: csc384,
 * cpsc4610, cs540) is opened once with openPlayer (matches/player.ts: its own sandboxed process,
 * reused from position to position) and asked each position as a move of a game; a csci561
 * file-in/file-out program runs once a position (behaviour-program.ts). Nothing here runs student
 * code itself, and the reference searches never come near it (behaviour-reference.ts runs them).
 *
 * A job of the worker pool (workers/pool.ts): --jobs submissions at once, each item one folder.
 */
import { readdirSync, statSync } from 'node:fs';
import { isRegularFileIn } from '../files/submission-entries.ts';
import { join } from 'node:path';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { boardToState } from '../games/mancala/board-io/board.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { anytimeByDefault } from '../matches/play-game.ts';
import { AGENT_ROLE, openPlayer } from '../matches/player.ts';
import type { MatchPlayer } from '../matches/types.ts';
import { deriveSeed } from '../random.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { findStdioAgent } from '../sandbox/stdio-agents/spec.ts';
import type { GameSpec } from '../suites/types.ts';
import { jobKind, type Job } from '../workers/job.ts';
import type { BehaviourPosition } from './behaviour-positions.ts';
import { askProgram, GIVE_UP_AFTER } from './behaviour-program.ts';
import type { BehaviourAnswer, Fingerprint } from './behaviour-types.ts';

/** Everything a job needs (plain data: it crosses to the pool's threads). */
export interface BehaviourJobSetup {
  gameSpec: Extract<GameSpec, { kind: 'mancala' }>;
  /** the profile's conventions with the run's depth */
  conventions: SearchConventions;
  positions: BehaviourPosition[];
  seed: number;
  ms: number;
  /** positions a csci561 program answers (the first ones; the rest are null answers) */
  programPositions: number;
  memoryMb: number;
  sandbox: SandboxMode;
}

/** A folder holds a TypeScript (or JavaScript) agent module where matches and grading look for one. */
function holdsScriptAgent(path: string): boolean {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return false;
  if (info.isFile()) return /\.(m?[jt]s)$/.test(path);
  const names = readdirSync(path);
  return AGENT_ROLE.files.some((pattern) => {
    if (pattern.startsWith('*')) return names.some((n) => n.endsWith(pattern.slice(1)));
    // The student's name, not followed: a link is no agent module (the copy refuses it too).
    return isRegularFileIn(path, pattern);
  });
}

/** What kind of submission `path` is, for its fingerprint's `role`: a csci561 program only under those rules. */
async function kindOf(path: string, profile: string): Promise<{ role: string; program: boolean }> {
  const stdio = await findStdioAgent(path);
  if (stdio !== undefined) return { role: `stdio agent (${stdio.source})`, program: false };
  if (holdsScriptAgent(path) || profile !== 'csci561') return { role: 'agent', program: false };
  return { role: 'program', program: true };
}

const oneLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** The fingerprint of the submission at `path`; never throws for the submission's faults (they become `failure`). */
export async function fingerprintOne(setup: BehaviourJobSetup, path: string): Promise<Fingerprint> {
  const game = new MancalaGame(setup.gameSpec.rules, setup.gameSpec.name);
  let kind: { role: string; program: boolean };
  try {
    kind = await kindOf(path, setup.gameSpec.profile);
  } catch (e) {
    return { submission: path, role: 'unknown', answers: [], failure: oneLine(e) };
  }
  try {
    const got = kind.program
      ? await askProgram(path, { game, positions: setup.positions, asked: setup.programPositions, depth: setup.conventions.defaultDepth ?? 1, ms: setup.ms, memoryMb: setup.memoryMb, sandbox: setup.sandbox })
      : await askAgent(path, game, setup);
    return { submission: path, role: kind.role, ...got };
  } catch (e) {
    return { submission: path, role: kind.role, answers: [], failure: oneLine(e) };
  }
}

async function askAgent(path: string, game: MancalaGame, setup: BehaviourJobSetup): Promise<{ answers: BehaviourAnswer[]; failure?: string }> {
  const player: MatchPlayer = await openPlayer(path, { game: setup.gameSpec, conventions: setup.conventions, memoryMb: setup.memoryMb, sandbox: setup.sandbox });
  const anytime = anytimeByDefault(setup.gameSpec.profile);
  try {
    const answers: BehaviourAnswer[] = [];
    let failures = 0;
    for (const [i, p] of setup.positions.entries()) {
      const state = boardToState(game, p.board);
      const a = await player.chooseMove(game, state, setup.ms, deriveSeed(setup.seed, i));
      // Under the anytime rule (cs540) the move last reported counts when the answer comes late.
      const move = a.status === 'ok' ? a.move : anytime ? a.reported?.move : undefined;
      const legal = move !== undefined && game.isLegal(state, move);
      const answer: BehaviourAnswer = { move: legal ? game.moveName(state, move) : null };
      if (legal && a.status === 'ok' && a.value !== undefined && Number.isFinite(a.value)) answer.value = a.value;
      if (legal && a.status === 'ok' && a.nodes !== undefined) answer.nodes = a.nodes;
      answers.push(answer);
      // A submission that fails its first positions one after another does not run: no use waiting out the rest.
      if (legal) failures = -Infinity;
      else if (++failures >= GIVE_UP_AFTER) {
        const why = a.status === 'ok' ? `it chose ${a.move}, not a legal move` : a.message;
        return { answers: [], failure: `no answer on the first ${GIVE_UP_AFTER} positions: ${oneLine(why)}` };
      }
    }
    return { answers };
  } finally {
    await player.close();
  }
}

export async function behaviourJob(setup: BehaviourJobSetup): Promise<Job<string, Fingerprint>> {
  return { run: (path) => fingerprintOne(setup, path), close: async () => {} };
}

export const BEHAVIOUR_JOB = jobKind(import.meta.url, 'behaviourJob', behaviourJob);
