/**
 * `mancala bench`: speed figures that stay comparable from run to run and with the C baseline
 * (../shared/bench/kalah.c): perft and reference alpha-beta on Kalah(6,4) under the
 * kalah-empty-capture rules (kalah.c's default), each the best of a few runs because these
 * machines are shared and noisy. perft's rate counts moves played (kalah.c's "mps"); alpha-beta's
 * counts positions visited (kalah.c's "nps").
 */
import { Option, type Command } from 'commander';
import type { DepthUnit } from '../../contracts/search-conventions.ts';
import { setupGame } from '../game-setup.ts';
import { grouped, millions, perSecond, roundMs, wholeNumber, type CliIo } from '../options.ts';
import { measureClassGrading, measureGrading, type ClassGradingSpeed, type GradingCosts } from '../../grading/bench.ts';
import { measureOverhead, type SandboxCosts } from '../../sandbox/bench.ts';
import { measureProgramOverhead } from '../../sandbox/programs/run.ts';
import { benchMode, measureLanguageOverheads, type LanguageCosts } from '../../sandbox/programs/bench.ts';
import { measureStdioRoundTrip } from '../../sandbox/stdio-agents/bench.ts';
import { CLASS_BENCH_LANGUAGES, measureClassPrograms, minMedian, type ClassBench } from '../../packs/csci561/class-bench.ts';
import { classRerunLines, measureClassRerun } from '../../packs/csci561/rerun-bench.ts';
import type { CasePhase } from '../../sandbox/programs/case-phases.ts';
import { coldStartLines, measureColdStarts } from '../cold-start.ts';
import { gamesPerSecond, type MatchSpeed } from '../../matches/bench.ts';
import { measureAlphaBetaLanguages, type AlphaBetaSpeed } from '../../matches/language-bench.ts';
import { measureQueueGames, QUEUE_BENCH, type QueueBench } from '../../tournaments/queue-bench.ts';
import { firstRenderLine, measurePlayPageRender, measureReportPageRender, reportPageLine } from '../../web/bench.ts';
import { measureHtmlReport, type HtmlReportCost } from '../../grading/reporters/html-bench.ts';
import { measureBehaviour, type BehaviourSpeed } from '../../similarity/behaviour-bench.ts';
import { measureSourceSimilarity, type SourceSimilaritySpeed } from '../../similarity/bench.ts';
import { benchEndgameStones, benchSolve, LONG_SOLVE_CASES, SOLVE_CASES, solveLine, solveTableMarkdown, tableCases, type SolveCase, type SolveEntry } from '../solve-bench.ts';
import { compareWithC, nativeCompareLine } from '../native-compare.ts';
import { measurePerft } from './perft.ts';
import { planSearch, runSearch } from './search.ts';

interface BenchCase {
  bench: 'perft' | 'alphabeta';
  rules: string;
  pits: number;
  seeds: number;
  unit: DepthUnit;
  depth: number;
}

/** Depths chosen so each run takes roughly 0.5–1.5 s here (Node 20, 2 shared cores). */
export const BENCH_CASES: readonly BenchCase[] = [
  { bench: 'perft', rules: 'kalah-empty-capture', pits: 6, seeds: 4, unit: 'move', depth: 10 },
  { bench: 'perft', rules: 'kalah-empty-capture', pits: 6, seeds: 4, unit: 'turn', depth: 7 },
  { bench: 'alphabeta', rules: 'kalah-empty-capture', pits: 6, seeds: 4, unit: 'move', depth: 14 },
];

export interface BenchResult extends BenchCase {
  /** perft: positions at the depth; alpha-beta: the move and value found */
  leaves?: number;
  move?: number;
  value?: number | null;
  /** what the rate counts: moves played (perft) or positions visited (alpha-beta) */
  counted: 'moves' | 'nodes';
  count: number;
  /** the fastest of the runs */
  ms: number;
  perSecond: number;
  runs: number;
}

async function runOnce(c: BenchCase): Promise<Omit<BenchResult, 'runs'>> {
  const setup = setupGame({ game: 'mancala', rules: c.rules, pits: c.pits, seeds: c.seeds });
  if (c.bench === 'perft') {
    const r = measurePerft(setup, c.depth, c.unit);
    return { ...c, leaves: r.leaves, counted: 'moves', count: r.moves, ms: r.ms, perSecond: Math.round(perSecond(r.moves, r.ms)) };
  }
  const plan = planSearch({ algo: 'alphabeta', depth: c.depth, unit: c.unit, terminal: 'score' }, setup);
  const r = await runSearch(setup, plan);
  return { ...c, move: r.move, value: r.value, counted: 'nodes', count: r.nodes, ms: r.ms, perSecond: Math.round(perSecond(r.nodes, r.ms)) };
}

