/**
 * Distributed runs, the short checks (the slow suite, testcases/distributed.slow.test.ts, kills
 * workers, restarts Redis and plays 2,000 games): --queue URLs and an unreachable Redis; a small
 * tournament and a grading run through a private redis-server and two `mancala worker`s equal to
 * local runs; a worker of another project version refusing a run; nothing left in Redis after.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { gradeSubmissions } from '../grading/runner.ts';
import type { GradeReport } from '../grading/report.ts';
import { loadSuite } from '../suites/load.ts';
import { runTournament } from '../tournaments/runner.ts';
import type { TournamentParams } from '../tournaments/params.ts';
import { addTournamentCommand } from '../cli/commands/tournament.ts';
import { addWorkerCommand } from '../cli/commands/worker.ts';
import { runCommand } from '../../testcases/fixtures/run-command.ts';
import { describeWithRedis, ROOT, startWorker, startWorkers, stopWorkers, type WorkerProcess } from '../../testcases/fixtures/queue-workers.ts';
import { bullConnection } from './connection.ts';
import { aliveKey, encode, jobId, QUEUE_NAME, QUEUE_PREFIX, runKey } from './protocol.ts';
import { parseQueueUrl, probeRedis } from './queue-url.ts';
import { freePort, startPrivateRedis, type PrivateRedis } from './redis-server.ts';
import { RedisCommands } from './redis-commands.ts';

const work = mkdtempSync(join(tmpdir(), 'queue-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('--queue', () => {
  it('takes redis://[[user]:password@]HOST[:PORT][/DB] and refuses anything else in one line', () => {
    expect(parseQueueUrl('redis://10.0.0.5:6380')).toMatchObject({ host: '10.0.0.5', port: 6380, shown: 'redis://10.0.0.5:6380' });
    expect(parseQueueUrl('redis://localhost')).toMatchObject({ host: 'localhost', port: 6379 });
    const secret = parseQueueUrl('redis://:s3cret@h:1/2');
    expect(secret).toMatchObject({ password: 's3cret', db: 2, shown: 'redis://h:1/2' });
    expect(secret.username).toBeUndefined();
    expect(parseQueueUrl('redis://ta:pw@h:1')).toMatchObject({ username: 'ta', password: 'pw' });
    for (const [bad, says] of [
      ['localhost:6379', /not a URL|expected a redis:\/\/ URL/],
      ['http://h:6379', /expected a redis:\/\/ URL/],
      ['redis://h:99999', /not a URL|port/],
      ['redis://h:1/x', /database number/],
      ['redis://h:1?x=1', /no query/],
    ] as const) {
      expect(() => parseQueueUrl(bad)).toThrow(UserError);
      expect(() => parseQueueUrl(bad)).toThrow(says);
    }
  });

  it('an unreachable Redis is one line within seconds, for the coordinator and for a worker', async () => {
    const port = await freePort(); // nothing listens there
    const start = performance.now();
    await expect(probeRedis(parseQueueUrl(`redis://127.0.0.1:${port}`))).rejects.toThrow(`--queue redis://127.0.0.1:${port}: cannot reach Redis: connection refused`);
    // Something listens that is not Redis: one server never answers, the other hangs up at once.
    const silent = createServer(() => {});
    const rude = createServer((socket) => socket.destroy());
    const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    try {
      const [quiet, hangup] = [await listen(silent), await listen(rude)];
      await expect(probeRedis(parseQueueUrl(`redis://127.0.0.1:${quiet}`), 1000)).rejects.toThrow(/cannot reach Redis: no answer to PING within 1000 ms/);
      await expect(probeRedis(parseQueueUrl(`redis://127.0.0.1:${hangup}`), 1000)).rejects.toThrow(/cannot reach Redis: the connection was closed before Redis answered/);
    } finally {
      silent.close();
      rude.close();
    }
    expect(performance.now() - start).toBeLessThan(8000);

    const t = await runCommand(addTournamentCommand, ['tournament', 'random', 'greedy', '--out', join(work, 't-bad'), '--queue', `redis://127.0.0.1:${port}`]);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(new RegExp(`^mancala: --queue redis://127\\.0\\.0\\.1:${port}: cannot reach Redis: connection refused[^\\n]*\\n$`));
    const w = await runCommand(addWorkerCommand, ['worker', '--queue', 'redis//nowhere', '--weak-sandbox']);
    expect(w.code).toBe(2);
    expect(w.err).toMatch(/mancala: --queue redis\/\/nowhere: not a URL/);
  });
});

/** A game as both runs must give it: what was played, not how long it took. */
const played = (g: { index: number; A: string; B: string; winner: string; score: number[]; moves: number[]; forfeit: unknown }) => ({
  index: g.index,
  A: g.A,
  B: g.B,
  winner: g.winner,
  score: g.score,
  moves: g.moves,
  forfeit: g.forfeit,
});

/** A grade report without its timings. */
const scores = (r: GradeReport) => r.submissions.map((s) => ({ ...s, cases: s.cases.map((c) => ({ ...c, ms: 0 })) }));

