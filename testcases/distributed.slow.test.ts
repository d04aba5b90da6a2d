/**
 * Distributed runs under faults, and under load (the slow suite: `npm run test:slow`): a private
 * redis-server on a loopback port and `mancala worker` processes, each test bounded and stopping by
 * itself.
 *  - a worker killed with SIGKILL in the middle of a game: its game is retried by the other worker;
 *  - Redis killed and started again, empty (no persistence), in the middle of a run;
 *  - a coordinator killed with SIGKILL and run again with the same command, for a tournament and for
 *    grading (nothing graded twice);
 *  - 2,000 games through Redis with 2 workers against `--jobs 2` here (the figures are printed).
 * In each: every scheduled game in the results file exactly once, and the standings (or the scores)
 * of the same run played locally.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisCommands } from '../framework/distributed/redis-commands.ts';
import { startPrivateRedis, type PrivateRedis } from '../framework/distributed/redis-server.ts';
import { QUEUE_NAME, QUEUE_PREFIX, resultsKey } from '../framework/distributed/protocol.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { standingsJson } from '../framework/tournaments/crosstable.ts';
import type { TournamentParams } from '../framework/tournaments/params.ts';
import { runTournament, type TournamentOutcome } from '../framework/tournaments/runner.ts';
import { measureQueueGames } from '../framework/tournaments/queue-bench.ts';
import { describeWithRedis, MANCALA, ROOT, startWorkers, stopWorkers, type WorkerProcess } from './fixtures/queue-workers.ts';

const work = mkdtempSync(join(tmpdir(), 'distributed-slow-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** 36 games of deterministic searches, 20-300 ms each: a worker is nearly always in the middle of one. */
const AGENTS = ['alphabeta:depth=9', 'alphabeta:depth=8', 'alphabeta:depth=7', 'alphabeta:depth=6'];
const params: TournamentParams = {
  format: 'round-robin',
  agents: AGENTS,
  vs: [],
  gamesPerPair: 6,
  seed: 5,
  rules: 'kalah',
  pits: 6,
  seeds: 4,
  timePerMoveMs: 10_000,
  openings: 'random:2',
  openingsSha256: null,
  forfeit: 'loss',
};
const CLI_ARGS = [...AGENTS, '--games-per-pair', '6', '--seed', '5', '--time-per-move', '10000', '--openings', 'random:2', '--no-progress'];

const played = (g: { index: number; winner: string; score: number[]; moves: number[]; forfeit: unknown }) => ({ index: g.index, winner: g.winner, score: g.score, moves: g.moves, forfeit: g.forfeit });

/** The indices of the games in a results file, one per game line. */
function recordedIndices(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"type":"game"') && l.endsWith('}'))
    .map((l) => (JSON.parse(l) as { index: number }).index);
}

