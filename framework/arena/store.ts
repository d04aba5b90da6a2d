/**
 * The arena's database: one SQLite file (DIR/arena.sqlite) through node-sqlite3-wasm, SQLite
 * compiled to WebAssembly with direct file access (no native build, no binary download). It holds
 * everything a restart needs: the students, their submissions, every game (queued, running or
 * done, with its record and replay), the ratings and their history. Backup is this file plus
 * DIR/submissions/.
 *
 * Migrations are numbered by SQLite's `user_version`: each entry of MIGRATIONS runs once, in a
 * transaction, so an arena made by an older version opens with its data kept.
 *
 * Tokens are stored as their SHA-256 only; a request's token is hashed and found by its digest,
 * then compared with the stored digest in constant time (a digest's lookup time tells nothing of
 * the token: finding a token with a given digest prefix is as hard as guessing it).
 *
 * Restart safety: a game is `queued`, then `running` while a job plays it, then `done` with its
 * result. Recording a result is one transaction that moves a `running` game to `done` and rates it;
 * a second delivery of the same result finds it `done` and changes nothing. Games left `running`
 * by a stopped server are put back to `queued` when it opens again (requeueRunning).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rmdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Database as SqliteDatabase } from 'node-sqlite3-wasm';
import { UserError } from '../errors.ts';
import { MIGRATIONS, SCHEMA_VERSION, type GameKind, type GameRow, type GameStatus, type NewGame, type RatingRow, type GameSide, type StudentRow, type SubmissionRow, type SubmissionStatus } from './schema.ts';

const require = createRequire(import.meta.url);

export * from './schema.ts';

/** The ratings table's key of a side: `sub:12`, `anchor:greedy`. */
export function playerKey(side: GameSide): string {
  return 'submission' in side ? `sub:${side.submission}` : `anchor:${side.anchor}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new token: 24 random bytes in hex. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const now = () => new Date().toISOString();

/**
 * How old the database's lock may be before it is a dead process's. node-sqlite3-wasm locks the
 * file with a folder beside it (`arena.sqlite.lock`, made by mkdir for every read and write, as
 * Node has no fcntl locks), so a process killed inside a statement (SIGKILL, the OOM killer, a power
 * cut) leaves it, and every later open waits its busy timeout and fails: the arena would not start
 * again. The arena's statements take milliseconds, so a lock this old is nobody's; SQLite's own
 * recovery then rolls back what the dead process left in its journal.
 */
export const STALE_LOCK_MS = 15_000;

/** Removes `file`'s lock folder when it is older than STALE_LOCK_MS; whether it did. */
export function removeStaleLock(file: string, nowMs = Date.now()): boolean {
  const lock = `${file}.lock`;
  const st = statSync(lock, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory() || nowMs - st.mtimeMs < STALE_LOCK_MS) return false;
  try {
    rmdirSync(lock);
    return true;
  } catch {
    return false;
  }
}

export class ArenaStore {
  readonly db: SqliteDatabase;

  private constructor(readonly file: string) {
    const { Database } = require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
    try {
      this.db = new Database(file);
      this.db.exec('PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
    } catch (e) {
      throw new UserError(`${file}: cannot open the arena's database: ${(e as Error).message}`);
    }
  }

  /** Opens (or creates) the database and brings its schema up to date. */
  static open(file: string): ArenaStore {
    removeStaleLock(file);
    const store = new ArenaStore(file);
    try {
      store.migrate();
    } catch (e) {
      if (!/locked|busy/i.test((e as Error).message)) throw e;
      // Its holder may have been killed just before: wait until its lock is stale, then once more without it.
      const st = statSync(`${file}.lock`, { throwIfNoEntry: false });
      if (st !== undefined) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, STALE_LOCK_MS - (Date.now() - st.mtimeMs)) + 100);
      if (!removeStaleLock(file)) {
        store.db.close();
        throw new UserError(`${file}: the database is locked by another process (another \`mancala arena start\` on this folder?); its lock is ${file}.lock`);
      }
      store.migrate();
    }
    return store;
  }

  private migrate(): void {
    const version = Number((this.db.get('PRAGMA user_version') as { user_version: number }).user_version);
    if (version > SCHEMA_VERSION) {
      this.db.close();
      throw new UserError(`${this.file}: made by a newer mancala (schema ${version}; this one knows up to ${SCHEMA_VERSION}): upgrade mancala to open it`);
    }
    for (let v = version; v < SCHEMA_VERSION; v++) {
      this.transaction(() => {
        this.db.exec(MIGRATIONS[v]!);
        this.db.exec(`PRAGMA user_version = ${v + 1}`);
      });
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Runs `f` in one transaction: all of it is written, or none (inside another, as part of that one). */
  transaction<T>(f: () => T): T {
    if (this.db.inTransaction) return f();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const out = f();
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  // ---- meta: the arena's settings and state (course, rules, seed, frozen)

  getMeta(key: string): string | undefined {
    const row = this.db.get('SELECT value FROM meta WHERE key = ?', [key]) as { value: string } | null;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.run('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  // ---- students

  /** Adds a student with a new token (returned: it is stored only hashed); undefined when the id is known already. */
  addStudent(s: { id: string; name?: string; email?: string; pseudonym: string }): string | undefined {
    if (this.student(s.id) !== undefined) return undefined;
    const token = newToken();
    this.db.run('INSERT INTO students(id, name, email, pseudonym, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [s.id, s.name ?? null, s.email ?? null, s.pseudonym, hashToken(token), now()]);
    return token;
  }

  student(id: string): StudentRow | undefined {
    return (this.db.get('SELECT id, name, email, pseudonym, created_at FROM students WHERE id = ?', [id]) as StudentRow | null) ?? undefined;
  }

  students(): StudentRow[] {
    return this.db.all('SELECT id, name, email, pseudonym, created_at FROM students ORDER BY id') as unknown as StudentRow[];
  }

  /** The student whose token this is, or undefined. */
  studentByToken(token: string): StudentRow | undefined {
    const digest = hashToken(token);
    const row = this.db.get('SELECT id, name, email, pseudonym, created_at, token_hash FROM students WHERE token_hash = ?', [digest]) as (StudentRow & { token_hash: string }) | null;
    if (row === null || !sameDigest(row.token_hash, digest)) return undefined;
    const { token_hash: _, ...student } = row;
    return student;
  }

  pseudonymTaken(pseudonym: string, except?: string): boolean {
    const row = this.db.get('SELECT id FROM students WHERE lower(pseudonym) = lower(?)', [pseudonym]) as { id: string } | null;
    return row !== null && row.id !== except;
  }

  setPseudonym(id: string, pseudonym: string): void {
    this.db.run('UPDATE students SET pseudonym = ? WHERE id = ?', [pseudonym, id]);
  }

  /** The student whose pseudonym this is (case-insensitive). */
  studentByPseudonym(pseudonym: string): StudentRow | undefined {
    return (this.db.get('SELECT id, name, email, pseudonym, created_at FROM students WHERE lower(pseudonym) = lower(?)', [pseudonym]) as StudentRow | null) ?? undefined;
  }

  // ---- submissions

  addSubmission(s: { student: string; folder: string; contentHash: string; form?: string }): number {
    const r = this.db.run('INSERT INTO submissions(student, folder, content_hash, form, status, created_at) VALUES (?, ?, ?, ?, ?, ?)', [s.student, s.folder, s.contentHash, s.form ?? null, 'checking', now()]);
    return Number(r.lastInsertRowid);
  }

  submission(id: number): SubmissionRow | undefined {
    return (this.db.get('SELECT * FROM submissions WHERE id = ?', [id]) as SubmissionRow | null) ?? undefined;
  }

  submissionsOf(student: string): SubmissionRow[] {
    return this.db.all('SELECT * FROM submissions WHERE student = ? ORDER BY id', [student]) as unknown as SubmissionRow[];
  }

  submissionsWith(status: SubmissionStatus): SubmissionRow[] {
    return this.db.all('SELECT * FROM submissions WHERE status = ? ORDER BY id', [status]) as unknown as SubmissionRow[];
  }

  /** Submissions made by `student` since `sinceIso`: the upload rate limit counts them. */
  submissionsSince(student: string, sinceIso: string): number {
    return Number((this.db.get('SELECT count(*) AS n FROM submissions WHERE student = ? AND created_at >= ?', [student, sinceIso]) as { n: number }).n);
  }

  setSubmissionStatus(id: number, status: SubmissionStatus, feedback?: string): void {
    if (feedback === undefined) this.db.run('UPDATE submissions SET status = ? WHERE id = ?', [status, id]);
    else this.db.run('UPDATE submissions SET status = ?, feedback = ? WHERE id = ?', [status, feedback, id]);
  }

  /**
   * `id` enters the ladder and the student's earlier ladder submission leaves it (retired: its
   * games and ratings are kept), in one transaction.
   */
  promoteToLadder(id: number, mu: number, sigma: number): number[] {
    return this.transaction(() => {
      const sub = this.submission(id)!;
      const earlier = (this.db.all("SELECT id FROM submissions WHERE student = ? AND status = 'ladder' AND id <> ?", [sub.student, id]) as { id: number }[]).map((r) => r.id);
      for (const e of earlier) this.db.run("UPDATE submissions SET status = 'retired', retired_at = ? WHERE id = ?", [now(), e]);
      this.db.run("UPDATE submissions SET status = 'ladder' WHERE id = ?", [id]);
      this.db.run('INSERT OR IGNORE INTO ratings(player, mu, sigma, games, fixed) VALUES (?, ?, ?, 0, 0)', [playerKey({ submission: id }), mu, sigma]);
      // An earlier version's games that have not started are no longer wanted.
      for (const e of earlier) this.db.run("DELETE FROM games WHERE status = 'queued' AND kind <> 'scrim' AND (a_submission = ? OR b_submission = ?)", [e, e]);
      return earlier;
    });
  }

  // ---- games

  addGames(games: readonly NewGame[]): number[] {
    return this.transaction(() => games.map((g) => this.addGame(g)));
  }

  private addGame(g: NewGame): number {
    const a = 'submission' in g.A ? [g.A.submission, null] : [null, g.A.anchor];
    const b = 'submission' in g.B ? [g.B.submission, null] : [null, g.B.anchor];
    const r = this.db.run(
      'INSERT INTO games(kind, a_submission, a_anchor, b_submission, b_anchor, first, seed, opening, status, requested_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [g.kind, a[0]!, a[1]!, b[0]!, b[1]!, g.first, g.seed, g.opening, 'queued', g.requestedBy ?? null, now()],
    );
    return Number(r.lastInsertRowid);
  }

  game(id: number): GameRow | undefined {
    return (this.db.get('SELECT * FROM games WHERE id = ?', [id]) as GameRow | null) ?? undefined;
  }

  /** Every game a submission of `student` played or was asked to play, newest first, and scrims they asked for. */
  gamesOfStudent(student: string, limit = 500): GameRow[] {
    return this.db.all(
      `SELECT g.* FROM games g WHERE g.requested_by = ?
         OR g.a_submission IN (SELECT id FROM submissions WHERE student = ?)
         OR g.b_submission IN (SELECT id FROM submissions WHERE student = ?)
       ORDER BY g.id DESC LIMIT ?`,
      [student, student, student, limit],
    ) as unknown as GameRow[];
  }

  gamesOfSubmission(id: number): GameRow[] {
    return this.db.all('SELECT * FROM games WHERE a_submission = ? OR b_submission = ? ORDER BY id', [id, id]) as unknown as GameRow[];
  }

  /**
   * Up to `n` queued games, marked running in the same transaction, in priority order: a new
   * submission's sanity games first (its owner waits for them), then scrims, placement, ladder.
   */
  claimQueued(n: number, kinds: readonly GameKind[] = ['sanity', 'scrim', 'placement', 'ladder']): GameRow[] {
    return this.transaction(() => {
      const order = `CASE kind WHEN 'sanity' THEN 0 WHEN 'scrim' THEN 1 WHEN 'placement' THEN 2 WHEN 'ladder' THEN 3 ELSE 4 END`;
      const marks = kinds.map(() => '?').join(',');
      const rows = this.db.all(`SELECT * FROM games WHERE status = 'queued' AND kind IN (${marks}) ORDER BY ${order}, id LIMIT ?`, [...kinds, n]) as unknown as GameRow[];
      const at = now();
      for (const g of rows) this.db.run("UPDATE games SET status = 'running', started_at = ?, attempts = attempts + 1 WHERE id = ?", [at, g.id]);
      return rows.map((g) => ({ ...g, status: 'running' as const, started_at: at, attempts: g.attempts + 1 }));
    });
  }

  /** Games a stopped server left running are queued again; how many. */
  requeueRunning(): number {
    return this.db.run("UPDATE games SET status = 'queued', started_at = NULL WHERE status = 'running'").changes;
  }

  /** Puts back games that were claimed but not played (a stop, a failed run). */
  unclaim(ids: readonly number[]): void {
    this.transaction(() => {
      for (const id of ids) this.db.run("UPDATE games SET status = 'queued', started_at = NULL WHERE id = ? AND status = 'running'", [id]);
    });
  }

  countGames(status: GameStatus, kind?: GameKind): number {
    const row = kind === undefined ? this.db.get('SELECT count(*) AS n FROM games WHERE status = ?', [status]) : this.db.get('SELECT count(*) AS n FROM games WHERE status = ? AND kind = ?', [status, kind]);
    return Number((row as { n: number }).n);
  }

  /** Games finished since `sinceIso` (the /metrics rate). */
  finishedSince(sinceIso: string): number {
    return Number((this.db.get("SELECT count(*) AS n FROM games WHERE status = 'done' AND finished_at >= ?", [sinceIso]) as { n: number }).n);
  }

  /**
   * Records a game's result once: the game must be running (a second delivery, or one for a game
   * the arena gave up on, changes nothing: false). `rate` runs in the same transaction.
   */
  finishGame(id: number, result: { winner: 'A' | 'B' | 'draw'; score: [number, number]; forfeit: unknown; record: unknown }, rate?: (g: GameRow) => void): boolean {
    return this.transaction(() => {
      const g = this.game(id);
      if (g === undefined || g.status !== 'running') return false;
      this.db.run("UPDATE games SET status = 'done', winner = ?, score_a = ?, score_b = ?, forfeit = ?, record = ?, finished_at = ? WHERE id = ?", [
        result.winner,
        result.score[0],
        result.score[1],
        result.forfeit === null ? null : JSON.stringify(result.forfeit),
        JSON.stringify(result.record),
        now(),
        id,
      ]);
      rate?.({ ...g, winner: result.winner });
      return true;
    });
  }

  // ---- ratings

  rating(player: string): RatingRow | undefined {
    return (this.db.get('SELECT * FROM ratings WHERE player = ?', [player]) as RatingRow | null) ?? undefined;
  }

  /** Sets a fixed rating (an anchor): games never move it. */
  fixRating(player: string, mu: number, sigma: number): void {
    this.db.run('INSERT INTO ratings(player, mu, sigma, games, fixed) VALUES (?, ?, ?, 0, 1) ON CONFLICT(player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, fixed = 1', [player, mu, sigma]);
  }

  /** A rating after game `game` (a fixed one keeps its value; its games are still counted). */
  updateRating(player: string, mu: number, sigma: number, game: number): void {
    const r = this.rating(player);
    if (r !== undefined && r.fixed === 1) {
      this.db.run('UPDATE ratings SET games = games + 1 WHERE player = ?', [player]);
      return;
    }
    this.db.run('INSERT INTO ratings(player, mu, sigma, games, fixed) VALUES (?, ?, ?, 1, 0) ON CONFLICT(player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = games + 1', [player, mu, sigma]);
    this.db.run('INSERT INTO rating_history(player, game, mu, sigma, at) VALUES (?, ?, ?, ?, ?)', [player, game, mu, sigma, now()]);
  }

  ratingHistory(player: string): { game: number; mu: number; sigma: number; at: string }[] {
    return this.db.all('SELECT game, mu, sigma, at FROM rating_history WHERE player = ? ORDER BY id', [player]) as unknown as { game: number; mu: number; sigma: number; at: string }[];
  }

  ratings(): RatingRow[] {
    return this.db.all('SELECT * FROM ratings ORDER BY mu DESC') as unknown as RatingRow[];
  }
}
