/**
 * `mancala arena` end to end, as an instructor and students use it, with real processes: the
 * built CLI, the sandbox, Python and Java submissions, a real database file.
 *
 *  - the instructor starts an arena from a roster; the URL with their token is the first line;
 *  - students submit with `mancala submit --wait`: Python and Java pass the checks and the sanity
 *    stage; one that cannot play fails the sanity stage and is told why;
 *  - a student tries the other's URLs and reads nothing;
 *  - the server is killed (SIGKILL) while games are being played and started again: no game is
 *    lost or counted twice (every rated game is rated exactly once);
 *  - freeze, then the final writes its standings.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANCALA, ROOT } from './fixtures/queue-workers.ts';
import { arenaRows, arenaTokens, startArena, waitUntil } from './fixtures/arena-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-cli-'));
const arenaDir = join(dir, 'term');
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function mancala(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MANCALA, ...args], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Starts the server; resolves with its URL (the first line) once it listens. */
const startServer = (extra: string[] = []) => startArena({ cwd: dir, arenaDir, args: ['--port', '0', '--time-per-move', '300', '--jobs', '2', ...extra], servers });
const db = (sql: string) => arenaRows(arenaDir, sql);

const get = async (url: string, token: string) => {
  const r = await fetch(url, { headers: { authorization: `token ${token}` } });
  return { status: r.status, text: await r.text() };
};

describe('mancala arena, end to end', () => {
  it('runs a term: roster, submissions, private logs, a kill and a restart, the final', async () => {
    writeFileSync(join(dir, 'roster.csv'), 'id,name,email\nalice,Alice Py,alice@example.edu\nbob,Bob Java,bob@example.edu\ncarol,Carol Bad,carol@example.edu\n');
    const first = await startServer(['--roster', join(dir, 'roster.csv'), '--course', 'kalah']);
    const instructor = readFileSync(join(arenaDir, 'instructor.token'), 'utf8').trim();
    expect(first.out()).toContain(`?token=${instructor}`);
    const tokens = arenaTokens(arenaDir);
    expect([...tokens.keys()]).toEqual(['alice', 'bob', 'carol']);

    const submit = (who: string, folder: string) => mancala(['submit', '--arena', first.url, '--token', tokens.get(who)!, join(ROOT, folder), '--wait']);
    const [py, java, bad] = [submit('alice', 'agents/examples/python-greedy'), submit('bob', 'agents/examples/java-greedy'), submit('carol', 'testcases/fixtures/arena/illegal-mover')];
    expect(py.out).toMatch(/submission 1: ladder: on the ladder\n$/);
    expect(java.out).toMatch(/submission 2: ladder: on the ladder\n$/);
    expect(bad.out).toMatch(/submission 3: failed: failed the sanity stage: won 0 of 4 games against random \(more than half needed\); game \d+: illegal-move: .*played 99, not a legal move/);

    // bob tries alice's submission, games and logs: nothing of hers.
    const aliceGames = db("SELECT id FROM games WHERE a_submission = 1 AND status = 'done'").map((r) => Number(r['id']));
    expect(aliceGames.length).toBeGreaterThan(0);
    for (const path of ['api/arena/submissions/1', 'api/arena/games?submission=1', `api/arena/games/${aliceGames[0]}`, `api/arena/games/${aliceGames[0]}/log`]) {
      const r = await get(`${first.url}${path}`, tokens.get('bob')!);
      expect(r.status, path).toBe(404);
    }
    expect((await get(`${first.url}api/arena/submissions/1`, tokens.get('alice')!)).status).toBe(200);
    const standings = await get(`${first.url}api/arena/standings`, tokens.get('carol')!);
    expect(standings.text).not.toMatch(/alice|bob|"student"/);

    // Killed while games are in play, then started again.
    await waitUntil('games running', () => Number(db("SELECT count(*) AS n FROM games WHERE status = 'running'")[0]!['n']) > 0);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const runningAtKill = db("SELECT id FROM games WHERE status = 'running'").map((r) => Number(r['id']));
    expect(runningAtKill.length).toBeGreaterThan(0);
    const second = await startServer();
    await waitUntil('the games left running played again', () => runningAtKill.every((id) => db(`SELECT status FROM games WHERE id = ${id}`)[0]!['status'] === 'done'));
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    expect(db("SELECT count(*) AS n FROM games WHERE status = 'running'")[0]!['n']).toBe(0);
    // Every rated game rated once: one history row per submission side, and each submission's count of games matches.
    const rated = db("SELECT id, a_submission, b_submission FROM games WHERE status = 'done' AND kind IN ('placement','ladder')");
    const sides = rated.reduce((n, g) => n + (g['a_submission'] !== null ? 1 : 0) + (g['b_submission'] !== null ? 1 : 0), 0);
    expect(Number(db('SELECT count(*) AS n FROM rating_history')[0]!['n'])).toBe(sides);
    for (const sub of [1, 2]) {
      const games = rated.filter((g) => g['a_submission'] === sub || g['b_submission'] === sub).length;
      expect(db(`SELECT games FROM ratings WHERE player = 'sub:${sub}'`)[0]!['games']).toBe(games);
    }

    const json = JSON.parse(mancala(['arena', 'standings', arenaDir, '--json']).out) as { standings: { student: string | null; pseudonym: string; rating: number; games: number; anchor: boolean }[] };
    expect(json.standings.filter((s) => !s.anchor).map((s) => s.student).sort()).toEqual(['alice', 'bob']);
    expect(json.standings.filter((s) => s.anchor).map((s) => s.pseudonym).sort()).toEqual(['alphabeta:depth=4', 'greedy', 'random', 'strong:ms=100']);

    expect(mancala(['arena', 'final', arenaDir]).err).toMatch(/not frozen: run mancala arena freeze/);
    expect(mancala(['arena', 'freeze', arenaDir]).code).toBe(0);
    const final = mancala(['arena', 'final', arenaDir, '--games-per-pair', '2', '--stages', '2', '--jobs', '2']);
    expect(final.code, final.err).toBe(0);
    const written = JSON.parse(readFileSync(join(arenaDir, 'final', 'standings.json'), 'utf8')) as { standings: { rank: number; stage: number; pseudonym: string }[] };
    expect(written.standings.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    // Stage 2 plays the top half: three players (the last stage's first).
    expect(written.standings.map((s) => s.stage)).toEqual([2, 2, 2, 1, 1, 1]);
    expect(existsSync(join(arenaDir, 'final', 'stage-2', 'results.jsonl'))).toBe(true);
  });
});
