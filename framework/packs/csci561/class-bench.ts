/**
 * A class of CSCI-561 programs graded in the sandbox against the same programs run bare, in one
 * run (for `mancala bench`): the project's own student-style programs
 * (testcases/fixtures/csci561-as-handed-in: Java ×3, C++ ×2, Python 3, Python 2.7), each built
 * once by the grader's own build and given a `command` file, as the course's programs came.
 *
 *  - bare: a sequential loop, per case a fresh folder holding a copy of the built program and
 *    input.txt, the command run there (its runtime resolved as the sandbox resolves it: the real
 *    interpreter, not a version manager's shim; the JVM given the sandbox's options), no sandbox;
 *    at jobs 2, two such loops at once, each taking the next program;
 *  - sandboxed: `csci561-grade`'s own path (gradeProgramsWithRuns) with --jobs 1 and --jobs 2,
 *    every case checked against the reference's files.
 * The three are interleaved, round after round (the order turned each round), so that a shared
 * machine's drift hits them alike; each ratio is taken within its round, and min and median are
 * given. The phases of a sandboxed case (case-phases.ts) are summed over the --jobs 1 runs.
 *
 * The programs are found by path from this file (framework/ imports nothing of testcases/); a
 * checkout without them (an installed package, a student kit) skips with a line that says so.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSuite } from '../../suites/load.ts';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';
import { findExecutable, type SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { resolveRuntime, runtimeEnv } from '../../sandbox/programs/runtimes.ts';
import { CASE_PHASES, takePhaseTimes, type CasePhase } from '../../sandbox/programs/case-phases.ts';
import { median } from '../../sandbox/programs/startup.ts';
import { compareCaseFiles } from './compare.ts';
import { INPUT_FILE, NEXT_STATE_FILE, TRAVERSE_LOG_FILE } from './files.ts';
import { gradeProgramsWithRuns, shellCommand } from './grade-programs.ts';
import { programCases, type ProgramCase } from './program-cases.ts';
import { prepareProgram, readProgramSubmission, COMMAND_FILE } from './program.ts';
import { programRunLines } from './course-run-lines.ts';

const FIXTURES = join(PROJECT_ROOT, 'testcases', 'fixtures', 'csci561-as-handed-in');
const SUITE = join(PROJECT_ROOT, 'testcases', 'csci561-public');
/** The public cases' memory limit (suite.yaml), which sizes the JVM's heap in the sandbox. */
const CASE_MEMORY_BYTES = 512 * 1024 * 1024;

export const CLASS_BENCH_LANGUAGES = ['Java', 'C++', 'Python 3', 'Python 2'] as const;
export type ClassBenchLanguage = (typeof CLASS_BENCH_LANGUAGES)[number];

export const CLASS_BENCH_PROGRAMS: readonly { name: string; language: ClassBenchLanguage; needs: string[] }[] = [
  { name: 'java-args', language: 'Java', needs: ['javac', 'java'] },
  { name: 'java-package', language: 'Java', needs: ['javac', 'java'] },
  { name: 'java-several-files', language: 'Java', needs: ['javac', 'java'] },
  { name: 'cpp', language: 'C++', needs: ['g++'] },
  { name: 'cpp11', language: 'C++', needs: ['g++'] },
  { name: 'python3', language: 'Python 3', needs: [] },
  { name: 'python2', language: 'Python 2', needs: [] },
];

/** A program ready for both kinds of run: its built folder (with a `command` file) and its words. */
interface BenchProgram {
  name: string;
  language: ClassBenchLanguage;
  dir: string;
  /** the command with its first word resolved as the sandbox resolves it */
  argv: string[];
}

export interface ClassBenchRound {
  /** wall-clock ms of the whole pass */
  bareJobs1: number;
  bareJobs2: number;
  sandboxedJobs1: number;
  sandboxedJobs2: number;
  /** per language, ms summed over its cases at jobs 1 */
  bareByLanguage: Partial<Record<ClassBenchLanguage, number>>;
  sandboxedByLanguage: Partial<Record<ClassBenchLanguage, number>>;
}

export type ClassBench =
  | {
      mode: SandboxMode;
      programs: { name: string; language: ClassBenchLanguage; command: string }[];
      /** cases per program */
      cases: number;
      rounds: ClassBenchRound[];
      /** cases each language has in a pass */
      casesByLanguage: Partial<Record<ClassBenchLanguage, number>>;
      /** the phases of the sandboxed --jobs 1 cases, ms summed over every round, and the cases counted */
      phases: Record<CasePhase, number>;
      phaseCases: number;
      /** programs left out, and why */
      leftOut: string[];
      /** every sandboxed case passed, and every bare case wrote the right files */
      allPassed: boolean;
      problems: string[];
    }
  | { mode: SandboxMode; skipped: string };

