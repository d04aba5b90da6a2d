/**
 * The match runner: one game between two MatchPlayers (`playGame`), and a match of many games
 * between two agents named on the command line (`playMatch`), what `mancala match` and
 * `mancala tournament` run.
 *
 * - Sides are A and B. `first` is the side in the bottom seat, which moves first from the start
 *   position (a start position from a file may have top to move): A in games 1, 3, 5, … and B in
 *   games 2, 4, 6, …; games 2p+1 and 2p+2 share their start (openings.ts), so each side plays each
 *   opening from both seats.
 * - Each side has its own clock: every decision may take `timePerMoveMs` (the agent's deadline),
 *   plus a grace for clock jitter (`timeGraceMs`); the time each side used is recorded.
 * - A crash, a timeout, running out of memory or an illegal move is a failure of that side. Under
 *   the forfeit policy `loss` the side loses the game at once (the stores are recorded as they
 *   stood); under `random-move` a seeded random legal move is played for it and the game goes on.
 *   Either way the first failure is recorded with its reason and a message.
 * - The anytime rule (`anytime`, on by default under the profiles of ANYTIME_PROFILES: seed 003's
 *   cs540; seed 003's framework interrupts the player and plays its best move so far). The agent
 *   is stopped at the sandbox's hard limit: the time per move plus anytimeGraceMs (a quarter,
 *   250 ms to 2 s), the moment the sandbox kills a submission that has not answered. An answer
 *   before then is played as usual. Without one, the last legal move the agent published with
 *   ctx.report during THIS decision is played (counted in `deadlineMoves`); an agent that reported
 *   nothing, or only illegal moves, forfeits with reason timeout. Only a timeout is rescued: a
 *   crash, a memory overrun or an illegal answer is still a failure. An in-process reference
 *   agent cannot be stopped: an answer after the hard limit counts as a timeout, rescued by its
 *   report when its player passes the report on. The report is always this decision's: the
 *   sandbox keeps one per request and runAgent one per call, never an older turn's.
 * - Everything random derives from the match's seed and the game's index (deriveSeed): each game's
 *   opening, the seed an agent gets for each move, the moves played for a failing side. A game's
 *   result does not depend on which job played it, so a seed gives the same games for any --jobs.
 * - With `jobs` > 1 the games run in worker threads, each with its own pair of players (a
 *   sandboxed submission gets one process a job), so both cores are used even by reference agents,
 *   which run in the worker's own thread. A worker first loads the framework (0.5–1 s on a busy
 *   machine), so jobs pay off for matches of seconds or more, not for a few fast games.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Player } from '../contracts/game.ts';
import { UserError } from '../errors.ts';
import { boardToState, stateToBoard, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import { findProfile, PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import { createRandom, deriveSeed, randomInt } from '../random.ts';
import type { SearchConventions } from '../search/conventions.ts';
import type { SandboxMode } from '../sandbox/mechanisms.ts';
import type { GameSpec } from '../suites/types.ts';
import { describeOpenings, planStarts, randomOpening, readStartPositions, type OpeningsSpec } from './openings.ts';
import { checkAgentSpec, openPlayer } from './player.ts';
import { replayEnd, replayFileName, writeReplay, type ReplayHeader } from './replay.ts';
import { sideToMove, type ForfeitPolicy, type ForfeitReason, type GameRecord, type MatchPlayer, type MatchSummary, type MoveAttempt, type ReplayLine, type Side } from './types.ts';

// ---- seeds ---------------------------------------------------------------------------------------

export { deriveSeed } from '../random.ts';

/**
 * Profiles whose matches follow the anytime rule unless told otherwise: seed 003 (cs540) grades
 * iterative deepening whose best move so far is kept when time runs out.
 */
export const ANYTIME_PROFILES: ReadonlySet<string> = new Set(['cs540']);

/** Whether a match under `rules` (a profile name) follows the anytime rule by default. */
export function anytimeByDefault(rules: string): boolean {
  return ANYTIME_PROFILES.has(rules);
}

/** Salts of a game's and a match's random sources other than the agents' per-move seeds (plies ≥ 0). */
const OPENING_SOURCE = -1;
const FORFEIT_SOURCE = -2;
const MATCH_OPENINGS_SOURCE = -3;

