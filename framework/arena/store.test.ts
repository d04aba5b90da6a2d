import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ArenaStore, SCHEMA_VERSION, STALE_LOCK_MS, hashToken, playerKey } from './store.ts';

const dirs: string[] = [];
function tempDb(): string {
  const d = mkdtempSync(join(tmpdir(), 'arena-store-'));
  dirs.push(d);
  return join(d, 'arena.sqlite');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ArenaStore', () => {
  it('keeps students, submissions, games and ratings across a reopen by another process', () => {
    const file = tempDb();
    const s = ArenaStore.open(file);
    const token = s.addStudent({ id: 'u1', name: 'Ada', pseudonym: 'owl' })!;
    expect(s.addStudent({ id: 'u1', pseudonym: 'other' })).toBeUndefined();
    const sub = s.addSubmission({ student: 'u1', folder: 'submissions/u1/1', contentHash: 'abc' });
    s.addGames([{ kind: 'sanity', A: { submission: sub }, B: { anchor: 'random' }, first: 'A', seed: 7, opening: 0 }]);
    s.close();
    // A second process (node) reads the same file: the data is on disk, not in this process.
    const script = `
      const { Database } = require(${JSON.stringify(require.resolve('node-sqlite3-wasm'))});
      const db = new Database(${JSON.stringify(file)});
      console.log(JSON.stringify([db.get('PRAGMA user_version'), db.get('SELECT count(*) AS n FROM games'), db.get('SELECT token_hash FROM students')]));
      db.close();`;
    const [version, games, student] = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as [{ user_version: number }, { n: number }, { token_hash: string }];
    expect(version.user_version).toBe(SCHEMA_VERSION);
    expect(games.n).toBe(1);
    // Only the token's digest is stored.
    expect(student.token_hash).toBe(hashToken(token));
    expect(student.token_hash).not.toContain(token);
    const again = ArenaStore.open(file);
    expect(again.studentByToken(token)?.id).toBe('u1');
    expect(again.studentByToken(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))).toBeUndefined();
    expect(again.submission(sub)?.status).toBe('checking');
    again.close();
  });

  it('opens after a process was killed inside a write: its lock folder, left behind, is stale; its write is rolled back', () => {
    const file = tempDb();
    const s = ArenaStore.open(file);
    s.addStudent({ id: 'u1', pseudonym: 'owl' });
    s.close();
    // A process that dies (SIGKILL) in the middle of a transaction, holding the lock.
    const script = `
      const { Database } = require(${JSON.stringify(require.resolve('node-sqlite3-wasm'))});
      const db = new Database(${JSON.stringify(file)});
      db.exec('BEGIN IMMEDIATE');
      db.run("INSERT INTO students (id, pseudonym, token_hash, created_at) VALUES ('u2', 'fox', 'x', 'now')");
      process.kill(process.pid, 'SIGKILL');`;
    expect(() => execFileSync(process.execPath, ['-e', script], { stdio: 'ignore' })).toThrow();
    expect(existsSync(`${file}.lock`)).toBe(true);
    // Once the lock is older than any of the arena's statements takes (backdated here rather than waited for).
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    const again = ArenaStore.open(file);
    expect(again.students().map((x) => x.id)).toEqual(['u1']);
    expect(existsSync(`${file}.lock`)).toBe(false);
    again.close();
  });

  it('records a result once, and puts games left running back in the queue', () => {
    const s = ArenaStore.open(tempDb());
    s.addStudent({ id: 'u1', pseudonym: 'owl' });
    const sub = s.addSubmission({ student: 'u1', folder: 'f', contentHash: 'h' });
    const [g1, g2] = s.addGames([
      { kind: 'ladder', A: { submission: sub }, B: { anchor: 'greedy' }, first: 'A', seed: 1, opening: 0 },
      { kind: 'sanity', A: { submission: sub }, B: { anchor: 'random' }, first: 'B', seed: 2, opening: 1 },
    ]);
    // Sanity games go first.
    expect(s.claimQueued(1).map((g) => g.id)).toEqual([g2]);
    expect(s.claimQueued(5).map((g) => g.id)).toEqual([g1]);
    expect(s.claimQueued(5)).toEqual([]);
    let rated = 0;
    const result = { winner: 'A' as const, score: [30, 18] as [number, number], forfeit: null, record: { moves: [1] } };
    expect(s.finishGame(g1!, result, () => void rated++)).toBe(true);
    expect(s.finishGame(g1!, result, () => void rated++)).toBe(false);
    expect(rated).toBe(1);
    // g2 was running when the "server stopped".
    expect(s.requeueRunning()).toBe(1);
    expect(s.game(g2!)?.status).toBe('queued');
    expect(s.countGames('done')).toBe(1);
    s.close();
  });

  it('keeps fixed ratings fixed and a history of the others', () => {
    const s = ArenaStore.open(tempDb());
    s.addStudent({ id: 'u1', pseudonym: 'owl' });
    const sub = s.addSubmission({ student: 'u1', folder: 'f', contentHash: 'h' });
    const [g] = s.addGames([{ kind: 'ladder', A: { submission: sub }, B: { anchor: 'greedy' }, first: 'A', seed: 1, opening: 0 }]);
    s.fixRating('anchor:greedy', 20, 1);
    s.updateRating('anchor:greedy', 99, 1, g!);
    s.updateRating(playerKey({ submission: sub }), 27, 7, g!);
    expect(s.rating('anchor:greedy')).toMatchObject({ mu: 20, games: 1, fixed: 1 });
    expect(s.rating('sub:1')).toMatchObject({ mu: 27, games: 1 });
    expect(s.ratingHistory('sub:1').map((h) => h.mu)).toEqual([27]);
    expect(s.ratingHistory('anchor:greedy')).toEqual([]);
    s.close();
  });

  it('retires the earlier ladder submission when a new one is promoted', () => {
    const s = ArenaStore.open(tempDb());
    s.addStudent({ id: 'u1', pseudonym: 'owl' });
    const one = s.addSubmission({ student: 'u1', folder: 'f1', contentHash: 'h1' });
    s.promoteToLadder(one, 25, 8);
    s.addGames([{ kind: 'ladder', A: { submission: one }, B: { anchor: 'greedy' }, first: 'A', seed: 1, opening: 0 }]);
    const two = s.addSubmission({ student: 'u1', folder: 'f2', contentHash: 'h2' });
    expect(s.promoteToLadder(two, 25, 8)).toEqual([one]);
    expect(s.submission(one)?.status).toBe('retired');
    expect(s.submission(two)?.status).toBe('ladder');
    // Its queued ladder games are dropped; its rating row stays.
    expect(s.countGames('queued')).toBe(0);
    expect(s.rating('sub:1')).toBeDefined();
    s.close();
  });

  it('refuses a database of a newer schema with one line', () => {
    const file = tempDb();
    ArenaStore.open(file).close();
    const script = `const { Database } = require(${JSON.stringify(require.resolve('node-sqlite3-wasm'))}); const db = new Database(${JSON.stringify(file)}); db.exec('PRAGMA user_version = 99'); db.close();`;
    execFileSync(process.execPath, ['-e', script]);
    expect(() => ArenaStore.open(file)).toThrow(/made by a newer mancala \(schema 99/);
  });
});
