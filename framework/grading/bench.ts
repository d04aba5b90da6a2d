/**
 * What grading costs beyond the agents' own thinking: a suite of many small cases (generated and
 * blessed in a temp folder), graded for one submission through the whole pipeline — copy, bundle,
 * sandboxed process, requests, graders, scoring. `mancala bench` prints the figures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MancalaGame } from '../games/mancala/engine.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { createRandom, randomInt } from '../random.ts';
import { blessSuite, writeExpected } from '../suites/bless.ts';
import { loadSuite } from '../suites/load.ts';
import type { Suite } from '../suites/types.ts';
import { gradeSubmissions } from './runner.ts';

/** alice, the example submission that passes every case: a student's own alpha-beta. */
const SUBMISSION = resolve(dirname(fileURLToPath(import.meta.url)), '../../agents/examples/alice');

export interface GradingCosts {
  cases: number;
  /** wall-clock ms of the whole run (the submission's start included) */
  ms: number;
  casesPerSecond: number;
  /** ms the agent itself reported thinking, summed over the cases */
  agentMs: number;
  /** (ms − agentMs) / cases: what the framework adds to a case, start-up spread over the run */
  overheadMsPerCase: number;
  passed: number;
}

/** `count` depth-2 cases from positions a few seeded random moves into a Kalah(6,4) game. */
function writeSuite(dir: string, count: number): void {
  const game = new MancalaGame(PROFILES['kalah']!.rules);
  const random = createRandom(2024);
  const cases: string[] = [];
  for (let k = 0; k < count; k++) {
    let state = game.initial();
    const moves: number[] = [];
    for (let ply = 0; ply < 1 + (k % 12); ply++) {
      const legal = game.legalMoves(state);
      const m = legal[randomInt(random, legal.length)]!;
      const next = game.play(state, m);
      if (game.isOver(next)) break;
      moves.push(m);
      state = next;
    }
    cases.push(`  - {id: c${String(k).padStart(3, '0')}, position: {start: true, moves: [${moves.join(', ')}]}}`);
  }
  writeFileSync(
    join(dir, 'suite.yaml'),
    [
      'name: grading benchmark',
      'game: kalah',
      'visibility: visible',
      'limits: {ms: 1000, memory_mb: 256}',
      'roles: {agent: {kind: agent, files: [agent.ts], reference: alphabeta}}',
      'categories: [{name: search, weight: 100}]',
      'cases: [cases.yaml]',
    ].join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'cases.yaml'),
    ['defaults: {category: search, options: {depth: 2}, checks: {move: true, value: true, nodes: exact}}', 'cases:', ...cases].join('\n') + '\n',
  );
}

/** A blessed benchmark suite of `count` cases in a temp folder, for the length of `use`. */
async function withBenchSuite<T>(count: number, use: (suite: Suite) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'mancala-grading-bench-'));
  try {
    writeSuite(dir, count);
    const blessed = await blessSuite(await loadSuite(dir));
    writeExpected(dir, blessed.expected);
    return await use(await loadSuite(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureGrading(count = 200): Promise<GradingCosts> {
  return withBenchSuite(count, async (suite) => {
    const start = performance.now();
    let agentMs = 0;
    const report = await gradeSubmissions({
      suite,
      submissions: [SUBMISSION],
      visibility: 'all',
      jobs: 1,
      onProgress: (e) => void (agentMs += e.agentMs),
    });
    const ms = performance.now() - start;
    const cases = report.submissions[0]!.cases;
    return {
      cases: cases.length,
      ms,
      casesPerSecond: (cases.length / ms) * 1000,
      agentMs,
      overheadMsPerCase: (ms - agentMs) / cases.length,
      passed: cases.filter((c) => c.status === 'passed').length,
    };
  });
}

export interface ClassGradingSpeed {
  submissions: number;
  cases: number;
  jobs: number;
  /** wall-clock ms of the whole run, the pool's threads and the submissions' starts included */
  ms: number;
  casesPerSecond: number;
  passed: number;
}

/**
 * A class's grading: `submissions` submissions (copies of alice, each in its own sandbox) on a
 * suite of `count` depth-`depth` cases, `jobs` at once. What --jobs buys an instructor.
 */
export async function measureClassGrading(o: { submissions: number; count: number; jobs: readonly number[] }): Promise<ClassGradingSpeed[]> {
  return withBenchSuite(o.count, async (suite) => {
    const speeds: ClassGradingSpeed[] = [];
    for (const jobs of o.jobs) {
      const start = performance.now();
      const report = await gradeSubmissions({ suite, submissions: Array<string>(o.submissions).fill(SUBMISSION), visibility: 'all', jobs });
      const ms = performance.now() - start;
      const cases = report.submissions.flatMap((s) => s.cases);
      speeds.push({
        submissions: o.submissions,
        cases: cases.length,
        jobs,
        ms,
        casesPerSecond: (cases.length / ms) * 1000,
        passed: cases.filter((c) => c.status === 'passed').length,
      });
    }
    return speeds;
  });
}