/** Every scheduled game exactly once in the file, and the local run's games and standings. */
function expectLikeLocal(outcome: TournamentOutcome, local: TournamentOutcome): void {
  expect(outcome.complete).toBe(true);
  const indices = recordedIndices(outcome.file);
  expect(indices.length).toBe(local.schedule.length);
  expect([...indices].sort((a, b) => a - b)).toEqual(local.schedule.map((g) => g.index).sort((a, b) => a - b));
  expect(outcome.games.map(played)).toEqual(local.games.map(played));
  expect(outcome.standings).toEqual(local.standings);
}

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describeWithRedis('distributed runs under faults and load (real redis-server, mancala worker processes)', () => {
  let redis: PrivateRedis;
  let local: TournamentOutcome;
  let workers: WorkerProcess[] = [];
  beforeAll(async () => {
    redis = await startPrivateRedis();
    local = await runTournament({ params, outDir: join(work, 'local'), jobs: 2 });
  });
  afterAll(async () => {
    await stopWorkers(workers);
    await redis?.stop();
  });

  it('2 workers, one killed with SIGKILL in the middle of a game: the other plays it, every game counted once, the local standings', async () => {
    // A database of its own (/1): a run left behind by a failed test would not mix with the next.
    const url = `${redis.url}/1`;
    workers = await startWorkers(url, ['w1', 'w2'], ['--lock-ms', '2000']);
    const [w1, w2] = workers as [WorkerProcess, WorkerProcess];
    const running = runTournament({ params, outDir: join(work, 'killed'), jobs: 1, queue: url });
    await until('w1 to play 3 games', () => w1.jobLines().length >= 3);
    w1.kill('SIGKILL');
    expect(await w1.exited).toBe(null);
    // The game w1 held: still active in Redis, its processedBy ("pb") w1, until its lock lapses.
    // Unless w1 had written its result already (killed between recording and completing the job):
    // then no one need play it again.
    const c = new RedisCommands({ host: '127.0.0.1', port: redis.port, db: 1 });
    await c.connect();
    let held: string | undefined;
    let heldUnrecorded = false;
    try {
      for (const id of (await c.send('LRANGE', [`${QUEUE_PREFIX}:${QUEUE_NAME}:active`, '0', '-1'])) as string[]) {
        if ((await c.send('HGET', [`${QUEUE_PREFIX}:${QUEUE_NAME}:${id}`, 'pb'])) !== 'w1') continue;
        held = id;
        const run = id.slice(0, id.lastIndexOf('-'));
        heldUnrecorded = (await c.send('HEXISTS', [resultsKey(run), id.slice(id.lastIndexOf('-') + 1)])) === 0;
      }
    } finally {
      c.close();
    }
    expect(held, 'w1 held a game when it was killed').toBeDefined();
    const game = held!.split('-').pop()!;
    const outcome = await running;
    // Every game recorded exactly once, the local standings.
    expectLikeLocal(outcome, local);
    // w1's unfinished game was played to the end by w2, once its lock lapsed.
    if (heldUnrecorded) {
      expect(w2.jobLines().some((l) => l.includes(` game ${game}: `)), w2.lines.join('\n')).toBe(true);
      expect(w1.jobLines().some((l) => l.includes(` game ${game}: `))).toBe(false);
    }
    await stopWorkers(workers);
  });

  it('Redis killed and started again, empty, in the middle of a run: nothing lost, nothing counted twice', async () => {
    const url = `${redis.url}/2`;
    workers = await startWorkers(url, ['r1', 'r2'], ['--lock-ms', '2000']);
    const notices: string[] = [];
    let restarted: Promise<void> | undefined;
    let jobsBefore: number[] = [];
    const outcome = await runTournament({
      params,
      outDir: join(work, 'restarted'),
      jobs: 1,
      queue: url,
      onNotice: (l) => notices.push(l),
      onProgress: (p) => {
        if (p.done === 12 && restarted === undefined) {
          jobsBefore = workers.map((w) => w.jobLines().length);
          restarted = redis.restart();
        }
      },
    });
    await restarted;
    expect(restarted).toBeDefined();
    expectLikeLocal(outcome, local);
    expect(notices.join('\n')).toMatch(/Redis lost this run \(restarted without persistence\?\)/);
    // The workers went on playing after the restart (ioredis reconnects them by itself).
    expect(workers.reduce((n, w, i) => n + w.jobLines().length - jobsBefore[i]!, 0)).toBeGreaterThan(0);
    await stopWorkers(workers);
  });

  it('a tournament coordinator killed with SIGKILL and run again with the same command resumes: each game once, the local standings', async () => {
    const url = `${redis.url}/3`;
    workers = await startWorkers(url, ['c1', 'c2']);
    const out = join(work, 'coordinator');
    const json = join(work, 'coordinator.json');
    const args = [MANCALA, 'tournament', ...CLI_ARGS, '--out', out, '--json', json, '--queue', url];
    const first = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    await until('10 games recorded', () => recordedIndices(join(out, 'results.jsonl')).length >= 10);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const before = recordedIndices(join(out, 'results.jsonl')).length;
    const second = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    second.stdout!.on('data', (b: Buffer) => void (text += b.toString()));
    second.stderr!.on('data', (b: Buffer) => void (text += b.toString()));
    expect(await new Promise((resolve) => second.once('exit', resolve)), text).toBe(0);
    const indices = recordedIndices(join(out, 'results.jsonl'));
    expect([...indices].sort((a, b) => a - b)).toEqual(local.schedule.map((g) => g.index).sort((a, b) => a - b));
    expect(text).toMatch(new RegExp(`36 of 36 games recorded in .* \\(\\d+ played now, ${before} by an earlier run\\)`));
    const standings = JSON.parse(readFileSync(json, 'utf8')) as unknown;
    expect(standings).toEqual(standingsJson(local.games.length, local.standings));
    await stopWorkers(workers);
  });

  it('a grading coordinator killed with SIGKILL and run again grades no submission twice, and gives the local scores', async () => {
    const url = `${redis.url}/4`;
    workers = await startWorkers(url, ['g1', 'g2']);
    const submissions = ['agents/examples/alice', 'agents/examples/bob', 'agents/examples/carol'];
    const json = join(work, 'grade.json');
    const args = [MANCALA, 'grade', ...submissions, '--suite', 'testcases/kalah-basics', '--weak-sandbox', '--no-progress', '--json', json, '--queue', url];
    const first = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    await until('a submission graded', () => workers.some((w) => w.jobLines().some((l) => / submission \w+: /.test(l))));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const second = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    second.stderr!.on('data', (b: Buffer) => void (text += b.toString()));
    second.stdout!.resume();
    expect(await new Promise((resolve) => second.once('exit', resolve)), text).toBe(0);
    const graded = workers.flatMap((w) => w.jobLines()).filter((l) => / submission \w+: \d/.test(l));
    const said = workers.map((w) => `${w.name}:\n${w.lines.join('\n')}`).join('\n');
    for (const s of ['alice', 'bob', 'carol']) expect(graded.filter((l) => l.includes(` submission ${s}: `)), said).toHaveLength(1);
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const before = process.cwd();
    process.chdir(ROOT);
    try {
      const here = await gradeSubmissions({ suite, submissions, visibility: 'all', jobs: 2, sandbox: 'weak' });
      const there = JSON.parse(readFileSync(json, 'utf8')) as { submissions: { id: string; score: number; cases: { status: string }[] }[] };
      expect(there.submissions.map((s) => [s.id, s.score, s.cases.map((c) => c.status)])).toEqual(here.submissions.map((s) => [s.id, Number(s.score.toFixed(6)), s.cases.map((c) => c.status)]));
    } finally {
      process.chdir(before);
    }
    await stopWorkers(workers);
  });

  it('load: 2,000 games through Redis with 2 workers, against --jobs 2 here', async () => {
    const q = await measureQueueGames({ games: 2000, workers: 2 });
    if ('skipped' in q) throw new Error(q.skipped);
    console.log(
      `2,000 games of ${q.A} vs ${q.B}: through Redis with ${q.workers} workers ${q.queueMs.toFixed(0)} ms (${q.queueGamesPerSecond.toFixed(0)} games/s); ` +
        `here with --jobs ${q.workers} ${q.localMs.toFixed(0)} ms (${q.localGamesPerSecond.toFixed(0)} games/s)`,
    );
    expect(q.eachGameOnce).toBe(true);
    expect(q.sameStandings).toBe(true);
  });
});
