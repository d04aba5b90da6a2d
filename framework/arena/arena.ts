/**
 * The arena: a live ladder over one folder (DIR/arena.sqlite and DIR/submissions/). It takes a
 * student's upload, checks it, plays its sanity games, puts it on the ladder and keeps playing
 * ladder games for as long as it runs; a restart picks up where it stopped (store.ts).
 *
 * An upload's way (each step stored before the next, so a restart resumes it):
 *  1. `checking`: the course's public checks (the visible cases `mancala check` runs, course.ts) in
 *     the sandbox; the report is its owner's feedback. A submission that runs no case at all (no
 *     agent found, a build that fails) is `failed` there; failed cases are feedback, not a bar.
 *  2. `sanity`: SANITY games against `random`, both seats, seeded openings; it must win more than
 *     half of them, or it is `failed` with the games' outcomes (forfeits with their messages).
 *  3. `ladder`: the student's earlier ladder submission is `retired` (its games and ratings stay),
 *     and the new one plays its placement set (both seats against every anchor); from then on the
 *     scheduler (schedule.ts) pairs ladder submissions by rating closeness and games played.
 *
 * Games are played exactly as a tournament's: the tournament job (framework/tournaments/
 * executor.ts) on the local worker pool, or on `mancala worker`s through Redis with `--queue`.
 * Ratings are openskill (as the tournaments' standings), updated as each rated game finishes, the
 * anchors' ratings fixed (store.ts fixRating) so the scale does not drift with the class.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { rate, rating } from 'openskill';
import { UserError } from '../errors.ts';
import { extractZip } from '../files/archive.ts';
import { snapshotFolder } from '../files/snapshot.ts';
import { makeTempFolder, removeTempFolder } from '../files/temp-folders.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import type { GameRecord } from '../matches/types.ts';
import { deriveSeed } from '../random.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { DEFAULT_MEMORY_MB, TOURNAMENT_JOB, type JobSetup } from '../tournaments/executor.ts';
import type { TournamentParams } from '../tournaments/params.ts';
import type { ScheduledGame } from '../tournaments/schedule.ts';
import { runJobs } from '../workers/pool.ts';
import { arenaCourse, type ArenaCourse } from './course.ts';
import { runPublicChecks, type CheckFeedback } from './checks.ts';
import { pickLadderPairs, type LadderEntry } from './schedule.ts';
import { ArenaStore, hashToken, newToken, playerKey, type GameRow, type GameSide, type NewGame, type StudentRow, type SubmissionRow } from './store.ts';

export const DB_FILE = 'arena.sqlite';
export const SUBMISSIONS_DIR = 'submissions';
export const TOKENS_FILE = 'tokens.csv';
export const INSTRUCTOR_TOKEN_FILE = 'instructor.token';

/** A request refused for now, not for what it is: too many uploads or scrims in the last hour (HTTP 429). */
export class RateLimited extends UserError {}
/** A request the arena no longer takes: it is frozen (HTTP 403). */
export class ArenaFrozen extends UserError {}

/** An anchor: a reference agent whose rating is fixed. */
export interface Anchor {
  spec: string;
  mu: number;
}

/**
 * The anchors' fixed ratings, on openskill's scale (a new player starts at 25, σ 25/3): far enough
 * apart that a win against the one above moves a student up. They hold the scale; a course may give
 * its own with --anchors.
 */
export const DEFAULT_ANCHORS: readonly Anchor[] = [
  { spec: 'random', mu: 10 },
  { spec: 'greedy', mu: 18 },
  { spec: 'alphabeta:depth=4', mu: 26 },
  { spec: 'strong:ms=100', mu: 34 },
];
/** An anchor's σ: small, so a game against it moves the student as against a well-known player. */
export const ANCHOR_SIGMA = 1;

