/**
 * How fast behaviour fingerprints are taken (for `mancala bench`): a small class of copies of one
 * example submission, each answering the default position set sandboxed as `mancala similarity`
 * runs it, with --jobs 2: a TypeScript agent, an agent in Python over stdio (one process a
 * submission for every position) and a csci561 Python program (one sandboxed run a position).
 * Each figure includes every process's start (and the pool's threads'), which is what a class pays;
 * the reference searches the grader runs are timed inside it too.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { findExecutable } from '../sandbox/jail/mechanisms.ts';
import { DEFAULT_BEHAVIOUR_POSITIONS, DEFAULT_PROGRAM_POSITIONS, fingerprintSubmissions } from './behaviour.ts';

const EXAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../agents/examples');

export interface BehaviourContender {
  /** how the line names it */
  kind: string;
  /** the example folder */
  folder: string;
  rules: string;
  /** copies fingerprinted (the bench's class) */
  submissions: number;
  /** positions each answers (a program: the first DEFAULT_PROGRAM_POSITIONS of the default set) */
  positions: number;
  /** a program the machine needs (python3) */
  needs?: string;
}

export const BEHAVIOUR_CONTENDERS: readonly BehaviourContender[] = [
  { kind: 'TypeScript agent', folder: 'alice', rules: 'kalah', submissions: 8, positions: DEFAULT_BEHAVIOUR_POSITIONS },
  { kind: 'stdio agent (Python)', folder: 'python-greedy', rules: 'kalah', submissions: 8, positions: DEFAULT_BEHAVIOUR_POSITIONS, needs: 'python3' },
  { kind: 'csci561 program (Python)', folder: 'csci561-reference/program', rules: 'csci561', submissions: 4, positions: DEFAULT_PROGRAM_POSITIONS, needs: 'python3' },
];

export type BehaviourSpeed = Omit<BehaviourContender, 'folder' | 'needs'> & { mode: SandboxMode; jobs: number } & (
    | {
        ms: number;
        fingerprintsPerSecond: number;
        positionsPerSecond: number;
        /** minutes a class of 300 such submissions would take at this rate */
        classOf300Minutes: number;
        /** fingerprints that came back with a failure (should be 0) */
        failures: number;
      }
    | { skipped: string }
  );

/** Fingerprints each contender's class with 2 jobs and times it. */
export async function measureBehaviour(mode: SandboxMode, contenders: readonly BehaviourContender[] = BEHAVIOUR_CONTENDERS): Promise<BehaviourSpeed[]> {
  const out: BehaviourSpeed[] = [];
  const jobs = 2;
  for (const c of contenders) {
    const { folder, needs, ...shown } = c;
    const path = resolve(EXAMPLES, folder);
    const common = { ...shown, mode, jobs };
    if (needs !== undefined && findExecutable(needs) === undefined) {
      out.push({ ...common, skipped: `${needs} not found on this machine` });
      continue;
    }
    if (!existsSync(path)) {
      // A student kit ships the framework without the project's examples.
      out.push({ ...common, skipped: `the example ${basename(folder)} is not in this installation` });
      continue;
    }
    const start = performance.now();
    const fingerprints = await fingerprintSubmissions(Array(c.submissions).fill(path), { rules: c.rules, positions: DEFAULT_BEHAVIOUR_POSITIONS, programPositions: DEFAULT_PROGRAM_POSITIONS, seed: 1, jobs, weakSandbox: mode === 'weak' });
    const ms = performance.now() - start;
    const fingerprintsPerSecond = (c.submissions * 1000) / ms;
    out.push({
      ...common,
      ms,
      fingerprintsPerSecond,
      positionsPerSecond: fingerprintsPerSecond * c.positions,
      classOf300Minutes: 300 / fingerprintsPerSecond / 60,
      failures: fingerprints.filter((f) => f.failure !== undefined).length,
    });
  }
  return out;
}
