/**
 * A class graded again, for `mancala bench`: about 20 student-style CSCI-561 programs, graded by
 * the built command (`csci561-grade`, as an instructor runs it, journal and all) three times: the
 * first run, the same command again with nothing changed, and again after one submission's file
 * changed. The class is the project's programs as handed in (testcases/fixtures/csci561-as-handed-in:
 * Java ×3, C++ ×2, Python 3, Python 2.7), each three times over, the copies differing from the
 * original by a comment (so each is a submission of its own, built and graded as such). Each run is
 * a fresh process: its start, its sandbox check, the builds the first run does, the hashing the
 * others do. A checkout without the programs skips with a line that says so.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { findExecutable } from '../../sandbox/jail/mechanisms.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { loadSuite } from '../../suites/load.ts';
import { CLASS_BENCH_PROGRAMS } from './class-bench.ts';

const FIXTURES = join(PROJECT_ROOT, 'testcases', 'fixtures', 'csci561-as-handed-in');
const SUITE = join(PROJECT_ROOT, 'testcases', 'csci561-public');
const MANCALA = join(PROJECT_ROOT, 'bin', 'mancala.js');
/** Each program, and this many copies of it more. */
const COPIES = 2;
/** Every this-many-th public case is graded: 5 of the 30, Greedy, MiniMax and Alpha-Beta alike. */
const CASE_STEP = 6;

/** One run of the class. */
export interface RerunPass {
  /** wall-clock ms, the process's start to its exit */
  ms: number;
  /** submissions the journal gave back, of `submissions` */
  reused: number;
  /** every submission's score, in order */
  scores: number[];
  /** submissions that scored nothing, each with its first case's message (a runtime this machine lacks shows here) */
  zero: string[];
}

export type RerunBench =
  | {
      mode: SandboxMode;
      submissions: number;
      cases: number;
      jobs: number;
      first: RerunPass;
      unchanged: RerunPass;
      /** after one submission's file changed */
      oneChanged: RerunPass;
      /** the submission that changed */
      changed: string;
      /** programs left out (a compiler missing), and why */
      leftOut: string[];
      /** the three runs gave every submission the same score */
      sameScores: boolean;
    }
  | { mode: SandboxMode; skipped: string };

/** A line comment in the file's language, or undefined: not a source file. */
function commentFor(file: string): string | undefined {
  const ext = extname(file);
  if (ext === '.java' || ext === '.cpp' || ext === '.cc' || ext === '.h') return '//';
  if (ext === '.py') return '#';
  return undefined;
}

/** Appends `text` as a comment to every source file under `dir`: the program is the same, its files are not. */
function annotate(dir: string, text: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) annotate(path, text);
    const mark = entry.isFile() ? commentFor(entry.name) : undefined;
    if (mark !== undefined) appendFileSync(path, `\n${mark} ${text}\n`);
  }
}

function pass(args: readonly string[], report: string): RerunPass | string {
  const began = performance.now();
  const r = spawnSync(process.execPath, [MANCALA, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - began;
  if (r.status !== 0 || !existsSync(report)) return `csci561-grade exited ${r.status ?? r.signal}: ${(r.stderr ?? '').trim().split('\n').at(-1) ?? ''}`;
  const reused = /journal .*: reused (\d+) of \d+ /.exec(r.stderr);
  const graded = (JSON.parse(readFileSync(report, 'utf8')) as { submissions: { id: string; score: number; cases: { message: string }[] }[] }).submissions;
  const zero = graded.filter((s) => s.score === 0).map((s) => `${s.id}: ${(s.cases[0]?.message ?? '').split('\n')[0]!.slice(0, 100)}`);
  return { ms, reused: reused === null ? 0 : Number(reused[1]), scores: graded.map((s) => s.score), zero };
}

/** The class graded three times by `csci561-grade --jobs <jobs>` in `mode`: first, unchanged, one submission changed. */
export async function measureClassRerun(o: { mode: SandboxMode; jobs: number }): Promise<RerunBench> {
  if (!existsSync(FIXTURES) || !existsSync(SUITE) || !existsSync(MANCALA)) return { mode: o.mode, skipped: 'the example programs (testcases/fixtures) are not in this copy' };
  const root = mkdtempSync(join(tmpdir(), 'mancala-rerun-bench-'));
  try {
    const leftOut: string[] = [];
    const submissions: string[] = [];
    for (const p of CLASS_BENCH_PROGRAMS) {
      const missing = p.needs.filter((n) => findExecutable(n) === undefined);
      if (missing.length > 0) {
        leftOut.push(`${p.name}: ${missing.join(' and ')} not found on this machine`);
        continue;
      }
      for (let k = 0; k <= COPIES; k++) {
        const dir = join(root, 'class', k === 0 ? p.name : `${p.name}-${k + 1}`);
        cpSync(join(FIXTURES, p.name), dir, { recursive: true });
        if (k > 0) annotate(dir, `copy ${k + 1}: the same program, written up by another student`);
        submissions.push(dir);
      }
    }
    if (submissions.length === 0) return { mode: o.mode, skipped: leftOut.join('; ') };
    const suite = await loadSuite(SUITE);
    const caseIds = suite.cases.filter((_, k) => k % CASE_STEP === 0).map((c) => c.id);
    const report = join(root, 'out', 'report.json');
    const args = ['csci561-grade', ...submissions, '--suite', SUITE, '--case', caseIds.join(','), '--json', report, '--jobs', String(o.jobs), '--no-progress', '--no-color', ...(o.mode === 'weak' ? ['--weak-sandbox'] : [])];
    const first = pass(args, report);
    if (typeof first === 'string') return { mode: o.mode, skipped: first };
    const unchanged = pass(args, report);
    if (typeof unchanged === 'string') return { mode: o.mode, skipped: unchanged };
    // One student resubmits: a file of theirs changes (a comment: the same score, graded again).
    const changed = submissions[Math.floor(submissions.length / 2)]!;
    annotate(changed, 'resubmitted');
    const oneChanged = pass(args, report);
    if (typeof oneChanged === 'string') return { mode: o.mode, skipped: oneChanged };
    const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, k) => x === b[k]);
    return {
      mode: o.mode,
      submissions: submissions.length,
      cases: caseIds.length,
      jobs: o.jobs,
      first,
      unchanged,
      oneChanged,
      changed: changed.slice(join(root, 'class').length + 1),
      leftOut,
      sameScores: same(first.scores, unchanged.scores) && same(first.scores, oneChanged.scores),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The bench's lines for it. */
export function classRerunLines(b: RerunBench): string[] {
  const what = b.mode === 'full' ? 'full jail' : 'weak mode';
  const head = `rerun     a class of CSCI-561 programs graded again (csci561-grade with its journal), ${what}:`;
  if ('skipped' in b) return [`${head} skipped (${b.skipped})`];
  const s = (p: RerunPass) => `${(p.ms / 1000).toFixed(1)} s, reused ${p.reused} of ${b.submissions}`;
  return [
    `${head} ${b.submissions} submissions × ${b.cases} public cases, --jobs ${b.jobs}` +
      (b.leftOut.length > 0 ? `; left out: ${b.leftOut.join('; ')}` : '') +
      (b.sameScores ? '; the same scores each run' : '; NOT the same scores each run'),
    `rerun     first run ${s(b.first)}; again, nothing changed ${s(b.unchanged)}; after ${b.changed} changed ${s(b.oneChanged)}`,
    ...(b.first.zero.length > 0 ? [`rerun     ${b.first.zero.length} scored 0 on this machine, e.g. ${b.first.zero[0]}`] : []),
  ];
}