export interface ArenaSettings {
  course: string;
  rules: string;
  pits: number;
  seeds: number;
  timePerMoveMs: number;
  /** random plies before the agents play (openings.ts random:K) */
  openingPlies: number;
  seed: number;
  /** sanity games against random (even: both seats) */
  sanityGames: number;
  /** placement games against each anchor (even: both seats) */
  placementGames: number;
  anchors: Anchor[];
  /** uploads a student may make in an hour */
  uploadsPerHour: number;
  /** scrims a student may ask for in an hour */
  scrimsPerHour: number;
  /** ladder games a pair plays at most: an arena with nothing new to learn rests */
  maxGamesPerPair: number;
}

export const DEFAULT_SETTINGS: Omit<ArenaSettings, 'course' | 'rules' | 'pits' | 'seeds'> = {
  timePerMoveMs: 1000,
  openingPlies: 4,
  seed: 1,
  sanityGames: 4,
  placementGames: 2,
  anchors: [...DEFAULT_ANCHORS],
  uploadsPerHour: 12,
  scrimsPerHour: 20,
  maxGamesPerPair: 20,
};

/** Distinct openings a pair's games are drawn from (each played from both seats). */
export const OPENING_PAIRS = 32;

export interface ArenaOptions {
  sandbox?: SandboxMode;
  memoryMb?: number;
  /** games played at once on the local pool */
  jobs?: number;
  /** `redis://…`: games are played by `mancala worker`s (framework/distributed) */
  queue?: string;
  /** ladder games kept queued ahead (default 2 × jobs) */
  ladderAhead?: number;
  /** a line on what the arena does (a game that could not be played, a queue notice) */
  log?(line: string): void;
}

export interface Standing {
  student: string | null;
  pseudonym: string;
  anchor: boolean;
  rating: number;
  sigma: number;
  games: number;
  submission: number | null;
  wins: number;
  draws: number;
  losses: number;
}

export interface ArenaMetrics {
  queued: number;
  running: number;
  done: number;
  gamesLastMinute: number;
  workers: number;
  submissions: Record<string, number>;
}

const SETTINGS_KEY = 'settings';
const FROZEN_KEY = 'frozen';

/** Whether `dir` holds an arena. */
export function isArenaDir(dir: string): boolean {
  return existsSync(join(dir, DB_FILE));
}

export class Arena {
  readonly dir: string;
  readonly store: ArenaStore;
  readonly settings: ArenaSettings;
  readonly course: ArenaCourse;
  private readonly o: ArenaOptions;
  private stopping = new AbortController();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private checking = new Set<number>();
  private playing = 0;

  private constructor(dir: string, store: ArenaStore, settings: ArenaSettings, o: ArenaOptions) {
    this.dir = dir;
    this.store = store;
    this.settings = settings;
    this.course = arenaCourse(settings.course);
    this.o = o;
  }