export async function runBenchCase(c: BenchCase, runs: number): Promise<BenchResult> {
  let best: Omit<BenchResult, 'runs'> | undefined;
  for (let k = 0; k < runs; k++) {
    const r = await runOnce(c);
    if (best === undefined || r.ms < best.ms) best = r;
  }
  return { ...best!, ms: roundMs(best!.ms), runs };
}

/** Cases in the grading benchmark (the issue's yardstick: under 5 ms a case beyond the agent's own time). */
const GRADING_CASES = 200;

function gradingLine(g: GradingCosts): string {
  return (
    `grading   ${g.cases} depth-2 cases of one submission (sandboxed, graded, ${g.passed} passed) in ${g.ms.toFixed(0)} ms: ` +
    `${g.casesPerSecond.toFixed(0)} cases/s; ${g.overheadMsPerCase.toFixed(2)} ms a case beyond the agent's own ${(g.agentMs / g.cases).toFixed(2)} ms`
  );
}

/** The class in the --jobs grading benchmark: submissions × cases. */
const CLASS = { submissions: 12, count: 200 } as const;

function classLine(g: ClassGradingSpeed): string {
  return `grading   ${g.submissions} submissions × ${g.cases / g.submissions} cases, jobs ${g.jobs}: ${g.ms.toFixed(0)} ms, ${g.casesPerSecond.toFixed(0)} cases/s (${g.passed} passed)`;
}

/** The HTML report's benchmark: a class of 200 submissions × 30 cases (grading/reporters/html-bench.ts). */
function htmlReportLine(c: HtmlReportCost): string {
  return `report    HTML report of ${c.submissions} submissions × ${c.cases} cases: ${c.bestMs.toFixed(0)} ms to render (first ${c.firstMs.toFixed(0)} ms), ${(c.bytes / 1e6).toFixed(1)} MB`;
}

/** Source similarity of a generated class of 200 programs (similarity/bench.ts): every pair by Dolos. */
function similarityLine(c: SourceSimilaritySpeed): string {
  return `similarity source of ${c.programs} Python programs, every pair (${grouped(c.pairs)}, ${grouped(c.similar)} with fragments): ${(c.ms / 1000).toFixed(1)} s, ${c.pairsPerSecond.toFixed(0)} pairs/s`;
}

/** Requests in the sandbox benchmark. */
const SANDBOX_REQUESTS = 200;

function sandboxLine(c: SandboxCosts): string {
  const what = c.mode === 'full' ? 'full jail' : 'weak mode';
  return `sandbox   TS agent, ${what.padEnd(9)}: start ${c.spawnMs.toFixed(0)} ms, first request ${c.loadMs.toFixed(1)} ms, then ${c.msPerCase.toFixed(2)} ms a request beyond the agent's CPU time`;
}

/** Runs in the file-program benchmark (each starts a jail). */
const PROGRAM_RUNS = 30;

type ProgramCosts = Awaited<ReturnType<typeof measureProgramOverhead>>;

function programLine(c: ProgramCosts): string {
  const what = c.mode === 'full' ? 'full jail' : 'weak mode';
  return `sandbox   file program, ${what.padEnd(9)}: ${c.msPerRun.toFixed(1)} ms a run on its own, ${c.msPerKeptCase.toFixed(1)} ms a case among a submission's, beyond the program (/bin/true: start, copy in, read back, end; median of ${PROGRAM_RUNS})`;
}

/** Counted runs of each language's trivial file program (each starts a jail, and the JVM or Python). */
const LANGUAGE_RUNS = 15;

/** What the runtime's start-up is called in a line. */
const STARTUP_OF: Record<LanguageCosts['language'], string> = { 'C++': 'native, no start-up', Java: 'JVM start-up', Python: 'interpreter start-up' };

