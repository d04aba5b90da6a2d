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
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rating } from 'openskill';
import { UserError } from '../errors.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import type { GameRecord } from '../matches/types.ts';
import { TOURNAMENT_JOB, type JobSetup } from '../tournaments/executor.ts';
import type { ScheduledGame } from '../tournaments/schedule.ts';
import type { QueueWorkerCounter } from '../distributed/worker-count.ts';
import { runJobs } from '../workers/pool.ts';
import { arenaCourse, type ArenaCourse } from './course.ts';
import { runPublicChecks, type CheckFeedback } from './checks.ts';
import { nextLadderGames, rateGame } from './ladder.ts';
import { placementGames, sanityGames, sanityVerdict, scrimGames } from './stages.ts';
import { checkedPseudonym, freePseudonym, instructorToken, isInstructorToken, writeTokens } from './people.ts';
import { arenaJobSetup, ANCHOR_SIGMA, ArenaFrozen, DB_FILE, DEFAULT_SETTINGS, FROZEN_KEY, parseFeedback, RateLimited, SETTINGS_KEY, SUBMISSIONS_DIR, TOKENS_FILE, type ArenaMetrics, type ArenaOptions, type ArenaSettings, type Standing } from './settings.ts';
import { arenaStandings } from './standings.ts';
import { ArenaStore, playerKey, type GameRow, type StudentRow, type SubmissionRow } from './store.ts';
import { takeInUpload, type Upload } from './uploads.ts';

export * from './settings.ts';

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
    void this.workerCounter?.close();
    this.store.close();
  }

  private workerCounter: QueueWorkerCounter | undefined;

  /** The local jobs, or under --queue the workers connected to it (worker-count.ts; loaded then only); undefined: Redis cannot say. */
  async workerCount(): Promise<number | undefined> {
    if (this.o.queue === undefined) return this.jobs();
    this.workerCounter ??= new (await import('../distributed/worker-count.ts')).QueueWorkerCounter(this.o.queue);
    return this.workerCounter.count();
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
        const token = this.store.addStudent({ ...e, pseudonym: freePseudonym(this.store, this.settings.seed, e.id) })!;
        added.push({ id: e.id, token });
      }
    });
    if (added.length > 0 || !existsSync(join(this.dir, TOKENS_FILE))) writeTokens(this.dir, added);
    return added;
  }


  /** A student's chosen pseudonym (people.ts checkedPseudonym). */
  setPseudonym(student: string, pseudonym: string): void {
    this.store.setPseudonym(student, checkedPseudonym(this.store, this.settings.anchors, student, pseudonym));
  }


  /** The instructor's token (people.ts). */
  instructorToken(): string {
    return instructorToken(this.dir, this.store);
  }

  /** Who a token is: the instructor, a student, or nobody. */
  identify(token: string | undefined): { role: 'instructor' } | { role: 'student'; student: StudentRow } | undefined {
    if (token === undefined || token === '') return undefined;
    if (isInstructorToken(this.store, token)) return { role: 'instructor' };
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
  async submit(student: string, upload: Upload): Promise<SubmissionRow> {
    if (this.isFrozen()) throw new ArenaFrozen('the arena is frozen: no new submissions (the final is being played)');
    if (this.store.student(student) === undefined) throw new UserError(`no student ${student} in this arena`);
    const since = new Date(Date.now() - 3600_000).toISOString();
    if (this.store.submissionsSince(student, since) >= this.settings.uploadsPerHour) {
      throw new RateLimited(`refused: ${this.settings.uploadsPerHour} uploads in the last hour, the most this arena takes; try again later`);
    }
    const taken = await takeInUpload(this.dir, student, this.store.submissionsOf(student).length + 1, upload);
    const id = this.store.addSubmission({ student, folder: taken.folder, contentHash: taken.contentHash });
    if (taken.notes.length > 0) this.store.setSubmissionStatus(id, 'checking', JSON.stringify({ upload: taken.notes }));
    this.startChecks(id);
    return this.store.submission(id)!;
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
      this.store.addGames(sanityGames(this.settings, id));
    });
    this.poke();
  }

  /** A sanity stage whose games are all in: the verdict, and the ladder for a submission that passed. */
  private judgeSanity(id: number): void {
    const sub = this.store.submission(id);
    if (sub === undefined || sub.status !== 'sanity') return;
    const games = this.store.gamesOfSubmission(id).filter((g) => g.kind === 'sanity');
    if (games.some((g) => g.status !== 'done')) return;
    const sanity = sanityVerdict(games, id);
    const feedback = { ...parseFeedback(sub.feedback), sanity };
    const { passed, wins, forfeits } = sanity;
    if (!passed) {
      this.store.setSubmissionStatus(id, 'failed', JSON.stringify({ ...feedback, verdict: `failed the sanity stage: won ${wins} of ${games.length} games against random (more than half needed)${forfeits.length > 0 ? `; ${forfeits[0]}` : ''}` }));
      return;
    }
    this.store.setSubmissionStatus(id, 'sanity', JSON.stringify({ ...feedback, verdict: 'on the ladder' }));
    const r = rating();
    this.store.promoteToLadder(id, r.mu, r.sigma);
    this.store.addGames(placementGames(this.settings, id));
  }

  /**
   * An unranked game asked for by a student: their current submission (on the ladder) against an
   * anchor or another student's by pseudonym; both seats, counted for nothing. Rate-limited.
   */
  scrim(student: string, opponent: string): number[] {
    if (this.isFrozen()) throw new ArenaFrozen('the arena is frozen: no scrims');
    const ids = this.store.addGames(scrimGames(this.store, this.settings, student, opponent, (s) => this.currentSubmission(s)));
    this.poke();
    return ids;
  }

  currentSubmission(student: string): SubmissionRow | undefined {
    return this.store.submissionsOf(student).filter((s) => s.status === 'ladder').at(-1);
  }

  // ---- standings

  /** Each student's current submission and each anchor, by rating (standings.ts). */
  standings(): Standing[] {
    return arenaStandings(this.store, this.settings.anchors, (student) => this.currentSubmission(student));
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

  /** Ladder games to keep queued ahead, so a free job never waits for the scheduler (ladder.ts). */
  private scheduleLadder(): void {
    const games = nextLadderGames(this.store, this.settings, this.standings(), this.o.ladderAhead ?? this.jobs() * 2);
    if (games.length > 0) this.store.addGames(games);
  }

  /** The tournament job's setup for the arena's games (settings.ts arenaJobSetup). */
  jobSetup(): JobSetup {
    return arenaJobSetup(this.settings, this.o);
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
      if (g.kind === 'placement' || g.kind === 'ladder') rateGame(this.store, g, r.winner);
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

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