  /**
   * Opens the arena in `dir`, creating it (with `init`'s settings) when there is none. An existing
   * arena keeps its settings: a different --course is refused rather than mixed in.
   */
  static open(dir: string, init: Partial<ArenaSettings> & { course?: string } = {}, o: ArenaOptions = {}): Arena {
    const root = resolve(dir);
    mkdirSync(join(root, SUBMISSIONS_DIR), { recursive: true });
    const store = ArenaStore.open(join(root, DB_FILE));
    const saved = store.getMeta(SETTINGS_KEY);
    let settings: ArenaSettings;
    if (saved !== undefined) {
      // Settings added since the arena was made take their defaults.
      settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(saved) as ArenaSettings) };
      if (init.course !== undefined && init.course !== settings.course) {
        store.close();
        throw new UserError(`--course ${init.course}: the arena in ${dir} is for ${settings.course}; start it without --course, or make a new arena in another folder`);
      }
    } else {
      const course = arenaCourse(init.course ?? 'kalah');
      const profile = findProfile(init.rules ?? course.rules);
      if (profile === undefined) throw new UserError(`--rules ${init.rules}: unknown rules profile`);
      settings = { ...DEFAULT_SETTINGS, course: course.name, rules: profile.name, pits: profile.rules.pits, seeds: profile.rules.seeds, ...withoutUndefined(init) };
      store.setMeta(SETTINGS_KEY, JSON.stringify(settings));
    }
    for (const a of settings.anchors) store.fixRating(playerKey({ anchor: a.spec }), a.mu, ANCHOR_SIGMA);
    return new Arena(root, store, settings, o);
  }

  close(): void {
    this.store.close();
  }

  // ---- people

  /**
   * Adds the roster's students not already in the arena, each with a new token; tokens.csv (mode
   * 0600) is written with every token known to this folder. Returns the new students' tokens.
   */
  addStudents(entries: readonly { id: string; name?: string; email?: string }[]): { id: string; token: string }[] {
    const added: { id: string; token: string }[] = [];
    this.store.transaction(() => {
      for (const e of entries) {
        if (this.store.student(e.id) !== undefined) continue;
        const token = this.store.addStudent({ ...e, pseudonym: this.freePseudonym(e.id) })!;
        added.push({ id: e.id, token });
      }
    });
    if (added.length > 0 || !existsSync(join(this.dir, TOKENS_FILE))) this.writeTokens(added);
    return added;
  }

  /** A pseudonym nobody has: `player-` and 4 hex digits of the id's digest with the arena's seed (changeable by the student). */
  private freePseudonym(id: string): string {
    for (let k = 0; ; k++) {
      const p = `player-${createHash('sha256').update(`${this.settings.seed}:${k}:${id}`).digest('hex').slice(0, 4)}`;
      if (!this.store.pseudonymTaken(p)) return p;
    }
  }

  /** A student's chosen pseudonym: 3 to 32 letters, digits, spaces, `.`, `_` or `-`; nobody else's, no anchor's. */
  setPseudonym(student: string, pseudonym: string): void {
    const p = pseudonym.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{1,30}[A-Za-z0-9._-]$/.test(p)) throw new UserError('pseudonym: expected 3 to 32 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
    if (this.settings.anchors.some((a) => a.spec.toLowerCase() === p.toLowerCase() || a.spec.split(':')[0]!.toLowerCase() === p.toLowerCase())) throw new UserError(`pseudonym: ${p} is a reference agent's name`);
    if (this.store.pseudonymTaken(p, student)) throw new UserError(`pseudonym: ${p} is taken`);
    this.store.setPseudonym(student, p);
  }

  private writeTokens(added: readonly { id: string; token: string }[]): void {
    const file = join(this.dir, TOKENS_FILE);
    const known = existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '') : [];
    const lines = ['student,token', ...known, ...added.map((a) => `${csvField(a.id)},${a.token}`)];
    writeFileSync(file, lines.join('\n') + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  /** The instructor's token: made once, kept in DIR/instructor.token (0600), its digest in the database. */
  instructorToken(): string {
    const file = join(this.dir, INSTRUCTOR_TOKEN_FILE);
    if (existsSync(file)) {
      const token = readFileSync(file, 'utf8').trim();
      if (this.store.getMeta('instructor_token_hash') === hashToken(token)) return token;
    }
    const token = newToken();
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    this.store.setMeta('instructor_token_hash', hashToken(token));
    return token;
  }

  /** Who a token is: the instructor, a student, or nobody. */
  identify(token: string | undefined): { role: 'instructor' } | { role: 'student'; student: StudentRow } | undefined {
    if (token === undefined || token === '') return undefined;
    const hash = this.store.getMeta('instructor_token_hash');
    if (hash !== undefined && sameHex(hashToken(token), hash)) return { role: 'instructor' };
    const student = this.store.studentByToken(token);
    return student === undefined ? undefined : { role: 'student', student };
  }

  isFrozen(): boolean {
    return this.store.getMeta(FROZEN_KEY) === '1';
  }

  freeze(): void {
    this.store.setMeta(FROZEN_KEY, '1');
  }

  // ---- submitting

  /**
   * Takes an upload: a zip's bytes or a folder, unpacked and copied with the grader's own hostile-safe
   * readers (archive.ts, snapshot.ts) into DIR/submissions/<student>/<n>/. Refused (UserError) when the
   * arena is frozen or the student has uploaded too often. The checks start at once, in the background.
   */
  async submit(student: string, upload: { zip: Buffer } | { folder: string }): Promise<SubmissionRow> {
    if (this.isFrozen()) throw new ArenaFrozen('the arena is frozen: no new submissions (the final is being played)');
    if (this.store.student(student) === undefined) throw new UserError(`no student ${student} in this arena`);
    const since = new Date(Date.now() - 3600_000).toISOString();
    if (this.store.submissionsSince(student, since) >= this.settings.uploadsPerHour) {
      throw new RateLimited(`refused: ${this.settings.uploadsPerHour} uploads in the last hour, the most this arena takes; try again later`);
    }
    const temp = await makeTempFolder('arena-upload');
    try {
      let source: string;
      const notes: string[] = [];
      if ('zip' in upload) {
        const zip = join(temp, 'upload.zip');
        writeFileSync(zip, upload.zip);
        source = join(temp, 'unpacked');
        mkdirSync(source);
        const r = await extractZip(zip, source, { shown: 'the upload' });
        notes.push(...r.notes);
        if (r.truncated) throw new UserError(`the upload is too large when unpacked: ${r.notes.at(-1) ?? ''}`);
        source = soleFolder(source);
      } else {
        source = upload.folder;
      }
      const n = this.store.submissionsOf(student).length + 1;
      const folder = join(SUBMISSIONS_DIR, safeName(student), String(n));
      const dest = join(this.dir, folder);
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(join(this.dir, SUBMISSIONS_DIR, safeName(student)), { recursive: true });
      const snap = await snapshotFolder(source, dest);
      notes.push(...snap.notes);
      if (countFiles(dest) === 0) {
        rmSync(dest, { recursive: true, force: true });
        throw new UserError('the upload holds no file');
      }
      const id = this.store.addSubmission({ student, folder, contentHash: contentHash(dest) });
      if (notes.length > 0) this.store.setSubmissionStatus(id, 'checking', JSON.stringify({ upload: notes }));
      this.startChecks(id);
      return this.store.submission(id)!;
    } finally {
      await removeTempFolder(temp);
    }
  }

  private startChecks(id: number): void {
    if (this.checking.has(id)) return;
    this.checking.add(id);
    void this.check(id)
      .catch((e: unknown) => this.log(`submission ${id}: the checks could not run: ${(e as Error).message}`))
      .finally(() => this.checking.delete(id));
  }

  private async check(id: number): Promise<void> {
    const sub = this.store.submission(id)!;
    const previous = parseFeedback(sub.feedback);
    const checks: CheckFeedback = await runPublicChecks(this.course, join(this.dir, sub.folder), this.o.sandbox ?? 'full');
    const feedback = { ...previous, checks };
    if (!checks.ran) {
      this.store.setSubmissionStatus(id, 'failed', JSON.stringify({ ...feedback, verdict: `failed the checks: ${checks.summary}` }));
      return;
    }
    this.store.transaction(() => {
      this.store.setSubmissionStatus(id, 'sanity', JSON.stringify(feedback));
      this.store.addGames(this.sanityGames(id));
    });
    this.poke();
  }

  private sanityGames(id: number): NewGame[] {
    const games: NewGame[] = [];
    for (let k = 0; k < this.settings.sanityGames; k++) {
      games.push({ kind: 'sanity', A: { submission: id }, B: { anchor: 'random' }, first: k % 2 === 0 ? 'A' : 'B', seed: deriveSeed(this.settings.seed, id, k, 1), opening: k });
    }
    return games;
  }

  /** A sanity stage whose games are all in: the verdict, and the ladder for a submission that passed. */
  private judgeSanity(id: number): void {
    const sub = this.store.submission(id);
    if (sub === undefined || sub.status !== 'sanity') return;
    const games = this.store.gamesOfSubmission(id).filter((g) => g.kind === 'sanity');
    if (games.some((g) => g.status !== 'done')) return;
    const wins = games.filter((g) => g.winner === (g.a_submission === id ? 'A' : 'B')).length;
    const forfeits = games
      .map((g) => ({ g, f: g.forfeit === null ? null : (JSON.parse(g.forfeit) as { side: 'A' | 'B'; reason: string; message: string }) }))
      .filter(({ g, f }) => f !== null && f.side === (g.a_submission === id ? 'A' : 'B'))
      .map(({ g, f }) => `game ${g.id}: ${f!.reason}: ${f!.message}`);
    const passed = wins * 2 > games.length;
    const sanity = { wins, games: games.length, opponent: 'random', forfeits, passed };
    const feedback = { ...parseFeedback(sub.feedback), sanity };
    if (!passed) {
      this.store.setSubmissionStatus(id, 'failed', JSON.stringify({ ...feedback, verdict: `failed the sanity stage: won ${wins} of ${games.length} games against random (more than half needed)${forfeits.length > 0 ? `; ${forfeits[0]}` : ''}` }));
      return;
    }
    this.store.setSubmissionStatus(id, 'sanity', JSON.stringify({ ...feedback, verdict: 'on the ladder' }));
    const r = rating();
    this.store.promoteToLadder(id, r.mu, r.sigma);
    this.store.addGames(this.placementGames(id));
  }

  private placementGames(id: number): NewGame[] {
    const games: NewGame[] = [];
    for (const [a, anchor] of this.settings.anchors.entries()) {
      for (let k = 0; k < this.settings.placementGames; k++) {
        const pair = deriveSeed(this.settings.seed, id, a, 2) % OPENING_PAIRS;
        games.push({ kind: 'placement', A: { submission: id }, B: { anchor: anchor.spec }, first: k % 2 === 0 ? 'A' : 'B', seed: deriveSeed(this.settings.seed, id, a, k, 3), opening: 2 * pair + (k % 2) });
      }
    }
    return games;
  }

  /**
   * An unranked game asked for by a student: their current submission (on the ladder) against an
   * anchor or another student's by pseudonym; both seats, counted for nothing. Rate-limited.
   */
  scrim(student: string, opponent: string): number[] {
    if (this.isFrozen()) throw new ArenaFrozen('the arena is frozen: no scrims');
    const mine = this.currentSubmission(student);
    if (mine === undefined) throw new UserError('you have no submission on the ladder yet: a scrim plays your current one');
    const since = new Date(Date.now() - 3600_000).toISOString();
    const recent = Number((this.store.db.get("SELECT count(*) AS n FROM games WHERE kind = 'scrim' AND requested_by = ? AND created_at >= ? AND first = 'A'", [student, since]) as { n: number }).n);
    if (recent >= this.settings.scrimsPerHour) throw new RateLimited(`refused: ${this.settings.scrimsPerHour} scrims in the last hour, the most this arena plays for one student; try again later`);
    let side: GameSide;
    const anchor = this.settings.anchors.find((a) => a.spec === opponent || a.spec.split(':')[0] === opponent);
    if (anchor !== undefined) side = { anchor: anchor.spec };
    else {
      const other = this.store.studentByPseudonym(opponent);
      const theirs = other === undefined ? undefined : this.currentSubmission(other.id);
      if (theirs === undefined) throw new UserError(`no anchor or pseudonym on the ladder named ${JSON.stringify(opponent.slice(0, 60))}: the anchors are ${this.settings.anchors.map((a) => a.spec).join(', ')}`);
      side = { submission: theirs.id };
    }
    const k = Number((this.store.db.get('SELECT count(*) AS n FROM games') as { n: number }).n);
    const pair = deriveSeed(this.settings.seed, k, 4) % OPENING_PAIRS;
    const ids = this.store.addGames(
      (['A', 'B'] as const).map((first, j) => ({ kind: 'scrim', A: { submission: mine.id }, B: side, first, seed: deriveSeed(this.settings.seed, k, j, 5), opening: 2 * pair + j, requestedBy: student })),
    );
    this.poke();
    return ids;
  }

  currentSubmission(student: string): SubmissionRow | undefined {
    return this.store.submissionsOf(student).filter((s) => s.status === 'ladder').at(-1);
  }

  // ---- standings

  standings(): Standing[] {
    const tally = new Map<string, { wins: number; draws: number; losses: number }>();
    const rows = this.store.db.all("SELECT a_submission, a_anchor, b_submission, b_anchor, winner FROM games WHERE status = 'done' AND kind IN ('placement','ladder')") as unknown as GameRow[];
    for (const g of rows) {
      for (const side of ['A', 'B'] as const) {
        const key = side === 'A' ? (g.a_submission !== null ? `sub:${g.a_submission}` : `anchor:${g.a_anchor}`) : g.b_submission !== null ? `sub:${g.b_submission}` : `anchor:${g.b_anchor}`;
        const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
        if (g.winner === 'draw') t.draws++;
        else if (g.winner === side) t.wins++;
        else t.losses++;
        tally.set(key, t);
      }
    }
    const out: Standing[] = [];
    for (const s of this.store.students()) {
      const sub = this.currentSubmission(s.id);
      if (sub === undefined) continue;
      const key = playerKey({ submission: sub.id });
      const r = this.store.rating(key);
      const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
      out.push({ student: s.id, pseudonym: s.pseudonym, anchor: false, rating: r?.mu ?? 25, sigma: r?.sigma ?? 25 / 3, games: r?.games ?? 0, submission: sub.id, ...t });
    }
    for (const a of this.settings.anchors) {
      const key = playerKey({ anchor: a.spec });
      const r = this.store.rating(key);
      const t = tally.get(key) ?? { wins: 0, draws: 0, losses: 0 };
      out.push({ student: null, pseudonym: a.spec, anchor: true, rating: a.mu, sigma: ANCHOR_SIGMA, games: r?.games ?? 0, submission: null, ...t });
    }
    return out.sort((x, y) => y.rating - x.rating || (x.pseudonym < y.pseudonym ? -1 : 1));
  }

  metrics(): ArenaMetrics {
    const submissions: Record<string, number> = {};
    for (const r of this.store.db.all('SELECT status, count(*) AS n FROM submissions GROUP BY status') as { status: string; n: number }[]) submissions[r.status] = Number(r.n);
    return {
      queued: this.store.countGames('queued'),
      running: this.store.countGames('running'),
      done: this.store.countGames('done'),
      gamesLastMinute: this.store.finishedSince(new Date(Date.now() - 60_000).toISOString()),
      workers: this.o.queue === undefined ? this.jobs() : 0,
      submissions,
    };
  }

  // ---- playing

  private jobs(): number {
    return Math.max(1, this.o.jobs ?? 1);
  }

  private log(line: string): void {
    this.o.log?.(line);
  }

  private queued = false;

  /** A queue run's notice; "N jobs on the queue", which every batch says, once a server run. */
  private queueNotice(line: string): void {
    if (/^\S+: \d+ jobs? on the queue/.test(line)) {
      if (this.queued) return;
      this.queued = true;
    }
    this.log(line);
  }

  /** Wakes the loop: there may be games to play. */
  poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /**
   * Starts playing: games a stopped server left running are queued again, submissions it left
   * mid-way resume, and the loop plays queued games and schedules ladder games until stop().
   */
  start(): void {
    if (this.loop !== undefined) return;
    const requeued = this.store.requeueRunning();
    if (requeued > 0) this.log(`${requeued} game${requeued === 1 ? '' : 's'} left running by the last run queued again`);
    for (const s of this.store.submissionsWith('checking')) this.startChecks(s.id);
    for (const s of this.store.submissionsWith('sanity')) this.judgeSanity(s.id);
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  /** Stops: no game starts, games in play are abandoned and queued again (none is recorded half-played). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.poke();
    await this.loop;
    this.loop = undefined;
    this.store.requeueRunning();
  }

  /** Plays games until stop(), or (`untilIdle`) until nothing is queued and no check is running. */
  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (!this.isFrozen()) this.scheduleLadder();
      const batch = this.store.claimQueued(this.batchSize());
      if (batch.length === 0) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, 1000).unref();
        });
        continue;
      }
      await this.play(batch, signal);
    }
  }

  private batchSize(): number {
    return this.o.queue === undefined ? this.jobs() * 2 : Math.max(8, this.jobs() * 4);
  }

  /** Ladder games to keep queued ahead, so a free job never waits for the scheduler. */
  private scheduleLadder(): void {
    const ahead = this.o.ladderAhead ?? this.jobs() * 2;
    const queued = this.store.countGames('queued', 'ladder') + this.store.countGames('running', 'ladder');
    if (queued >= ahead) return;
    const entries: LadderEntry[] = this.standings().map((s) => ({ key: s.anchor ? playerKey({ anchor: s.pseudonym }) : playerKey({ submission: s.submission! }), student: s.student, rating: s.rating, games: s.games }));
    if (entries.filter((e) => e.student !== null).length === 0) return;
    const met = new Map<string, number>();
    for (const r of this.store.db.all("SELECT a_submission, a_anchor, b_submission, b_anchor, count(*) AS n FROM games WHERE kind IN ('placement','ladder') GROUP BY 1,2,3,4") as unknown as (GameRow & { n: number })[]) {
      const a = r.a_submission !== null ? `sub:${r.a_submission}` : `anchor:${r.a_anchor}`;
      const b = r.b_submission !== null ? `sub:${r.b_submission}` : `anchor:${r.b_anchor}`;
      met.set(pairKey(a, b), (met.get(pairKey(a, b)) ?? 0) + Number(r.n));
    }
    const pending = new Map<string, number>();
    for (const r of this.store.db.all("SELECT a_submission, b_submission, b_anchor FROM games WHERE kind IN ('placement','ladder') AND status <> 'done'") as unknown as GameRow[]) {
      for (const s of [r.a_submission, r.b_submission]) if (s !== null) pending.set(`sub:${s}`, (pending.get(`sub:${s}`) ?? 0) + 1);
    }
    const total = Number((this.store.db.get('SELECT count(*) AS n FROM games') as { n: number }).n);
    const pairs = pickLadderPairs(entries, { met, pending, wanted: Math.ceil((ahead - queued) / 2), seed: deriveSeed(this.settings.seed, total, 6), maxMet: this.settings.maxGamesPerPair });
    const games: NewGame[] = [];
    for (const [k, [a, b]] of pairs.entries()) {
      const pair = deriveSeed(this.settings.seed, total, k, 7) % OPENING_PAIRS;
      for (const [j, first] of (['A', 'B'] as const).entries()) {
        games.push({ kind: 'ladder', A: sideOf(a), B: sideOf(b), first, seed: deriveSeed(this.settings.seed, total, k, j, 8), opening: 2 * pair + j });
      }
    }
    if (games.length > 0) this.store.addGames(games);
  }

  /** The tournament job's setup for the arena's games: the arena's rules, clock and openings. */
  jobSetup(): JobSetup {
    const s = this.settings;
    const params: TournamentParams = {
      format: 'round-robin',
      agents: [],
      vs: [],
      gamesPerPair: OPENING_PAIRS * 2,
      seed: s.seed,
      rules: s.rules,
      pits: s.pits,
      seeds: s.seeds,
      timePerMoveMs: s.timePerMoveMs,
      openings: `random:${s.openingPlies}`,
      openingsSha256: null,
      forfeit: 'loss',
    };
    return { params, memoryMb: this.o.memoryMb ?? DEFAULT_MEMORY_MB, ...(this.o.sandbox !== undefined ? { sandbox: this.o.sandbox } : {}), moveTimes: true };
  }

  specOf(submission: number | null, anchor: string | null): string {
    if (anchor !== null) return anchor;
    return join(this.dir, this.store.submission(submission!)!.folder);
  }

  private async play(batch: GameRow[], signal: AbortSignal): Promise<void> {
    const items: ScheduledGame[] = batch.map((g) => ({ index: g.id, A: this.specOf(g.a_submission, g.a_anchor), B: this.specOf(g.b_submission, g.b_anchor), first: g.first, seed: g.seed, round: g.opening }));
    const recorded = new Set<number>();
    const onResult = (record: GameRecord, item: ScheduledGame) => {
      recorded.add(item.index);
      this.record(item.index, record);
    };
    this.playing += batch.length;
    // A signal of the batch's own, tied to the arena's: a run adds listeners to its signal, and the arena's lives for the whole term.
    const batchStop = new AbortController();
    const stopBatch = () => batchStop.abort();
    signal.addEventListener('abort', stopBatch, { once: true });
    try {
      const run = { kind: TOURNAMENT_JOB, setup: this.jobSetup(), items, onResult, signal: batchStop.signal };
      if (this.o.queue === undefined) await runJobs({ ...run, jobs: this.jobs() });
      else {
        const { runJobsOnQueue } = await import('../distributed/coordinator.ts');
        const files = [...new Set(items.flatMap((g) => [g.A, g.B]).filter((s) => s.startsWith('/')))];
        await runJobsOnQueue({ ...run, queue: this.o.queue, label: 'arena', keyOf: (g) => String(g.index), files, onNotice: (l) => this.queueNotice(l) });
      }
    } catch (e) {
      this.log(`games ${batch.map((g) => g.id).join(', ')}: not played: ${(e as Error).message}`);
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, 2000).unref());
    } finally {
      signal.removeEventListener('abort', stopBatch);
      this.playing -= batch.length;
      // Games not recorded (a stop, a failed run) go back to the queue: played again, never counted twice.
      this.store.unclaim(batch.map((g) => g.id).filter((id) => !recorded.has(id)));
    }
  }

  /** A finished game: recorded once, rated when it counts, and the sanity stage judged when it was its last game. */
  private record(id: number, r: GameRecord): void {
    const result = { winner: r.winner, score: r.score, forfeit: r.forfeit, record: r };
    const done = this.store.finishGame(id, result, (g) => {
      if (g.kind !== 'placement' && g.kind !== 'ladder') return;
      const a = g.a_submission !== null ? playerKey({ submission: g.a_submission }) : playerKey({ anchor: g.a_anchor! });
      const b = g.b_submission !== null ? playerKey({ submission: g.b_submission }) : playerKey({ anchor: g.b_anchor! });
      const ra = this.store.rating(a) ?? { mu: rating().mu, sigma: rating().sigma };
      const rb = this.store.rating(b) ?? { mu: rating().mu, sigma: rating().sigma };
      const rank = r.winner === 'draw' ? [1, 1] : r.winner === 'A' ? [1, 2] : [2, 1];
      const [[a2], [b2]] = rate([[rating({ mu: ra.mu, sigma: ra.sigma })], [rating({ mu: rb.mu, sigma: rb.sigma })]], { rank, tau: 0 });
      this.store.updateRating(a, a2!.mu, a2!.sigma, id);
      this.store.updateRating(b, b2!.mu, b2!.sigma, id);
    });
    if (!done) return;
    const g = this.store.game(id)!;
    if (g.kind === 'sanity' && g.a_submission !== null) this.judgeSanity(g.a_submission);
  }

  /** Resolves once nothing is queued or running and no check is under way (tests, `arena final`). */
  async idle(timeoutMs = 600_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.checking.size === 0 && this.playing === 0 && this.store.countGames('queued') === 0 && this.store.countGames('running') === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('arena: not idle in time');
  }
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

function sideOf(key: string): GameSide {
  return key.startsWith('sub:') ? { submission: Number(key.slice(4)) } : { anchor: key.slice('anchor:'.length) };
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

export function parseFeedback(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A folder holding one folder and nothing else (a zip of a folder): that folder. */
function soleFolder(dir: string): string {
  const entries = readdirSync(dir).filter((n) => n !== '__MACOSX' && n !== '.DS_Store');
  if (entries.length === 1 && statSync(join(dir, entries[0]!)).isDirectory()) return soleFolder(join(dir, entries[0]!));
  return dir;
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(dir, e.name)) : 1;
  return n;
}

/** The digest of a folder's files: their paths and contents, in path order. */
export function contentHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const data = readFileSync(p);
        h.update(`${relative(dir, p)}\0${data.length}\0`);
        h.update(data);
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}

/**
 * A student id as a folder name: letters, digits, `.`, `_`, `-` (anything else as `_`; ids come
 * from a roster) and a digest of the whole id, so two ids never share a folder.
 */
function safeName(id: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 60);
  return `${s}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
