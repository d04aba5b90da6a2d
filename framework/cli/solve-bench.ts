/**
 * Perfect-play figures for `mancala bench`: solves of whole games from the start, each in a fresh
 * process (`mancala solve --json`) so its time and peak memory are its own, not what an earlier
 * solve in the same process left behind. `--solve-table` makes the table of docs/perfect-play.md:
 * every (m, n) up to 6 under both Kalah rule sets, against the published values.
 *
 * Big solves use an endgame database as the literature's do (Irving et al. to 13 stones, Rawlings
 * to 34): the largest of at most BENCH_ENDGAME_POSITIONS positions, built once by `mancala solve
 * --build-endgame` into node_modules/.cache (npm ci clears it) and reused by later runs. Its build
 * time is printed apart from the solve's, so runs with and without a cached database compare.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_MODULES_DIR, PROJECT_ROOT } from '../sandbox/paths.ts';
import { grouped } from './options.ts';

/**
 * Irving, Donkers & Uiterwijk, "Solving Kalah" (ICGA Journal 23(3), 2000), Table 9: the first
 * player's margin under perfect play, empty-capture rules (our kalah-empty-capture), "m,n".
 */
export const PUBLISHED: Readonly<Record<string, number>> = {
  '4,1': 2, '4,2': 6, '4,3': 8, '4,4': 2, '4,5': 2, '4,6': 0,
  '5,1': 0, '5,2': 0, '5,3': 8, '5,4': 12, '5,5': 2, '5,6': 2,
  '6,1': 2, '6,2': 10, '6,3': 2, '6,4': 10, '6,5': 12,
};

export interface SolveCase {
  rules: string;
  pits: number;
  seeds: number;
  /** transposition table MB, where the solver's default is too small */
  ttMb?: number;
  /** the endgame database's stones (0: none), instead of the largest within the bench's budget */
  endgameStones?: number;
}

/** The endgame database a bench solve used. */
export interface BenchEndgame {
  file: string;
  stones: number;
  bytes: number;
  /** how long it took to build; undefined when an earlier run had built it */
  buildMs?: number;
  /** why it could not be built (the solve then runs without it) */
  error?: string;
}

export interface SolveEntry extends SolveCase {
  value: number | null;
  published: number | null;
  proven: boolean;
  bestMoves: string[];
  nodes: number;
  ms: number;
  cpuMs: number | null;
  /** ms of `ms` reading the endgame database (absent from older records) */
  endgameLoadMs?: number | null;
  peakMb: number | null;
  timeLimitS: number;
  /** what went wrong, when the solve did not answer */
  error?: string;
  endgame?: BenchEndgame;
}

/** Positions in a bench's endgame database at most: 20 stones on 6 pits a side, 226 MB, about two minutes to build here. */
export const BENCH_ENDGAME_POSITIONS = 230_000_000;
/** Starts with fewer stones, or fewer pits, solve in seconds without a database (Kalah(6,3), (4,6), (5,4)): none is built for them. */
const BENCH_ENDGAME_MIN_TOTAL = 48;
const BENCH_ENDGAME_MIN_PITS = 5;
export const ENDGAME_CACHE_DIR = join(NODE_MODULES_DIR, '.cache', 'mancala-autograder', 'endgame');

/** Ways to hold at most `stones` stones in 2·pits pits: C(stones + 2·pits, 2·pits). */
function positions(pits: number, stones: number): number {
  let r = 1;
  for (let k = 1; k <= 2 * pits; k++) r = (r * (stones + k)) / k;
  return Math.round(r);
}

/** Stones of the bench's database for a solve of c (0: none). */
export function benchEndgameStones(c: SolveCase, budget = BENCH_ENDGAME_POSITIONS): number {
  const total = 2 * c.pits * c.seeds;
  if (total < BENCH_ENDGAME_MIN_TOTAL || c.pits < BENCH_ENDGAME_MIN_PITS) return 0;
  let stones = 0;
  while (stones + 1 < total && positions(c.pits, stones + 1) <= budget) stones++;
  return stones;
}

