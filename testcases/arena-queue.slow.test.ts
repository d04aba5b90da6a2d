/**
 * `mancala arena start --queue`: the arena's games played by `mancala worker` processes through a
 * private redis-server, as a tournament's are. A worker and the server are both killed (SIGKILL)
 * while games are in play; with the server started again, no game is lost and none is counted
 * twice (every rated game rated once).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../framework/distributed/redis-server.ts';
import { describeWithRedis, MANCALA, ROOT, startWorkers, stopWorkers, type WorkerProcess } from './fixtures/queue-workers.ts';
import { arenaRows, arenaTokens, startArena, waitUntil } from './fixtures/arena-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-queue-'));
const arenaDir = join(dir, 'term');
const servers: ChildProcess[] = [];

const db = (sql: string) => arenaRows(arenaDir, sql);
const startServer = (queue: string, extra: string[] = []) => startArena({ cwd: dir, arenaDir, args: ['--port', '0', '--time-per-move', '300', '--queue', queue, ...extra], servers });

describeWithRedis('mancala arena --queue (real redis-server, mancala worker processes)', () => {
  let redis: PrivateRedis;
  let workers: WorkerProcess[] = [];
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    for (const s of servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
    await stopWorkers(workers);
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a worker and the server killed mid-game: every game played, each counted once', async () => {
    const url = `${redis.url}/5`;
    workers = await startWorkers(url, ['w1', 'w2'], ['--lock-ms', '2000']);
    writeFileSync(join(dir, 'roster.csv'), 'id\nalice\nbob\n');
    const first = await startServer(url, ['--roster', join(dir, 'roster.csv')]);
    const tokens = arenaTokens(arenaDir);
    for (const [who, folder] of [['alice', 'agents/examples/python-greedy'], ['bob', 'agents/examples/alice']] as const) {
      const r = spawnSync(process.execPath, [MANCALA, 'submit', '--arena', first.url, '--token', tokens.get(who)!, join(ROOT, folder)], { encoding: 'utf8' });
      expect(r.stdout, r.stderr).toMatch(/^submission \d: checking/);
    }
    await waitUntil('ladder games in play on the workers', () => Number(db("SELECT count(*) AS n FROM games WHERE status = 'running' AND kind = 'ladder'")[0]!['n']) > 0);
    await waitUntil('the workers to have played', () => workers.every((w) => w.jobLines().length + w.lines.filter((l) => / arena /.test(l)).length > 0), 120_000);
    workers[0]!.kill('SIGKILL');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const runningAtKill = db("SELECT id FROM games WHERE status = 'running'").map((r) => Number(r['id']));
    expect(runningAtKill.length).toBeGreaterThan(0);
    const second = await startServer(url);
    // The surviving worker's lines say why, if it does not (e.g. it refused a run of another project version and stopped).
    await waitUntil(() => `the games left running played; w2's last lines: ${workers[1]!.lines.slice(-5).join(' | ')}`, () => runningAtKill.every((id) => db(`SELECT status FROM games WHERE id = ${id}`)[0]!['status'] === 'done'));
    expect(workers[1]!.lines.some((l) => / arena [0-9a-f]+ game \d+: /.test(l)), workers[1]!.lines.join('\n')).toBe(true);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    expect(db("SELECT count(*) AS n FROM games WHERE status = 'running'")[0]!['n']).toBe(0);
    const rated = db("SELECT a_submission, b_submission FROM games WHERE status = 'done' AND kind IN ('placement','ladder')");
    const sides = rated.reduce((n, g) => n + (g['a_submission'] !== null ? 1 : 0) + (g['b_submission'] !== null ? 1 : 0), 0);
    expect(Number(db('SELECT count(*) AS n FROM rating_history')[0]!['n'])).toBe(sides);
    for (const row of db("SELECT player, games FROM ratings WHERE player LIKE 'sub:%'")) {
      const sub = Number(String(row['player']).slice(4));
      expect(row['games']).toBe(rated.filter((g) => g['a_submission'] === sub || g['b_submission'] === sub).length);
    }
  });
});