describeWithRedis('runs through Redis and two mancala workers', () => {
  let redis: PrivateRedis;
  let workers: WorkerProcess[];
  beforeAll(async () => {
    redis = await startPrivateRedis();
    workers = await startWorkers(redis.url, ['w1', 'w2']);
  }, 60_000);
  afterAll(async () => {
    await stopWorkers(workers ?? []);
    await redis?.stop();
  });

  it("a tournament played by 2 workers has the local run's games and standings, each game recorded once", async () => {
    const params: TournamentParams = {
      format: 'round-robin',
      agents: ['alphabeta:depth=3', 'greedy', 'random', 'minimax:depth=2'],
      vs: [],
      gamesPerPair: 4,
      seed: 11,
      rules: 'kalah',
      pits: 6,
      seeds: 4,
      timePerMoveMs: 1000,
      openings: 'random:2',
      openingsSha256: null,
      forfeit: 'loss',
    };
    const notices: string[] = [];
    const queued = await runTournament({ params, outDir: join(work, 'tq'), jobs: 1, queue: redis.url, onNotice: (l) => notices.push(l) });
    const local = await runTournament({ params, outDir: join(work, 'tl'), jobs: 2 });
    expect(queued.complete).toBe(true);
    expect(queued.games.map(played)).toEqual(local.games.map(played));
    expect(queued.standings).toEqual(local.standings);
    const lines = readFileSync(queued.file, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"game"'));
    const indices = lines.map((l) => (JSON.parse(l) as { index: number }).index).sort((a, b) => a - b);
    expect(indices).toEqual(queued.schedule.map((g) => g.index).sort((a, b) => a - b));
    // Both workers played, each a line per game.
    for (const w of workers) expect(w.jobLines().length, w.lines.join('\n')).toBeGreaterThan(0);
    expect(workers.flatMap((w) => w.jobLines()).filter((l) => l.includes(' game '))).toHaveLength(queued.schedule.length);
    expect(notices.join('\n')).toMatch(/24 jobs on the queue/);
  });

  it('grading 2 submissions on 2 workers gives the local scores, notes and paths', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const submissions = ['agents/examples/alice', 'agents/examples/bob'];
    const before = process.cwd();
    process.chdir(ROOT);
    try {
      const progress: { done: number; total: number }[] = [];
      const queued = await gradeSubmissions({ suite, submissions, visibility: 'all', jobs: 1, sandbox: 'weak', queue: redis.url, onProgress: (e) => progress.push(e) });
      // The progress bar's events: each case once, as the workers grade them.
      expect(progress.map((e) => e.done)).toEqual(Array.from({ length: 2 * suite.cases.length }, (_, k) => k + 1));
      const local = await gradeSubmissions({ suite, submissions, visibility: 'all', jobs: 2, sandbox: 'weak' });
      expect(scores(queued)).toEqual(scores(local));
      expect(queued.submissions.map((s) => s.path)).toEqual(submissions);
      expect(queued.isolation.note).toMatch(/graded by mancala worker through redis:\/\/127\.0\.0\.1:\d+/);
    } finally {
      process.chdir(before);
    }
  });

  it('a finished run leaves nothing of itself in Redis', async () => {
    const c = new RedisCommands({ host: '127.0.0.1', port: redis.port });
    await c.connect();
    try {
      expect(await c.send('KEYS', [`${QUEUE_PREFIX}:run:*`])).toEqual([]);
      expect(await c.send('ZCARD', [`${QUEUE_PREFIX}:${QUEUE_NAME}:failed`])).toBe(0);
    } finally {
      c.close();
    }
  });

  it('a worker of another project version puts the job back, tells the coordinator, and stops with exit code 2', async () => {
    // Database 1: the workers above serve database 0.
    const url = `${redis.url}/1`;
    const run = 'feedc0ffee0123456789';
    const c = new RedisCommands({ host: '127.0.0.1', port: redis.port, db: 1 });
    await c.connect();
    const queue = new Queue(QUEUE_NAME, { connection: bullConnection(parseQueueUrl(url)), prefix: QUEUE_PREFIX });
    try {
      await c.send('HSET', [runKey(run), 'version', '0.0.1+000000000000', 'kind', 'framework/tournaments/executor.ts#tournamentJob', 'setup', encode({}), 'cwd', '/', 'files', '[]', 'label', 'tournament', 'coordinator', 'elsewhere:1']);
      await c.send('SET', [aliveKey(run), 'elsewhere:1', 'EX', '60']);
      await queue.add('tournament', { run, key: '1', item: encode({}) }, { jobId: jobId(run, '1') });
      const w = startWorker(url, 'stale');
      const line = await w.waitFor(/refused/);
      expect(line).toMatch(/worker stale refused the tournament run feedc0ff from elsewhere:1: it was made by project version 0\.0\.1\+000000000000, and this worker runs \d+\.\d+\.\d+\+[0-9a-f]{12}; give that machine the same checkout/);
      expect(await w.exited).toBe(2);
      expect(w.lines.join('\n')).toMatch(/mancala: refused a run made by another project version/);
      expect(await queue.getJobState(jobId(run, '1'))).toBe('waiting');
      expect(((await c.send('LRANGE', [`${runKey(run)}:out`, '0', '-1'])) as string[]).some((e) => e.startsWith('x worker stale refused'))).toBe(true);
    } finally {
      await queue.close();
      c.close();
    }
  });
});