// ---- one game ------------------------------------------------------------------------------------

/** A game still running after this many moves is stopped and scored as it stands (no real game gets near it). */
export const MAX_PLIES = 10_000;

/**
 * The extra time a decision may take beyond the time per move before it counts as a timeout:
 * a tenth of it, at least 20 ms and at most 250 ms. An anytime agent that stops at its deadline
 * returns a little after it, and a loaded machine delays any answer by a few ms.
 */
export function timeGraceMs(timePerMoveMs: number): number {
  return Math.min(250, Math.max(20, timePerMoveMs * 0.1));
}

/**
 * The grace under the anytime rule: up to the sandbox's hard limit (framework/sandbox/session.ts
 * hardLimitFor, the same formula; not imported, so a match between reference agents does not load
 * the sandbox), a quarter of the time per move, at least 250 ms and at most 2 s. A sandboxed
 * agent's answer then never arrives late: it is in before the kill, or the kill's report counts.
 */
export function anytimeGraceMs(timePerMoveMs: number): number {
  return Math.min(2000, Math.max(250, timePerMoveMs * 0.25));
}

export interface PlayGameOptions {
  game: MancalaGame;
  /** the position before the opening */
  start: MancalaState;
  /** moves played from `start` before the agents take over (the opening) */
  opening?: readonly number[];
  /** without `opening`: this many seeded random moves (drawn from `seed`) open the game; default 0 */
  openingPlies?: number;
  players: { A: MatchPlayer; B: MatchPlayer };
  /** the side in the bottom seat (player 0, who moves first from the start position); the other side plays top */
  first: Side;
  /** the game's number in its match, 1-based (recorded, and named in replay lines) */
  index: number;
  timePerMoveMs: number;
  forfeit: ForfeitPolicy;
  /** the game's seed: the agents' per-move seeds, the opening (openingPlies) and forfeit moves derive from it */
  seed: number;
  /** each move as it is played, with the position before it */
  onReplay?: (line: ReplayLine) => void;
  /** recorded in the GameRecord: the openings file's start position the game started from */
  startPosition?: number;
  /**
   * The anytime rule (see the module comment): the grace is anytimeGraceMs, and a decision that
   * ran out of time plays the last legal move the agent reported during it instead of failing.
   * Default false; playMatch turns it on for ANYTIME_PROFILES.
   */
  anytime?: boolean;
}

/** A game's record, with what the anytime rule did when it was on. */
/** A played game (GameRecord carries the anytime rule's deadlineMoves too). */
export type PlayedGameRecord = GameRecord;

type Reported = { move: number; value?: number };

/**
 * The move the agent published with ctx.report during this decision, if the attempt carries one.
 * A failed attempt of a sandboxed agent does (framework/sandbox/session.ts); an answer that came
 * back late carries one when its player passes it on (read from any attempt for that reason).
 */
function reportedOf(a: MoveAttempt): Reported | undefined {
  const r = (a as { reported?: unknown }).reported;
  if (typeof r !== 'object' || r === null) return undefined;
  const { move, value } = r as { move?: unknown; value?: unknown };
  if (typeof move !== 'number' || !Number.isInteger(move)) return undefined;
  return typeof value === 'number' ? { move, value } : { move };
}

/**
 * The anytime rule for a decision that timed out: the reported move to play, or why there is none
 * (added to the timeout's message).
 */
function deadlineMove(a: MoveAttempt, game: MancalaGame, s: MancalaState): { move: number; value?: number } | { missing: string } {
  const r = reportedOf(a);
  if (r === undefined) return { missing: 'it reported no move this turn (ctx.report), so there was no move to play' };
  if (!game.isLegal(s, r.move)) return { missing: `its last reported move ${moveText(game, s, r.move)} is not legal here` };
  return r;
}

interface Failure {
  reason: ForfeitReason;
  message: string;
}

const REASON_OF: Record<'error' | 'timeout' | 'memory' | 'output-limit', ForfeitReason> = { error: 'crash', timeout: 'timeout', memory: 'memory', 'output-limit': 'output-limit' };