function languageLine(c: LanguageCosts): string {
  const head = `sandbox   file program in ${`${c.language},`.padEnd(7)} ${(c.mode === 'full' ? 'full jail' : 'weak mode').padEnd(9)}:`;
  if ('skipped' in c) return `${head} skipped (${c.skipped})`;
  const startup = c.language === 'C++' && c.startupCpuMs === 0 ? STARTUP_OF[c.language] : `${STARTUP_OF[c.language]} ${c.startupCpuMs.toFixed(0)} ms of CPU, not charged`;
  return (
    `${head} ${c.overheadMs.toFixed(0).padStart(3)} ms a case beyond its ${c.cpuMs.toFixed(0)} ms of charged CPU time` +
    ` (${startup}; \`${c.command}\`, median of ${c.runs})`
  );
}

/** The class of CSCI-561 programs, bare against sandboxed (packs/csci561/class-bench.ts): cases per program, rounds (short passes, many rounds: a shared machine drifts less within a pass of a few seconds; about 40 s in all here). */
const CLASS_PROGRAMS = { cases: 5, rounds: 5 } as const;

/** What each phase of a sandboxed case is called in the breakdown (sandbox/programs/case-phases.ts). */
const PHASE_NAMES: Record<CasePhase, string> = {
  plan: 'plan',
  'start-up': "runtimes' start-up measured",
  folders: 'folders emptied, submission and inputs in',
  meter: 'cgroups made or reset',
  jail: "jail start (once a submission where the grader is root) and go to the program's start",
  program: 'program',
  report: 'kill-all and read-back',
  polling: 'CPU polls',
  clean: 'jail ended, cgroups removed',
  compare: 'comparison',
};

const ratio = (x: number) => `${x.toFixed(2)}×`;
const minMed = (xs: number[]) => {
  const m = minMedian(xs);
  return `${ratio(m.median)} (min ${ratio(m.min)})`;
};

export function classProgramLines(c: ClassBench): string[] {
  const what = c.mode === 'full' ? 'full jail' : 'weak mode';
  if ('skipped' in c) return [`class     CSCI-561 programs, bare against sandboxed, ${what}: skipped (${c.skipped})`];
  const count = (l: string) => c.programs.filter((p) => p.language === l).length;
  const kinds = CLASS_BENCH_LANGUAGES.filter((l) => count(l) > 0).map((l) => (count(l) > 1 ? `${l} ×${count(l)}` : l));
  const med = (xs: number[]) => minMedian(xs).median;
  const r = c.rounds;
  const lines = [
    `class     ${c.programs.length} CSCI-561 programs (${kinds.join(', ')}) × ${c.cases} public cases, ${what}, ${r.length} rounds interleaved; ratios median (min) of the rounds' own` +
      (c.allPassed ? '; every case right both ways' : `; WRONG: ${c.problems.join('; ')}`) +
      (c.leftOut.length > 0 ? `; left out: ${c.leftOut.join('; ')}` : ''),
    `class     jobs 1: bare ${med(r.map((x) => x.bareJobs1)).toFixed(0)} ms, sandboxed (csci561-grade --jobs 1) ${med(r.map((x) => x.sandboxedJobs1)).toFixed(0)} ms: sandboxed/bare ${minMed(r.map((x) => x.sandboxedJobs1 / x.bareJobs1))}`,
    `class     jobs 2: bare ${med(r.map((x) => x.bareJobs2)).toFixed(0)} ms, sandboxed (--jobs 2) ${med(r.map((x) => x.sandboxedJobs2)).toFixed(0)} ms: sandboxed/bare ${minMed(r.map((x) => x.sandboxedJobs2 / x.bareJobs2))}; ` +
      `jobs 1/jobs 2 bare ${minMed(r.map((x) => x.bareJobs1 / x.bareJobs2))}, sandboxed ${minMed(r.map((x) => x.sandboxedJobs1 / x.sandboxedJobs2))}`,
  ];
  for (const l of CLASS_BENCH_LANGUAGES) {
    const n = c.casesByLanguage[l];
    if (n === undefined) continue;
    const bare = r.map((x) => (x.bareByLanguage[l] ?? 0) / n);
    const boxed = r.map((x) => (x.sandboxedByLanguage[l] ?? 0) / n);
    lines.push(`class     ${`${l},`.padEnd(9)} jobs 1, ${n} cases: bare ${med(bare).toFixed(1)} ms a case, sandboxed ${med(boxed).toFixed(1)} ms: ${minMed(r.map((x) => (x.sandboxedByLanguage[l] ?? 0) / (x.bareByLanguage[l] ?? 1)))}`);
  }
  const per = (p: CasePhase) => c.phases[p] / c.phaseCases;
  const caseMs = r.reduce((a, x) => a + x.sandboxedJobs1, 0) / c.phaseCases;
  const counted = (Object.keys(PHASE_NAMES) as CasePhase[]).filter((p) => p !== 'polling').reduce((a, p) => a + per(p), 0);
  const order = (Object.keys(PHASE_NAMES) as CasePhase[]).filter((p) => p !== 'polling').sort((a, b) => per(b) - per(a));
  lines.push(
    `class     a sandboxed case at jobs 1, ${caseMs.toFixed(1)} ms: ` +
      order.map((p) => `${PHASE_NAMES[p]} ${per(p).toFixed(1)}`).join(', ') +
      `, the grader's rest ${(caseMs - counted).toFixed(1)} ms; ${PHASE_NAMES.polling} ${per('polling').toFixed(2)} ms of the grader's thread (inside the program's time)`,
  );
  return lines;
}