/** The database for c's rules and pits: from the cache, or built there now (in a fresh process). */
export function benchEndgame(c: SolveCase, dir = ENDGAME_CACHE_DIR, budget = BENCH_ENDGAME_POSITIONS): BenchEndgame | undefined {
  const stones = c.endgameStones ?? benchEndgameStones(c, budget);
  if (stones === 0) return undefined;
  // The file format's version in the name: a cache of an older format is built again, not refused.
  const file = join(dir, `${c.rules}-${c.pits}-${stones}-v2.db`);
  if (existsSync(file)) return { file, stones, bytes: statSync(file).size };
  // Written beside its final name and renamed when whole: an interrupted build leaves no half file to load.
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    return { file, stones, bytes: 0, error: `cannot make ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  const part = `${file}.${process.pid}.part`;
  const started = performance.now();
  const args = [join(PROJECT_ROOT, 'bin/mancala.js'), 'solve', '--rules', c.rules, '--pits', String(c.pits), '--build-endgame', String(stones), '--out', part, '--no-progress'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    rmSync(part, { force: true });
    return { file, stones, bytes: 0, error: (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n').pop()! };
  }
  renameSync(part, file);
  return { file, stones, bytes: statSync(file).size, buildMs: performance.now() - started };
}

/** A bench solve: its database first (cached or built), then the solve in a fresh process. */
export function benchSolve(c: SolveCase, timeLimitS: number): SolveEntry {
  const endgame = benchEndgame(c);
  const usable = endgame !== undefined && endgame.error === undefined;
  return { ...solveFresh(c, timeLimitS, usable ? ['--endgame', endgame.file] : []), ...(endgame === undefined ? {} : { endgame }) };
}

/** The default bench's solves (the issue's "seconds" goal), and the long one behind --long-solves ("minutes"). */
export const SOLVE_CASES: readonly SolveCase[] = [
  { rules: 'kalah', pits: 6, seeds: 4 },
  { rules: 'kalah-empty-capture', pits: 6, seeds: 4 },
];
// (6,5) with the default 20-stone database proved no bound in 90 minutes (2.3 billion positions); with 28 stones it is solved in minutes.
export const LONG_SOLVE_CASES: readonly SolveCase[] = [{ rules: 'kalah-empty-capture', pits: 6, seeds: 5, ttMb: 8192, endgameStones: 28 }];

/** One solve from the start in a fresh `mancala solve` process, given up after timeLimitS. */
export function solveFresh(c: SolveCase, timeLimitS: number, extra: readonly string[] = []): SolveEntry {
  const args = [join(PROJECT_ROOT, 'bin/mancala.js'), 'solve', '--rules', c.rules, '--pits', String(c.pits), '--seeds', String(c.seeds)];
  args.push('--best-only', '--json', '--no-progress', '--time-limit', String(timeLimitS), ...(c.ttMb === undefined ? [] : ['--tt-mb', String(c.ttMb)]), ...extra);
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  const published = c.rules === 'kalah-empty-capture' ? (PUBLISHED[`${c.pits},${c.seeds}`] ?? null) : null;
  const base = { rules: c.rules, pits: c.pits, seeds: c.seeds, published, timeLimitS };
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n').pop()!;
    return { ...base, value: null, proven: false, bestMoves: [], nodes: 0, ms: performance.now() - started, cpuMs: null, peakMb: null, error: why };
  }
  const j = JSON.parse(r.stdout) as { value: number | null; proven: boolean; bestMoves: string[]; nodes: number; ms: number; cpuMs: number | null; peakMb: number | null; endgameLoadMs: number | null };
  return { ...base, value: j.value, proven: j.proven, bestMoves: j.bestMoves, nodes: j.nodes, ms: j.ms, cpuMs: j.cpuMs, peakMb: j.peakMb, endgameLoadMs: j.endgameLoadMs };
}

function time(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

const signed = (v: number | null) => (v === null ? '—' : v > 0 ? `+${v}` : String(v));

export function solveLine(e: SolveEntry): string {
  const head = `solve     ${e.rules}(${e.pits},${e.seeds}) from the start:`;
  if (e.error !== undefined) return `${head} failed: ${e.error}`;
  const answer = e.proven ? `value ${signed(e.value)}${e.published === null ? '' : ` (published ${signed(e.published)})`}, best ${e.bestMoves.join(' ')}` : `not proven within ${e.timeLimitS} s`;
  const load = e.endgameLoadMs != null && e.endgameLoadMs >= 1000 ? `, of which ${time(e.endgameLoadMs)} reading the database` : '';
  return `${head} ${answer}; ${grouped(e.nodes)} nodes in ${time(e.ms)} (${e.cpuMs === null ? '?' : time(e.cpuMs)} of CPU${load}), peak memory ${e.peakMb ?? '?'} MB${endgameNote(e.endgame)}`;
}

function endgameNote(d: BenchEndgame | undefined): string {
  if (d === undefined) return '';
  if (d.error !== undefined) return `; no endgame database (building ${d.stones} stones failed: ${d.error})`;
  const made = d.buildMs === undefined ? 'built by an earlier run' : `built in ${time(d.buildMs)}, not counted above`;
  return `; ${d.stones}-stone endgame database (${Math.round(d.bytes / 1e6)} MB, ${made})`;
}

/** Every (m, n) with m in pitsRange and n in seedsRange under each rule set, smallest first. */
export function tableCases(rules: readonly string[], pits: readonly number[], seeds: readonly number[]): SolveCase[] {
  return rules.flatMap((r) => pits.flatMap((m) => seeds.map((n) => ({ rules: r, pits: m, seeds: n }))));
}

/** The markdown table of docs/perfect-play.md. */
export function solveTableMarkdown(entries: readonly SolveEntry[]): string {
  const rows = entries.map((e) => {
    const agrees = e.published === null || !e.proven ? '' : e.value === e.published ? 'yes' : '**NO**';
    const status = e.error !== undefined ? `failed: ${e.error}` : e.proven ? 'solved' : `not reached in ${e.timeLimitS} s`;
    return `| ${e.rules} | ${e.pits} | ${e.seeds} | ${e.proven ? signed(e.value) : '—'} | ${signed(e.published)} | ${agrees} | ${status} | ${time(e.ms)} | ${e.cpuMs === null ? '?' : time(e.cpuMs)} | ${grouped(e.nodes)} | ${e.peakMb ?? '?'} | ${e.endgame === undefined || e.endgame.error !== undefined ? '—' : `${e.endgame.stones} stones`} |`;
  });
  return [
    '| rules | m | n | our value | published | agree | status | time | CPU | nodes | peak MB | endgame db |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n';
}