function moveText(game: MancalaGame, s: MancalaState, move: number): string {
  return Number.isInteger(move) && move >= 0 && move < game.n ? `${move} (${game.moveName(s, move)})` : String(move);
}

/** What went wrong with a decision, or undefined when it is a legal move in time. */
function failureOf(a: MoveAttempt, game: MancalaGame, s: MancalaState, limitMs: number, graceMs: number, ply: number): Failure | undefined {
  const at = `at move ${ply + 1}`;
  if (a.status !== 'ok') return { reason: REASON_OF[a.status], message: `${at}: ${a.message}` };
  if (a.ms > limitMs + graceMs) {
    return { reason: 'timeout', message: `${at}: took ${Math.round(a.ms)} ms, the limit is ${limitMs} ms a move` };
  }
  if (!game.isLegal(s, a.move)) {
    const legal = game.legalMoves(s).map((m) => game.moveName(s, m));
    return { reason: 'illegal-move', message: `${at}: played ${moveText(game, s, a.move)}, not a legal move; legal: ${legal.join(' ')}` };
  }
  return undefined;
}

const sideIndex = (side: Side): 0 | 1 => (side === 'A' ? 0 : 1);

/** A player's decision; a player that throws (it should not: failures are attempts) counts as a crash. */
async function ask(player: MatchPlayer, game: MancalaGame, s: MancalaState, limitMs: number, seed: number): Promise<MoveAttempt> {
  const start = performance.now();
  try {
    return await player.chooseMove(game, s, limitMs, seed);
  } catch (e) {
    return { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
  }
}

/** Plays one game to its end (or to a forfeit) and records it. Never throws for anything a player does. */
export async function playGame(o: PlayGameOptions): Promise<PlayedGameRecord> {
  const { game } = o;
  const opening = o.opening ?? randomOpening(game, o.start, o.openingPlies ?? 0, createRandom(deriveSeed(o.seed, OPENING_SOURCE)));
  const forfeitRandom = createRandom(deriveSeed(o.seed, FORFEIT_SOURCE));
  const graceMs = o.anytime === true ? anytimeGraceMs(o.timePerMoveMs) : timeGraceMs(o.timePerMoveMs);
  const time: [number, number] = [0, 0];
  const maxMoveMs: [number, number] = [0, 0];
  const decisions: [number, number] = [0, 0];
  const randomMoves: [number, number] = [0, 0];
  const deadlineMoves: [number, number] = [0, 0];
  const moves: number[] = [];
  let forfeit: GameRecord['forfeit'] = null;
  let lostBy: Side | undefined;
  let s = o.start;

  const play = (side: Side, move: number, ms: number, extra: Pick<ReplayLine, 'by' | 'value'>) => {
    o.onReplay?.({ game: o.index, ply: moves.length, side, before: stateToBoard(game, s), move, moveName: game.moveName(s, move), ms, ...extra });
    moves.push(move);
    s = game.play(s, move);
  };

  for (const m of opening) {
    if (game.isOver(s)) break;
    play(sideToMove(game.toMove(s), o.first), m, 0, { by: 'opening' });
  }
  const openingPlies = moves.length;

  while (!game.isOver(s) && moves.length < MAX_PLIES) {
    const side = sideToMove(game.toMove(s), o.first);
    const k = sideIndex(side);
    const attempt = await ask(o.players[side], game, s, o.timePerMoveMs, deriveSeed(o.seed, moves.length));
    decisions[k]++;
    time[k] += attempt.ms;
    maxMoveMs[k] = Math.max(maxMoveMs[k], attempt.ms);
    let failure = failureOf(attempt, game, s, o.timePerMoveMs, graceMs, moves.length);
    if (failure === undefined && attempt.status === 'ok') {
      play(side, attempt.move, attempt.ms, attempt.value !== undefined ? { value: attempt.value } : {});
      continue;
    }
    if (o.anytime === true && failure?.reason === 'timeout') {
      const rescue = deadlineMove(attempt, game, s);
      if (!('missing' in rescue)) {
        deadlineMoves[k]++;
        play(side, rescue.move, attempt.ms, rescue.value !== undefined ? { value: rescue.value } : {});
        continue;
      }
      failure = { ...failure, message: `${failure.message}; ${rescue.missing}` };
    }
    forfeit ??= { side, ...failure! };
    if (o.forfeit === 'loss') {
      lostBy = side;
      break;
    }
    const legal = game.legalMoves(s);
    randomMoves[k]++;
    play(side, legal[randomInt(forfeitRandom, legal.length)]!, attempt.ms, { by: 'forfeit' });
  }

  const a: Player = o.first === 'A' ? 0 : 1;
  const score: [number, number] = [game.finalStore(s, a), game.finalStore(s, a === 0 ? 1 : 0)];
  const winner: Side | 'draw' = lostBy !== undefined ? (lostBy === 'A' ? 'B' : 'A') : score[0] > score[1] ? 'A' : score[1] > score[0] ? 'B' : 'draw';
  return {
    index: o.index,
    first: o.first,
    winner,
    score,
    moves,
    openingPlies,
    forfeit,
    time,
    decisions,
    maxMoveMs,
    ...(o.forfeit === 'random-move' ? { randomMoves } : {}),
    ...(o.anytime === true ? { deadlineMoves } : {}),
    ...(o.startPosition !== undefined ? { startPosition: o.startPosition } : {}),
    ...(!game.isOver(s) && lostBy === undefined ? { truncated: true } : {}),
  };
}

// ---- a match -------------------------------------------------------------------------------------

export interface MatchOptions {
  /** the agents, as `mancala match` takes them: a reference name with options, or a path */
  A: string;
  B: string;
  /** rules profile; default `kalah` */
  rules?: string;
  /** board size; default the profile's (with an openings file: the file's boards') */
  pits?: number;
  seeds?: number;
  /** default 10 */
  games?: number;
  /** default 1000 */
  timePerMoveMs?: number;
  /** default 1 */
  seed?: number;
  /** default random:2 */
  openings?: OpeningsSpec;
  /** default loss */
  forfeit?: ForfeitPolicy;
  /** the anytime rule (PlayGameOptions.anytime); default: on for ANYTIME_PROFILES (cs540), off otherwise */
  anytime?: boolean;
  /** games played at once, each job in a worker thread with its own players; default 1 (in this thread) */
  jobs?: number;
  /** memory cap of a sandboxed submission's process, MB; default 512 */
  memoryMb?: number;
  /** how sandboxed submissions are confined (sandbox/mechanisms.ts); default full */
  sandbox?: SandboxMode;
  /** a folder to write each game's replay to (replay.ts) */
  replays?: string;
  /** called as each game ends (in any order when jobs > 1), with the number of games done */
  onGame?: (record: PlayedGameRecord, done: number) => void;
}

export const MATCH_DEFAULTS = {
  rules: 'kalah',
  games: 10,
  timePerMoveMs: 1000,
  seed: 1,
  openings: { kind: 'random', plies: 2 } as OpeningsSpec,
  forfeit: 'loss' as ForfeitPolicy,
  jobs: 1,
  memoryMb: 512,
};

/** The match's parameters as resolved: what the JSON output and replays record. */
export interface MatchInfo {
  A: string;
  B: string;
  rules: string;
  pits: number;
  seeds: number;
  games: number;
  timePerMoveMs: number;
  seed: number;
  openings: string;
  forfeit: ForfeitPolicy;
  /** the anytime rule is on: a timeout plays the side's last reported legal move */
  anytime: boolean;
}

export interface SideStats {
  wins: number;
  draws: number;
  losses: number;
  /** the sum over games of (own final store − the other's) */
  storeMargin: number;
  /** games this side forfeited (or, under random-move, failed in), by reason */
  forfeits: Record<ForfeitReason, number>;
  /** ms thought over the match, the decisions counted, the longest one */
  timeMs: number;
  decisions: number;
  maxMoveMs: number;
  /** anytime rule: moves that were the side's reported move at a timeout */
  deadlineMoves: number;
}

export interface MatchResult {
  match: MatchInfo;
  /** in game order */
  games: PlayedGameRecord[];
  summary: MatchSummary;
  /** per side: margins, forfeits by reason, time (time is not deterministic: not in matchJson) */
  stats: { A: SideStats; B: SideStats };
}

export const FORFEIT_REASONS: readonly ForfeitReason[] = ['crash', 'timeout', 'illegal-move', 'memory', 'output-limit'];

interface ResolvedMatch {
  info: MatchInfo;
  game: MancalaGame;
  gameSpec: GameSpec;
  conventions: SearchConventions;
  memoryMb: number;
  jobs: number;
  starts: { start: BoardSpec; opening: number[]; startPosition?: number }[];
}

function checkRange(value: number, min: number, max: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UserError(`${what}: expected a whole number from ${min} to ${max}, got ${value}`);
}

/** Checks an agent spec without starting anything: a reference name and its options, or an existing path. */

/** The options with defaults filled in, the game built and every game's start planned; every mistake a UserError. */
function resolveMatch(o: MatchOptions): ResolvedMatch {
  const rules = o.rules ?? MATCH_DEFAULTS.rules;
  const profile = findProfile(rules);
  if (profile === undefined) throw new UserError(`rules "${rules}": expected one of ${PROFILE_NAMES.join(', ')}`);
  const games = o.games ?? MATCH_DEFAULTS.games;
  const timePerMoveMs = o.timePerMoveMs ?? MATCH_DEFAULTS.timePerMoveMs;
  const seed = o.seed ?? MATCH_DEFAULTS.seed;
  const jobs = o.jobs ?? MATCH_DEFAULTS.jobs;
  const openings = o.openings ?? MATCH_DEFAULTS.openings;
  checkRange(games, 1, 1_000_000, 'games');
  checkRange(jobs, 1, 64, 'jobs');
  if (!(timePerMoveMs > 0 && Number.isFinite(timePerMoveMs))) throw new UserError(`time per move: expected a number of ms > 0, got ${timePerMoveMs}`);
  if (!Number.isSafeInteger(seed)) throw new UserError(`seed: expected a whole number, got ${seed}`);
  checkAgentSpec(o.A);
  checkAgentSpec(o.B);
  const boards = openings.kind === 'file' ? readStartPositions(openings.file) : undefined;
  const pits = o.pits ?? boards?.[0]?.bottom.length ?? profile.rules.pits;
  const seeds = o.seeds ?? profile.rules.seeds;
  checkRange(pits, LIMITS.minPits, LIMITS.maxPits, 'pits');
  checkRange(seeds, LIMITS.minSeeds, LIMITS.maxSeeds, 'seeds');
  const name = `${profile.name}(${pits},${seeds})`;
  const gameRules = { ...profile.rules, pits, seeds };
  const game = new MancalaGame(gameRules, name);
  const planned = planStarts(game, openings, { profile: profile.name, seed: deriveSeed(seed, MATCH_OPENINGS_SOURCE), games, ...(boards ? { boards } : {}) });
  return {
    info: {
      A: o.A,
      B: o.B,
      rules: profile.name,
      pits,
      seeds,
      games,
      timePerMoveMs,
      seed,
      openings: describeOpenings(openings),
      forfeit: o.forfeit ?? MATCH_DEFAULTS.forfeit,
      anytime: o.anytime ?? anytimeByDefault(profile.name),
    },
    game,
    gameSpec: { kind: 'mancala', profile: profile.name, rules: gameRules, name },
    conventions: profile.search,
    memoryMb: o.memoryMb ?? MATCH_DEFAULTS.memoryMb,
    jobs: Math.min(jobs, games),
    starts: planned.map((p) => ({ start: stateToBoard(game, p.start), opening: p.opening, ...(p.position !== undefined ? { startPosition: p.position } : {}) })),
  };
}

/** What one game needs beyond the players: plain data, so it can be posted to a worker. */
interface GameOrder {
  index: number;
  first: Side;
  start: BoardSpec;
  opening: number[];
  startPosition?: number;
  seed: number;
}

function gameOrders(m: ResolvedMatch): GameOrder[] {
  return m.starts.map((s, g) => ({
    index: g + 1,
    first: g % 2 === 0 ? 'A' : 'B',
    start: s.start,
    opening: s.opening,
    ...(s.startPosition !== undefined ? { startPosition: s.startPosition } : {}),
    seed: deriveSeed(m.info.seed, g + 1),
  }));
}

/** Everything a job needs to open its players and play games (posted to workers as it is). */
interface JobSetup {
  A: string;
  B: string;
  gameSpec: Extract<GameSpec, { kind: 'mancala' }>;
  conventions: SearchConventions;
  memoryMb: number;
  sandbox?: SandboxMode;
  timePerMoveMs: number;
  forfeit: ForfeitPolicy;
  anytime: boolean;
  replays: boolean;
}

interface PlayedGame {
  record: PlayedGameRecord;
  replay: ReplayLine[];
}

async function openPair(setup: JobSetup): Promise<{ A: MatchPlayer; B: MatchPlayer }> {
  const o = { game: setup.gameSpec, conventions: setup.conventions, memoryMb: setup.memoryMb, ...(setup.sandbox !== undefined ? { sandbox: setup.sandbox } : {}) };
  const A = await openPlayer(setup.A, o);
  try {
    return { A, B: await openPlayer(setup.B, o) };
  } catch (e) {
    await A.close();
    throw e;
  }
}

async function closePair(p: { A: MatchPlayer; B: MatchPlayer }): Promise<void> {
  await Promise.all([p.A.close(), p.B.close()]);
}

function playOrder(setup: JobSetup, game: MancalaGame, players: { A: MatchPlayer; B: MatchPlayer }, order: GameOrder): Promise<PlayedGame> {
  const replay: ReplayLine[] = [];
  return playGame({
    game,
    start: boardToState(game, order.start),
    opening: order.opening,
    players,
    first: order.first,
    index: order.index,
    timePerMoveMs: setup.timePerMoveMs,
    forfeit: setup.forfeit,
    anytime: setup.anytime,
    seed: order.seed,
    ...(setup.replays ? { onReplay: (l: ReplayLine) => void replay.push(l) } : {}),
    ...(order.startPosition !== undefined ? { startPosition: order.startPosition } : {}),
  }).then((record) => ({ record, replay }));
}

/**
 * Plays a match (see the module's comment) and returns every game in order with the tally.
 * A bad option, an unknown agent or a missing path, a bad openings file: UserError, before any
 * game is played (a submission folder without an agent module: when its players are opened).
 */
export async function playMatch(o: MatchOptions): Promise<MatchResult> {
  const m = resolveMatch(o);
  const setup: JobSetup = {
    A: m.info.A,
    B: m.info.B,
    gameSpec: m.gameSpec as JobSetup['gameSpec'],
    conventions: m.conventions,
    memoryMb: m.memoryMb,
    ...(o.sandbox !== undefined ? { sandbox: o.sandbox } : {}),
    timePerMoveMs: m.info.timePerMoveMs,
    forfeit: m.info.forfeit,
    anytime: m.info.anytime,
    replays: o.replays !== undefined,
  };
  if (o.replays !== undefined) {
    try {
      mkdirSync(o.replays, { recursive: true });
    } catch (e) {
      throw new UserError(`--replays ${o.replays}: cannot create the folder: ${(e as Error).message}`);
    }
  }
  const records: PlayedGameRecord[] = new Array(m.info.games);
  let done = 0;
  const finished = (p: PlayedGame) => {
    records[p.record.index - 1] = p.record;
    if (o.replays !== undefined) writeGameReplay(o.replays, m.info, p);
    o.onGame?.(p.record, ++done);
  };
  const orders = gameOrders(m);
  if (m.jobs === 1) await playInThisThread(setup, m.game, orders, finished);
  else await playInWorkers(setup, m.jobs, orders, finished);
  return { match: m.info, games: records, summary: summarize(records), stats: { A: sideStats(records, 'A'), B: sideStats(records, 'B') } };
}

async function playInThisThread(setup: JobSetup, game: MancalaGame, orders: GameOrder[], finished: (p: PlayedGame) => void): Promise<void> {
  const players = await openPair(setup);
  try {
    for (const order of orders) finished(await playOrder(setup, game, players, order));
  } finally {
    await closePair(players);
  }
}

function writeGameReplay(dir: string, info: MatchInfo, p: PlayedGame): void {
  const r = p.record;
  const header: ReplayHeader = {
    type: 'game',
    version: 1,
    game: r.index,
    rules: info.rules,
    pits: info.pits,
    seeds: info.seeds,
    A: info.A,
    B: info.B,
    first: r.first,
    seed: info.seed,
    timePerMoveMs: info.timePerMoveMs,
    forfeitPolicy: info.forfeit,
    ...(r.startPosition !== undefined ? { startPosition: r.startPosition } : {}),
  };
  writeReplay(join(dir, replayFileName(r.index, info.games)), { header, moves: p.replay, end: replayEnd(r) });
}

// ---- the tally -----------------------------------------------------------------------------------

/** Wins, draws and losses of each side. */
export function summarize(games: readonly GameRecord[]): MatchSummary {
  const tally = (side: Side) => ({
    wins: games.filter((g) => g.winner === side).length,
    draws: games.filter((g) => g.winner === 'draw').length,
    losses: games.filter((g) => g.winner !== side && g.winner !== 'draw').length,
  });
  return { A: tally('A'), B: tally('B') };
}

export function sideStats(games: readonly PlayedGameRecord[], side: Side): SideStats {
  const k = sideIndex(side);
  const forfeits = Object.fromEntries(FORFEIT_REASONS.map((r) => [r, 0])) as Record<ForfeitReason, number>;
  let storeMargin = 0;
  let timeMs = 0;
  let decisions = 0;
  let maxMoveMs = 0;
  let deadlineMoves = 0;
  for (const g of games) {
    storeMargin += g.score[k] - g.score[1 - k]!;
    if (g.forfeit?.side === side) forfeits[g.forfeit.reason]++;
    timeMs += g.time[k];
    maxMoveMs = Math.max(maxMoveMs, g.maxMoveMs?.[k] ?? 0);
    decisions += g.decisions?.[k] ?? 0;
    deadlineMoves += g.deadlineMoves?.[k] ?? 0;
  }
  const s = summarize(games)[side];
  return { ...s, storeMargin, forfeits, timeMs, decisions, maxMoveMs, deadlineMoves };
}

/**
 * The match as JSON text, the same bytes for the same options and seed when the agents are
 * deterministic: no timings. Keys in a fixed order:
 * `{"match":{…},"games":[{"index","first","winner","score","moves","openingPlies","forfeit",…}],"summary":{"A":{…},"B":{…}}}`.
 */
export function matchJson(r: MatchResult): string {
  const game = (g: PlayedGameRecord) => ({
    index: g.index,
    first: g.first,
    winner: g.winner,
    score: g.score,
    moves: g.moves,
    openingPlies: g.openingPlies,
    forfeit: g.forfeit === null ? null : { side: g.forfeit.side, reason: g.forfeit.reason, message: g.forfeit.message },
    ...(g.randomMoves !== undefined ? { randomMoves: g.randomMoves } : {}),
    ...(g.startPosition !== undefined ? { startPosition: g.startPosition } : {}),
    ...(g.truncated === true ? { truncated: true } : {}),
    ...(g.deadlineMoves !== undefined ? { deadlineMoves: g.deadlineMoves } : {}),
  });
  const i = r.match;
  // The anytime fields appear only when the rule is on: other matches keep their bytes.
  const side = (s: SideStats) => ({
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
    storeMargin: s.storeMargin,
    forfeits: s.forfeits,
    ...(i.anytime ? { deadlineMoves: s.deadlineMoves } : {}),
  });
  const match = {
    A: i.A,
    B: i.B,
    rules: i.rules,
    pits: i.pits,
    seeds: i.seeds,
    games: i.games,
    timePerMoveMs: i.timePerMoveMs,
    seed: i.seed,
    openings: i.openings,
    forfeit: i.forfeit,
    ...(i.anytime ? { anytime: true } : {}),
  };
  return JSON.stringify({ match, games: r.games.map(game), summary: { A: side(r.stats.A), B: side(r.stats.B) } }) + '\n';
}

// ---- jobs in worker threads ----------------------------------------------------------------------

type ToWorker = { type: 'play'; order: GameOrder } | { type: 'close' };
type FromWorker =
  | { type: 'ready' }
  | { type: 'played'; game: PlayedGame }
  | { type: 'failed'; userError: boolean; message: string };

/**
 * Starts the worker: plain JavaScript that registers tsx (as bin/mancala.js does) and imports this
 * module, so workers run the same TypeScript sources whether the match was started by the CLI or
 * a test runner.
 */
function startWorker(setup: JobSetup): Worker {
  const tsxApi = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
  const bootstrap = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.tsxApi)
      .then((tsx) => { tsx.register(); return import(workerData.module); })
      .then((m) => m.serveMatchJobs())
      .catch((e) => parentPort.postMessage({ type: 'failed', userError: false, message: String(e && e.stack || e) }));
  `;
  return new Worker(bootstrap, { eval: true, workerData: { tsxApi: pathToFileURL(tsxApi).href, module: import.meta.url, setup } });
}

/**
 * The worker's side: opens its pair of players, plays the games it is sent one at a time, and
 * closes them when told. Called by the bootstrap in startWorker; not for other callers.
 */
export async function serveMatchJobs(): Promise<void> {
  const { parentPort, workerData } = await import('node:worker_threads');
  const port = parentPort!;
  const setup = (workerData as { setup: JobSetup }).setup;
  const post = (m: FromWorker) => port.postMessage(m);
  let players: { A: MatchPlayer; B: MatchPlayer };
  try {
    players = await openPair(setup);
  } catch (e) {
    post({ type: 'failed', userError: e instanceof UserError, message: e instanceof UserError ? e.message : String((e as Error)?.stack ?? e) });
    port.close();
    return;
  }
  const game = new MancalaGame(setup.gameSpec.rules, setup.gameSpec.name);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'close') {
      void closePair(players).finally(() => port.close());
      return;
    }
    playOrder(setup, game, players, m.order).then(
      (game) => post({ type: 'played', game }),
      (e: unknown) => post({ type: 'failed', userError: false, message: String((e as Error)?.stack ?? e) }),
    );
  });
  post({ type: 'ready' });
}

/** Hands the games out to `jobs` workers, the next game to whichever is free. */
async function playInWorkers(setup: JobSetup, jobs: number, orders: GameOrder[], finished: (p: PlayedGame) => void): Promise<void> {
  const workers: Worker[] = [];
  let next = 0;
  let failure: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const fail = (e: Error) => {
        failure ??= e;
        reject(failure);
      };
      const feed = (w: Worker) => {
        if (failure !== undefined) return;
        if (next < orders.length) {
          running++;
          w.postMessage({ type: 'play', order: orders[next++]! } satisfies ToWorker);
        } else if (running === 0) resolve();
      };
      for (let j = 0; j < jobs; j++) {
        const w = startWorker(setup);
        workers.push(w);
        w.on('message', (m: FromWorker) => {
          if (m.type === 'failed') return fail(m.userError ? new UserError(m.message) : new Error(`match worker: ${m.message}`));
          if (m.type === 'played') {
            running--;
            try {
              finished(m.game);
            } catch (e) {
              return fail(e as Error);
            }
          }
          feed(w);
        });
        w.on('error', (e) => fail(e));
        // Before the last game is in, a worker stops only if something broke.
        w.on('exit', (code) => fail(new Error(`match worker stopped early (exit code ${code})`)));
      }
    });
  } finally {
    await Promise.all(workers.map((w) => stopWorker(w, failure !== undefined)));
  }
}

/** Asks a worker to close its players (a sandboxed submission's process and copy) and waits for it; terminates it if it hangs. */
async function stopWorker(w: Worker, failed: boolean): Promise<void> {
  if (w.threadId === -1) return; // already exited
  const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
  w.postMessage({ type: 'close' } satisfies ToWorker);
  const timer = setTimeout(() => void w.terminate(), failed ? 2_000 : 10_000);
  await exited;
  clearTimeout(timer);
}