/** Games in the match benchmark. */
const MATCH_GAMES = 2000;

/**
 * The match benchmark's pairings: the historical one, whose games (about 0.4 ms each) are now
 * over before a pool thread is warm, and one with searches a class tournament would play.
 */
const MATCH_PAIRINGS = [
  { A: 'alphabeta:depth=4', B: 'random' },
  { A: 'alphabeta:depth=6', B: 'random' },
] as const;

function matchLine(m: MatchSpeed): string {
  return (
    `match     ${m.A} vs ${m.B}, ${m.games} games, jobs ${m.jobs}: ${m.ms.toFixed(0)} ms, ${m.gamesPerSecond.toFixed(0)} games/s` +
    ` (${m.steadyGamesPerSecond.toFixed(0)} games/s over the second half)`
  );
}

/** Games a second through Redis against the same tournament played here (tournaments/queue-bench.ts). */
function queueLine(q: QueueBench): string {
  const head = `queue     ${QUEUE_BENCH.A} vs ${QUEUE_BENCH.B}, ${QUEUE_BENCH.games} games, ${QUEUE_BENCH.workers} mancala workers through Redis:`;
  if ('skipped' in q) return `${head} skipped (${q.skipped})`;
  const checks = [q.sameStandings ? 'the local standings' : 'NOT the local standings', q.eachGameOnce ? 'each game once' : 'NOT each game once'].join(', ');
  return (
    `${head} ${q.queueMs.toFixed(0)} ms, ${q.queueGamesPerSecond.toFixed(0)} games/s; ` +
    `here with --jobs ${q.workers}: ${q.localMs.toFixed(0)} ms, ${q.localGamesPerSecond.toFixed(0)} games/s (${checks})`
  );
}

/** A line of the alpha-beta comparison across languages (matches/language-bench.ts). */
function alphaBetaLine(s: AlphaBetaSpeed): string {
  const mode = s.mode === undefined ? '' : s.mode === 'full' ? ', full jail' : ', weak mode';
  const head = `match     alphabeta depth ${s.depth} vs random, ${s.games} games, jobs 1, ${`${s.language} (${s.how}${mode}):`.padEnd(42)}`;
  if ('skipped' in s) return `${head} skipped (${s.skipped})`;
  const time = s.ms < 1000 ? `${s.ms.toFixed(0)} ms` : `${(s.ms / 1000).toFixed(1)} s`;
  const games = s.sameGames === undefined ? '' : s.sameGames ? "; the reference's games" : "; NOT the reference's games";
  const forfeits = s.forfeits > 0 ? `; ${s.forfeits} forfeit${s.forfeits === 1 ? '' : 's'}` : '';
  return (
    `${head} ${time.padStart(6)}, ${s.gamesPerSecond.toFixed(0).padStart(4)} games/s (${s.steadyGamesPerSecond.toFixed(0)} over the second half), ` +
    `${s.msPerMove.toFixed(2)} ms a move thinking${games}${forfeits}`
  );
}

/** A line of the behaviour-fingerprint benchmark (similarity/behaviour-bench.ts). */
function behaviourLine(b: BehaviourSpeed): string {
  const head = `behaviour ${`${b.kind},`.padEnd(26)} ${b.submissions} submissions × ${b.positions} positions, jobs ${b.jobs}, ${b.mode === 'full' ? 'full jail' : 'weak mode'}:`;
  if ('skipped' in b) return `${head} skipped (${b.skipped})`;
  const failures = b.failures > 0 ? `; ${b.failures} FAILED` : '';
  return `${head} ${b.ms.toFixed(0)} ms, ${b.fingerprintsPerSecond.toFixed(2)} fingerprints/s, ${b.positionsPerSecond.toFixed(0)} positions/s (a class of 300: ${b.classOf300Minutes.toFixed(1)} min)${failures}`;
}

