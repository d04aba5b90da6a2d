/**
 * Behaviour fingerprints: every submission answers the same seeded set of positions, and two
 * submissions that choose the same moves (values, node counts) on them play alike, however their
 * code was disguised. The contract `mancala similarity` uses.
 *
 *  - behaviour-positions.ts: the seeded, varied position set of a rules profile;
 *  - behaviour-ask.ts: one submission's answers, run sandboxed as matches and grading run it (an
 *    agent of any kind in one process for all positions; a csci561 program once a position:
 *    behaviour-program.ts), --jobs submissions at once on the worker pool;
 *  - behaviour-reference.ts: what the reference searches choose, computed in the grader, so that
 *    agreement between correct searches is recognised as expected;
 *  - behaviour-compare.ts: two fingerprints' agreement.
 */
import { UserError } from '../errors.ts';
import { anytimeByDefault } from '../matches/play-game.ts';
import { sandboxFor } from '../sandbox/jail/mechanisms.ts';
import { runJobs } from '../workers/pool.ts';
import { BEHAVIOUR_JOB, type BehaviourJobSetup } from './behaviour-ask.ts';
import { behaviourGame, behaviourPositions } from './behaviour-positions.ts';
import { annotateWithReferences, referenceMoves } from './behaviour-reference.ts';
import type { BehaviourRun, Fingerprint } from './behaviour-types.ts';

export type { BehaviourAgreement, BehaviourAnswer, BehaviourRun, Fingerprint } from './behaviour-types.ts';
export { compareFingerprints, EXPECTED_SHARE } from './behaviour-compare.ts';
export { behaviourGame, behaviourPositions, POSITION_KINDS, type BehaviourPosition, type PositionKind } from './behaviour-positions.ts';

/**
 * Positions a submission answers by default: a class of 300 TypeScript or stdio agents takes a few
 * minutes on 2 cores with --jobs 2 (a process's start dominates; see `npm run bench`), and 40
 * positions keep two unrelated players' agreement well apart from a copy's 1.0.
 */
export const DEFAULT_BEHAVIOUR_POSITIONS = 40;

/**
 * Positions a csci561 file program answers (the first of the set): each is a sandboxed run of its
 * own (a jail and an interpreter start, about 1.2 s of wall time on a loaded 2-core machine), so a
 * program's fingerprint costs far more than an agent's; 15 keeps a class of 300 to 4,500 runs.
 * Position kinds cycle, so the first 15 hold each kind three times.
 */
export const DEFAULT_PROGRAM_POSITIONS = 15;

/** The deepest search a submission is asked for: deep enough to tell searches apart, cheap for plain minimax. */
export const BEHAVIOUR_MAX_DEPTH = 4;

/** Each position's time limit, ms; under the anytime rule (cs540) an agent uses all of it, so it is shorter. */
export const BEHAVIOUR_MS = 1000;
export const BEHAVIOUR_ANYTIME_MS = 100;

/** The depth a run asks for: the profile's own, at most BEHAVIOUR_MAX_DEPTH (csc384's "to the end" too). */
export function behaviourDepth(rules: string): number {
  const d = behaviourGame(rules).profile.search.defaultDepth;
  return d === null ? BEHAVIOUR_MAX_DEPTH : Math.min(d, BEHAVIOUR_MAX_DEPTH);
}

function checkWhole(value: number, min: number, max: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UserError(`${what}: expected a whole number from ${min} to ${max}, got ${value}`);
}

/**
 * Each folder's fingerprint, in the folders' order. A submission that cannot run at all gets
 * `failure` (one line) and the run goes on; a bad rules name or position count is a UserError.
 */
export async function fingerprintSubmissions(folders: readonly string[], run: BehaviourRun): Promise<Fingerprint[]> {
  const { profile, game } = behaviourGame(run.rules);
  const depth = run.depth ?? behaviourDepth(run.rules);
  checkWhole(depth, 1, 20, 'depth');
  if (run.msPerPosition !== undefined && !(run.msPerPosition > 0 && run.msPerPosition <= 600_000)) throw new UserError(`ms per position: expected a number of ms from 1 to 600000, got ${run.msPerPosition}`);
  if (run.programPositions !== undefined) checkWhole(run.programPositions, 1, run.positions, 'program positions');
  const positions = behaviourPositions(game, run.positions, run.seed);
  if (folders.length === 0) return [];
  // No sandbox here is the run's problem, not each submission's: one line before anything runs.
  await sandboxFor(run.weakSandbox ? 'weak' : 'full');
  const conventions = { ...profile.search, defaultDepth: depth };
  const setup: BehaviourJobSetup = {
    gameSpec: { kind: 'mancala', profile: profile.name, rules: game.rules, name: game.name },
    conventions,
    positions,
    seed: run.seed,
    ms: run.msPerPosition ?? (anytimeByDefault(profile.name) ? BEHAVIOUR_ANYTIME_MS : BEHAVIOUR_MS),
    programPositions: Math.min(run.programPositions ?? DEFAULT_PROGRAM_POSITIONS, positions.length),
    memoryMb: run.memoryMb ?? 512,
    sandbox: run.weakSandbox ? 'weak' : 'full',
  };
  const fingerprints: Fingerprint[] = new Array(folders.length);
  let done = 0;
  run.onProgress?.(0, folders.length);
  await runJobs({
    kind: BEHAVIOUR_JOB,
    setup,
    items: folders,
    jobs: run.jobs,
    onResult: (f: Fingerprint, _folder: string, index: number) => {
      fingerprints[index] = f;
      run.onProgress?.(++done, folders.length);
    },
  });
  annotateWithReferences(fingerprints, await referenceMoves(game, positions, conventions, depth));
  return fingerprints;
}