/** Every `step`-th case of the suite's 30: Greedy, MiniMax and Alpha-Beta alike. */
function pickCases(all: readonly ProgramCase[], count: number): ProgramCase[] {
  if (count >= all.length) return [...all];
  const step = all.length / count;
  return Array.from({ length: count }, (_, k) => all[Math.floor(k * step)]!);
}

/** The bare runs' environment: the grader's, with the JVM options the sandbox gives (its heap, serial GC), so that the ratio is the sandbox's alone. */
const BARE_ENV = { ...process.env, ...runtimeEnv(CASE_MEMORY_BYTES) };

function runBare(argv: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, stdio: 'ignore', env: BARE_ENV });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

function readIfThere(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** One bare case: a fresh folder, the built program and input.txt copied in, the command run there. */
async function bareCase(p: BenchProgram, pc: ProgramCase, problems: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mancala-bare-'));
  try {
    cpSync(p.dir, dir, { recursive: true });
    writeFileSync(join(dir, INPUT_FILE), pc.input);
    const code = await runBare(p.argv, dir);
    const nextState = readIfThere(join(dir, NEXT_STATE_FILE));
    const traverseLog = readIfThere(join(dir, TRAVERSE_LOG_FILE));
    const wrong = compareCaseFiles(pc.expected, { ...(nextState !== undefined ? { nextState } : {}), ...(traverseLog !== undefined ? { traverseLog } : {}) });
    if (code !== 0 || wrong.length > 0) problems.push(`bare ${p.name} ${pc.c.id}: exit ${code}${wrong.length > 0 ? `, ${wrong[0]}` : ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bare loop over `programs` × `cases`, `jobs` loops at once taking the next program; ms per language. */
async function barePass(programs: readonly BenchProgram[], cases: readonly ProgramCase[], jobs: number, problems: string[]): Promise<{ ms: number; byLanguage: Partial<Record<ClassBenchLanguage, number>> }> {
  const byLanguage: Partial<Record<ClassBenchLanguage, number>> = {};
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < programs.length; i = next++) {
      const p = programs[i]!;
      for (const pc of cases) {
        const t = performance.now();
        await bareCase(p, pc, problems);
        byLanguage[p.language] = (byLanguage[p.language] ?? 0) + performance.now() - t;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: jobs }, loop));
  return { ms: performance.now() - start, byLanguage };
}

/** `csci561-grade` on the built programs; at jobs 1, ms per language from one case's end to the next's. */
async function sandboxedPass(
  suite: Awaited<ReturnType<typeof loadSuite>>,
  programs: readonly BenchProgram[],
  caseIds: readonly string[],
  jobs: number,
  mode: SandboxMode,
  problems: string[],
): Promise<{ ms: number; byLanguage: Partial<Record<ClassBenchLanguage, number>> }> {
  const byLanguage: Partial<Record<ClassBenchLanguage, number>> = {};
  const languageOf = new Map(programs.map((p) => [p.name, p.language]));
  const start = performance.now();
  let last = start;
  const graded = await gradeProgramsWithRuns({
    suite,
    submissions: programs.map((p) => p.dir),
    visibility: 'all',
    jobs,
    sandbox: mode,
    caseIds,
    onCase: (submission) => {
      const now = performance.now();
      const language = languageOf.get(submission);
      if (language !== undefined) byLanguage[language] = (byLanguage[language] ?? 0) + now - last;
      last = now;
    },
  });
  const ms = performance.now() - start;
  for (const s of graded.report.submissions) {
    for (const c of s.cases) if (c.status !== 'passed') problems.push(`sandboxed ${s.id} ${c.id}: ${c.status}: ${c.message.split('\n')[0]}`);
  }
  return { ms, byLanguage };
}

/** Builds each program once (the grader's own build, in the sandbox) into a folder with a `command` file. */
async function preparePrograms(root: string, mode: SandboxMode, skipped: string[]): Promise<BenchProgram[]> {
  const lines = programRunLines(SUITE);
  const out: BenchProgram[] = [];
  for (const p of CLASS_BENCH_PROGRAMS) {
    const missing = p.needs.filter((n) => findExecutable(n) === undefined);
    if (missing.length > 0) {
      skipped.push(`${p.name}: ${missing.join(' and ')} not found on this machine`);
      continue;
    }
    const submission = readProgramSubmission(join(FIXTURES, p.name), { lines });
    const runtime = await resolveRuntime(submission.argv[0]!);
    if ('problem' in runtime) {
      skipped.push(`${p.name}: ${runtime.problem}`);
      continue;
    }
    const prepared = await prepareProgram(submission, mode);
    if ('error' in prepared) {
      skipped.push(`${p.name}: ${prepared.error.split('\n')[0]}`);
      continue;
    }
    // The folder is named as the program, so that the report's submission ids are its name.
    const dir = join(root, p.name);
    try {
      cpSync(prepared.files.dir, dir, { recursive: true });
    } finally {
      await prepared.files.dispose();
    }
    writeFileSync(join(dir, COMMAND_FILE), shellCommand(submission.argv) + '\n');
    // A file of the program (./mancala) is run from the case's folder, as the jail runs it.
    const first = runtime.executable.startsWith('/') ? runtime.executable : `./${runtime.executable}`;
    out.push({ name: p.name, language: p.language, dir, argv: [first, ...submission.argv.slice(1)] });
  }
  return out;
}

/**
 * `rounds` rounds of bare (jobs 1, 2) and sandboxed (--jobs 1, 2) passes over the programs and
 * `cases` of the public cases, in `mode`.
 */
export async function measureClassPrograms(o: { mode: SandboxMode; cases: number; rounds: number }): Promise<ClassBench> {
  if (!existsSync(FIXTURES) || !existsSync(SUITE)) return { mode: o.mode, skipped: 'the example programs (testcases/fixtures) are not in this copy' };
  const root = mkdtempSync(join(tmpdir(), 'mancala-class-bench-'));
  try {
    const skipped: string[] = [];
    const programs = await preparePrograms(root, o.mode, skipped);
    if (programs.length === 0) return { mode: o.mode, skipped: skipped.join('; ') };
    const suite = await loadSuite(SUITE);
    const cases = pickCases(programCases(suite, suite.cases), o.cases);
    const caseIds = cases.map((pc) => pc.c.id);
    const problems: string[] = [];
    // Warm the caches (the programs' files, the runtimes' start-ups, the pool's thread) outside the
    // timing: what a class of hundreds pays once, and a pass of 70 cases would pay in its first round only.
    await barePass(programs, cases.slice(0, 1), 1, problems);
    await sandboxedPass(suite, programs, caseIds.slice(0, 1), 1, o.mode, problems);
    await sandboxedPass(suite, programs, caseIds.slice(0, 1), 2, o.mode, problems);
    takePhaseTimes();
    const phases = Object.fromEntries(CASE_PHASES.map((p) => [p, 0])) as Record<CasePhase, number>;
    let phaseCases = 0;
    const rounds: ClassBenchRound[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const passes: (() => Promise<void>)[] = [];
      const round: Partial<ClassBenchRound> = {};
      passes.push(async () => {
        const b = await barePass(programs, cases, 1, problems);
        round.bareJobs1 = b.ms;
        round.bareByLanguage = b.byLanguage;
      });
      passes.push(async () => {
        takePhaseTimes();
        const s = await sandboxedPass(suite, programs, caseIds, 1, o.mode, problems);
        const t = takePhaseTimes();
        for (const p of CASE_PHASES) phases[p] += t.ms[p];
        phaseCases += programs.length * cases.length;
        round.sandboxedJobs1 = s.ms;
        round.sandboxedByLanguage = s.byLanguage;
      });
      passes.push(async () => void (round.bareJobs2 = (await barePass(programs, cases, 2, problems)).ms));
      passes.push(async () => void (round.sandboxedJobs2 = (await sandboxedPass(suite, programs, caseIds, 2, o.mode, problems)).ms));
      // Turned each round, so that neither kind always runs first.
      const order = r % 2 === 0 ? passes : [passes[1]!, passes[0]!, passes[3]!, passes[2]!];
      for (const pass of order) await pass();
      rounds.push(round as ClassBenchRound);
    }
    const casesByLanguage: Partial<Record<ClassBenchLanguage, number>> = {};
    for (const p of programs) casesByLanguage[p.language] = (casesByLanguage[p.language] ?? 0) + cases.length;
    return {
      mode: o.mode,
      programs: programs.map((p) => ({ name: p.name, language: p.language, command: readFileSync(join(p.dir, COMMAND_FILE), 'utf8').trim() })),
      cases: cases.length,
      rounds,
      casesByLanguage,
      phases,
      phaseCases,
      leftOut: skipped,
      allPassed: problems.length === 0,
      problems: problems.slice(0, 5),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** min and median of `xs`. */
export function minMedian(xs: readonly number[]): { min: number; median: number } {
  return { min: Math.min(...xs), median: median([...xs]) };
}