/** Fresh processes of each command, the median counted. */
const COLD_START_RUNS = 9;

function resultLine(r: BenchResult): string {
  const what =
    r.bench === 'perft'
      ? `${grouped(r.leaves!)} leaves, ${grouped(r.count)} moves`
      : `move ${r.move}, value ${r.value}, ${grouped(r.count)} nodes`;
  return (
    `${r.bench.padEnd(9)} ${r.rules}(${r.pits},${r.seeds}) depth ${String(r.depth).padStart(2)} unit ${r.unit.padEnd(4)}  ` +
    `${what} in ${r.ms.toFixed(1)} ms: ${millions(r.perSecond)} ${r.counted}/s`
  );
}

export function addBenchCommand(program: Command, io: CliIo): void {
  program
    .command('bench')
    .summary('nodes/s of perft and alpha-beta on Kalah(6,4); perfect-play solves of Kalah(6,4) (and (6,5) with --long-solves); cases/s of grading, and a class of about 20 programs graded again with its journal (first run, unchanged, one changed); pairs/s of source similarity; what the sandbox, a file program (C++, Java, Python) and the stdio protocol cost; behaviour fingerprints/s; games/s of a match, of a tournament through Redis, and of alpha-beta in TypeScript, Python and Java')
    .description(
      'Measure perft (both depth units) and reference alpha-beta (unit move) on Kalah(6,4) under the ' +
        'kalah-empty-capture rules, the best of several runs. perft counts moves played a second, ' +
        'alpha-beta positions visited a second: the "mps" and "nps" of the C baseline kalah.c. Then solve Kalah(6,4) ' +
        'from the start under kalah and kalah-empty-capture (each in a fresh process: nodes, time, peak memory); ' +
        '--long-solves adds Kalah(6,5), --solve-table prints the table of docs/perfect-play.md instead.',
    )
    .addOption(new Option('--repeat <n>', 'runs of each case; the fastest counts').argParser(wholeNumber(1, 20, 'runs')).default(3))
    .option('--json', 'JSON output: {"node", "startup": {nodeAloneMs, commands: [{command, medianMs}]}, "results": [{bench, rules, depth, unit, count, ms, perSecond, …}], "native": {depth, rounds, best, median, move, value, nodes} or {depth, skipped}, "solves": [{rules, pits, seeds, value, published, proven, bestMoves, nodes, ms, peakMb, …}], "grading", "classes", "html": {submissions, cases, firstMs, bestMs, runs, bytes}, "similarity": {programs, pairs, similar, ms, pairsPerSecond}, "sandbox", "programs", "languages": [{language, mode, overheadMs, startupCpuMs, …}], "classPrograms": {mode, programs, cases, rounds: [{bareJobs1, bareJobs2, sandboxedJobs1, sandboxedJobs2, bareByLanguage, sandboxedByLanguage}], phases, phaseCases, allPassed, …} or {mode, skipped}, "classRerun": {mode, submissions, cases, jobs, first, unchanged, oneChanged: {ms, reused, scores, zero}, changed, leftOut, sameScores} or {mode, skipped}, "stdio", "behaviour": [{kind, rules, submissions, positions, mode, jobs, ms, fingerprintsPerSecond, positionsPerSecond, classOf300Minutes, failures} or {…, skipped}], "matches", "queue": {queueGamesPerSecond, localGamesPerSecond, sameStandings, eachGameOnce, …} or {skipped}, "alphabeta": [{language, how, mode, depth, games, ms, gamesPerSecond, steadyGamesPerSecond, msPerMove, sameGames, …}], "web": {page, boardMs, paintMs, runs, browser, scriptBytes, styleBytes} or {page, skipped}, "reportPage": {page, submissions, cases, serverFirstMs, serverCachedMs, serverSubmissionMs, pageBytes, fileBytes, paintMs, loadMs, inAppMs, runs, browser} or {page, skipped}}')
    .option('--long-solves', 'also solve Kalah(6,5) under kalah-empty-capture: a 28-stone endgame database (5.6 GB, built once in about 40 minutes on 2 cores) and an 8 GB table; about 5 minutes here')
    .addOption(new Option('--long-solve-time-limit <s>', 'seconds the --long-solves solve may take').argParser(wholeNumber(1, 100_000, 'seconds')).default(5400))
    .addOption(new Option('--solve-time-limit <s>', 'seconds each solve may take before it counts as not reached').argParser(wholeNumber(1, 100_000, 'seconds')).default(120))
    .addOption(
      new Option('--endgame-stones <n>', "the endgame database of the big solves (48 stones or more), built once into node_modules/.cache (default: the largest of 230 million positions, 20 stones on 6 pits; 28 stones is 5.6 GB)")
        .argParser(wholeNumber(0, 31, 'stones')),
    )
    .option('--solve-table', 'only the perfect-play table of docs/perfect-play.md: every Kalah(m,n), m 4..6, n 1..6, both rule sets, as markdown (each solve in a fresh process, --solve-time-limit each)')
    .addHelpText('after', ['', 'Examples:', '  $ mancala bench', '  $ npm run bench -- --json', '  $ mancala bench --repeat 1', '  $ mancala bench --solve-table --solve-time-limit 300'].join('\n'))
    .action(async (opts: { repeat: number; json?: boolean; longSolves?: boolean; solveTimeLimit: number; longSolveTimeLimit: number; endgameStones?: number; solveTable?: boolean }) => {
      // --endgame-stones for the solves that use a database at all.
      const big = (c: SolveCase): SolveCase => (opts.endgameStones === undefined || benchEndgameStones(c) === 0 ? c : { ...c, endgameStones: opts.endgameStones });
      if (opts.solveTable) {
        const entries: SolveEntry[] = [];
        for (const c of tableCases(['kalah-empty-capture', 'kalah'], [4, 5, 6], [1, 2, 3, 4, 5, 6])) {
          const e = benchSolve(big(c), opts.solveTimeLimit);
          entries.push(e);
          if (!opts.json) io.err(solveLine(e) + '\n');
        }
        io.out(opts.json ? JSON.stringify(entries) + '\n' : solveTableMarkdown(entries));
        return;
      }
      if (!opts.json) io.out(`mancala bench: Node ${process.version}, best of ${opts.repeat} run${opts.repeat === 1 ? '' : 's'} each\n`);
      // A fresh process, start to exit (cold-start.ts): what each call of the command costs.
      const startup = measureColdStarts(COLD_START_RUNS);
      if (!opts.json) for (const line of coldStartLines(startup)) io.out(line + '\n');
      const results: BenchResult[] = [];
      for (const c of BENCH_CASES) {
        const r = await runBenchCase(c, opts.repeat);
        results.push(r);
        if (!opts.json) io.out(resultLine(r) + '\n');
      }
      // The same alpha-beta in the C baseline and here, side by side (native-compare.ts); skipped with a note where compare.sh is absent.
      const native = compareWithC();
      if (!opts.json) io.out(nativeCompareLine(native) + '\n');
      // Perfect play from the start, each solve once in a fresh process (its own time and peak memory).
      const solves: SolveEntry[] = [];
      for (const [c, limit] of [...SOLVE_CASES.map((c) => [c, opts.solveTimeLimit] as const), ...(opts.longSolves ? LONG_SOLVE_CASES.map((c) => [c, opts.longSolveTimeLimit] as const) : [])]) {
        const e = benchSolve(big(c), limit);
        solves.push(e);
        if (!opts.json) io.out(solveLine(e) + '\n');
      }
      if (!opts.longSolves && !opts.json) io.out('solve     kalah-empty-capture(6,5): not run by default, it takes 14 GB of memory, about 5 minutes here, and a 40-minute database build the first time (mancala bench --long-solves)\n');
      // Grading: one run (it includes the submission's start-up, which repeats would not show).
      const grading = await measureGrading(GRADING_CASES);
      if (!opts.json) io.out(gradingLine(grading) + '\n');
      // What --jobs buys when grading a class (the pool's threads start inside the timing).
      const classes = await measureClassGrading({ ...CLASS, jobs: [1, 2] });
      if (!opts.json) for (const c of classes) io.out(classLine(c) + '\n');
      // The instructor's page of a class: `--html` (grading/reporters/html.ts).
      const html = measureHtmlReport(200, 30, opts.repeat);
      if (!opts.json) io.out(htmlReportLine(html) + '\n');
      // Who copied whom across a class: source similarity (Dolos) of 200 programs; one run, it takes seconds.
      const similarity = await measureSourceSimilarity(200, 1);
      if (!opts.json) io.out(similarityLine(similarity) + '\n');
      // The isolation's own cost: the same agent in the full jail and in the weak mode (the weak
      // mode alone on a machine without bubblewrap, which the lines say).
      const mode = await benchMode();
      const modes = mode === 'full' ? (['full', 'weak'] as const) : (['weak'] as const);
      const sandbox: SandboxCosts[] = [];
      for (const mode of modes) {
        const costs = await measureOverhead(SANDBOX_REQUESTS, mode);
        sandbox.push(costs);
        if (!opts.json) io.out(sandboxLine(costs) + '\n');
      }
      const programs: ProgramCosts[] = [];
      for (const mode of modes) {
        const costs = await measureProgramOverhead(PROGRAM_RUNS, mode);
        programs.push(costs);
        if (!opts.json) io.out(programLine(costs) + '\n');
      }
      // A case of a trivial file program in each language, as csci561-grade runs it (sandbox/programs/bench.ts).
      const languages = await measureLanguageOverheads(LANGUAGE_RUNS, mode);
      if (!opts.json) for (const c of languages) io.out(languageLine(c) + '\n');
      // A class of real CSCI-561 programs: bare against csci561-grade, jobs 1 and 2, interleaved (packs/csci561/class-bench.ts).
      const classPrograms = await measureClassPrograms({ mode, ...CLASS_PROGRAMS });
      if (!opts.json) for (const line of classProgramLines(classPrograms)) io.out(line + '\n');
      // A class of about 20 such programs graded three times with its journal: first, unchanged, one changed (packs/csci561/rerun-bench.ts).
      const classRerun = await measureClassRerun({ mode, jobs: 2 });
      if (!opts.json) for (const line of classRerunLines(classRerun)) io.out(line + '\n');
      // Protocol 1's round trip to a trivial Python agent over stdio (sandbox/stdio-agents/bench.ts).
      const stdio = await measureStdioRoundTrip(200, mode);
      if (!opts.json) {
        const what = stdio.mode === 'full' ? 'full jail' : 'weak mode';
        io.out(`sandbox   stdio agent (Python), ${what}: protocol round trip ${stdio.medianMs.toFixed(2)} ms a move request (median of ${stdio.requests}), after a start of ${stdio.startMs.toFixed(0)} ms\n`);
      }
      // Behaviour fingerprints (`mancala similarity`): a small class of each kind, --jobs 2.
      const behaviour = await measureBehaviour(mode);
      if (!opts.json) for (const b of behaviour) io.out(behaviourLine(b) + '\n');
      const matches: MatchSpeed[] = [];
      for (const pairing of MATCH_PAIRINGS) {
        for (const jobs of [1, 2]) {
          const m = await gamesPerSecond({ ...pairing, games: MATCH_GAMES, jobs });
          matches.push(m);
          if (!opts.json) io.out(matchLine(m) + '\n');
        }
      }
      // A tournament's games through Redis and 2 workers, against --jobs 2 here (tournaments/queue-bench.ts).
      const queue = await measureQueueGames();
      if (!opts.json) io.out(queueLine(queue) + '\n');
      // The same alpha-beta in TypeScript, Python and Java, each against random at one depth (matches/language-bench.ts).
      const alphabeta = await measureAlphaBetaLanguages({
        mode,
        onResult: (s) => {
          if (!opts.json) io.out(alphaBetaLine(s) + '\n');
        },
      });
      // The web app (mancala serve): the Play page's time to first render in chromium (web/bench.ts).
      const web = await measurePlayPageRender(Math.max(3, opts.repeat));
      if (!opts.json) io.out(firstRenderLine(web) + '\n');
      // The Reports page: a class of 200's report page, in the server and in chromium (web/bench.ts).
      const reportPage = await measureReportPageRender(Math.max(3, opts.repeat));
      if (!opts.json) io.out(reportPageLine(reportPage) + '\n');
      if (opts.json) io.out(JSON.stringify({ node: process.version, repeat: opts.repeat, startup, results, native, solves, grading, classes, html, similarity, sandbox, programs, languages, classPrograms, classRerun, stdio, behaviour, matches, queue, alphabeta, web, reportPage }) + '\n');
    });
}
