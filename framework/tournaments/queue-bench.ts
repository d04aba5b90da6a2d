/**
 * Games a second through Redis (for `mancala bench` and the load test): a tournament of two
 * reference agents, 2,000 games, played by `mancala worker`s through a private redis-server on a
 * loopback port, against the same tournament played locally with `--jobs` as many as the workers.
 * The workers are started (and serving) before the clock starts: a fleet of workers is already
 * running when a coordinator queues its games; the local run's clock includes its pool's threads
 * starting, as `mancala tournament --jobs 2` does. Both runs must give the same standings.
 * Without redis-server the figure is skipped, and says why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisServerPath, startPrivateRedis } from '../distributed/redis-server.ts';
import { PROJECT_ROOT_DIR } from '../distributed/version.ts';
import type { TournamentParams } from './params.ts';
import { runTournament, type TournamentOutcome } from './runner.ts';

export interface QueueSpeed {
  A: string;
  B: string;
  games: number;
  workers: number;
  /** through Redis: wall-clock ms from queueing to the last result, and games a second */
  queueMs: number;
  queueGamesPerSecond: number;
  /** the same tournament here with --jobs `workers` */
  localMs: number;
  localGamesPerSecond: number;
  /** both runs gave the same standings */
  sameStandings: boolean;
  /** every scheduled game recorded exactly once in the queued run's results file */
  eachGameOnce: boolean;
}

export type QueueBench = QueueSpeed | { skipped: string };

export const QUEUE_BENCH = { A: 'alphabeta:depth=4', B: 'random', games: 2000, workers: 2 } as const;

/** A tournament of exactly `games` games between A and B. */
export function benchParams(A: string, B: string, games: number, seed = 1): TournamentParams {
  return {
    format: 'round-robin',
    agents: [A, B],
    vs: [],
    gamesPerPair: games,
    seed,
    rules: 'kalah',
    pits: 6,
    seeds: 4,
    timePerMoveMs: 1000,
    openings: 'random:2',
    openingsSha256: null,
    forfeit: 'loss',
  };
}

/** `mancala worker` processes on `url`, resolved once each serves the queue. */
async function startWorkerProcesses(url: string, n: number): Promise<ChildProcess[]> {
  const bin = join(PROJECT_ROOT_DIR, 'bin', 'mancala.js');
  const children = Array.from({ length: n }, (_, k) =>
    // Only reference agents play: no submission runs, so the weak sandbox's flag costs nothing (and a machine without bubblewrap benches too).
    spawn(process.execPath, [bin, 'worker', '--queue', url, '--name', `bench-${k + 1}`, '--weak-sandbox'], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve, reject) => {
          let out = '';
          const timer = setTimeout(() => reject(new Error(`a bench worker did not start within 30 s:\n${out}`)), 30_000);
          const read = (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes('serving redis:')) {
              clearTimeout(timer);
              c.stdout!.off('data', read);
              c.stdout!.resume();
              resolve();
            }
          };
          c.stdout!.on('data', read);
          c.stderr!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
          c.once('exit', (code) => reject(new Error(`a bench worker exited (${code}):\n${out}`)));
        }),
    ),
  );
  return children;
}

async function stopProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    }),
  );
}

function sameStandings(a: TournamentOutcome, b: TournamentOutcome): boolean {
  return JSON.stringify(a.standings) === JSON.stringify(b.standings);
}

/** Runs the comparison (see the module comment). */
export async function measureQueueGames(o: { A?: string; B?: string; games?: number; workers?: number } = {}): Promise<QueueBench> {
  if (redisServerPath() === undefined) return { skipped: 'redis-server is not installed (Debian: apt-get install redis-server)' };
  const A = o.A ?? QUEUE_BENCH.A;
  const B = o.B ?? QUEUE_BENCH.B;
  const games = o.games ?? QUEUE_BENCH.games;
  const workers = o.workers ?? QUEUE_BENCH.workers;
  const params = benchParams(A, B, games);
  const dir = mkdtempSync(join(tmpdir(), 'mancala-queue-bench-'));
  const redis = await startPrivateRedis();
  let children: ChildProcess[] = [];
  try {
    children = await startWorkerProcesses(redis.url, workers);
    let start = performance.now();
    const queued = await runTournament({ params, outDir: join(dir, 'queued'), jobs: 1, queue: redis.url });
    const queueMs = performance.now() - start;
    await stopProcesses(children);
    start = performance.now();
    const local = await runTournament({ params, outDir: join(dir, 'local'), jobs: workers });
    const localMs = performance.now() - start;
    // The results file itself: each scheduled game on exactly one line.
    const indices = readFileSync(queued.file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type":"game"'))
      .map((l) => (JSON.parse(l) as { index: number }).index);
    return {
      A,
      B,
      games,
      workers,
      queueMs,
      queueGamesPerSecond: (games * 1000) / queueMs,
      localMs,
      localGamesPerSecond: (games * 1000) / localMs,
      sameStandings: sameStandings(queued, local),
      eachGameOnce: queued.complete && new Set(indices).size === indices.length && indices.length === queued.schedule.length,
    };
  } finally {
    await stopProcesses(children);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
