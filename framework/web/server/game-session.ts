/**
 * A game of the Play page: two seats, each a human at the page or an agent run here on the server
 * as `mancala play` runs it (a reference agent in this process; a submission, in any language, in
 * its sandboxed process: framework/matches/player.ts openPlayer), the positions so far, and what
 * each move did.
 *
 * The page drives the game one step at a time: a human's move (`humanMove`), an agent's decision
 * (`advance`: the page asks for it, so two agents are watched at the page's pace and nothing runs
 * while no page asks), taking a human's move back (`undo`), and a hint from the reference search
 * (`hint`). An agent that crashes, answers an illegal move or runs out of time forfeits, as in
 * `mancala play` (under cs540's anytime rule its last reported move is played instead of a
 * timeout); like the terminal, the clock is the agent's own (a sandboxed submission is stopped by
 * its sandbox), so a human may think as long as they like.
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Player } from '../../contracts/game.ts';
import { UserError } from '../../errors.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile, PROFILE_NAMES, type MancalaProfile } from '../../games/mancala/profiles.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import { anytimeByDefault } from '../../matches/play-game.ts';
import { checkAgentSpec, openPlayer, splitOptions } from '../../matches/player.ts';
import type { MatchPlayer, MoveAttempt } from '../../matches/types.ts';
import { agentTable, parseAgentSpec } from '../../plugins/agents.ts';
import { createRandom, type RandomSource } from '../../random.ts';
import { sandboxFor, type SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { isInside } from '../../sandbox/paths.ts';
import { gameSpec } from '../../suites/game.ts';
import { DEFAULT_LIMITS } from '../../suites/schema.ts';
import { HUMAN, type GameView, type Hint, type MoveView, type NewGameRequest, type Seat, type SeatView } from '../shared/api.ts';
import { boardView, seatOf, traceMove } from './board-view.ts';
import type { HintResult } from './search-job.ts';
import { cappedRefusal, HINT_CAP_MS, pooledReference, positionItem, runSearchItem } from './searches.ts';
import { PoolThreadCapped } from '../../workers/pool.ts';
import { HttpError } from './http-error.ts';
import { hiddenUnder } from './replay-files.ts';

/** The reference search behind a hint: alpha-beta at a modest depth, in the profile's depth unit. */
export const HINT_DEPTH = 6;
export const HINT_AGENT = `alphabeta:depth=${HINT_DEPTH}`;

export interface SessionContext {
  /** the folder agent paths are read under */
  root: string;
  sandbox: SandboxMode;
  memoryMb: number;
  /** opens an agent (default: openPlayer); tests may stand in */
  open?: typeof openPlayer;
}

interface SeatState {
  view: SeatView;
  /** undefined for a human */
  player?: MatchPlayer;
}

/** Where a submission's path leads, under the root; a path elsewhere is refused. */
export function agentPathUnderRoot(spec: string, root: string): string | undefined {
  const { path, options } = splitOptions(spec);
  const looksLikePath = path.includes('/') || path.includes('\\') || /\.(m?[jt]s|py|java)$/.test(path) || existsSync(resolve(root, path));
  if (!looksLikePath || Object.hasOwn(agentTable(), path)) return undefined;
  if (path.includes('\0')) throw new HttpError(400, `agent ${JSON.stringify(spec)}: not a path`);
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  if (!existsSync(absolute)) throw new HttpError(400, `agent ${path}: no such file or folder under ${root} (a reference agent is one of ${Object.keys(agentTable()).join(', ')})`);
  const real = realpathSync(absolute);
  if (!isInside(realpathSync(root), real)) throw new HttpError(403, `agent ${path}: outside ${root}, the folder this server reads agents from (mancala serve --root)`);
  if (hiddenUnder(realpathSync(root), absolute) || hiddenUnder(realpathSync(root), real)) throw new HttpError(403, `agent ${path}: a hidden file or folder (its name starts with a dot): this server runs none`);
  return options === '' ? real : `${real}:${options}`;
}

export class GameSession {
  readonly id: string;
  readonly profile: MancalaProfile;
  readonly game: MancalaGame;
  private readonly seats: [SeatState, SeatState];
  private readonly timePerMoveMs: number;
  private readonly seeds: RandomSource;
  /** states[k] is the position before move k; the last is the current one */
  private readonly states: MancalaState[];
  private readonly moves: MoveView[] = [];
  private forfeit: GameView['forfeit'];
  /** an agent is thinking: no other change until it answers */
  private thinking: string | undefined;
  private closed = false;
  lastUsed = Date.now();

  private constructor(id: string, profile: MancalaProfile, game: MancalaGame, seats: [SeatState, SeatState], timePerMoveMs: number, seed: number) {
    this.id = id;
    this.profile = profile;
    this.game = game;
    this.seats = seats;
    this.timePerMoveMs = timePerMoveMs;
    this.seeds = createRandom(seed);
    this.states = [game.initial()];
  }

  /** Opens the agents a request names; a bad profile, size or agent is a 400 naming it. */
  static async create(id: string, req: NewGameRequest, ctx: SessionContext): Promise<GameSession> {
    const profile = findProfile(req.rules);
    if (profile === undefined) throw new HttpError(400, `unknown rules "${req.rules}": expected one of ${PROFILE_NAMES.join(', ')}`);
    const pits = req.pits ?? profile.rules.pits;
    const seeds = req.seeds ?? profile.rules.seeds;
    if (pits < LIMITS.minPits || pits > LIMITS.maxPits) throw new HttpError(400, `pits: expected ${LIMITS.minPits} to ${LIMITS.maxPits} a side, got ${pits}`);
    if (seeds < LIMITS.minSeeds || seeds > LIMITS.maxSeeds) throw new HttpError(400, `stones: expected ${LIMITS.minSeeds} to ${LIMITS.maxSeeds} a pit, got ${seeds}`);
    const game = mancalaGame(profile, pits, seeds);
    const spec = gameSpec({ profile: profile.name, pits, seeds });
    // Every name is checked before any agent starts: an unknown one is a message, and nothing to close.
    const specs = ([req.bottom, req.top] as const).map((typed, k) => {
      const text = typed.trim();
      if (text === '' ) throw new HttpError(400, `${k === 0 ? 'bottom' : 'top'}: expected "${HUMAN}" or an agent, got nothing`);
      if (text === HUMAN) return { typed: text, spec: HUMAN, path: false };
      const path = agentPathUnderRoot(text, ctx.root);
      const side = k === 0 ? 'bottom' : 'top';
      try {
        if (path !== undefined) checkAgentSpec(path);
        else {
          // Not a path under the root: a reference agent's name, or nothing. (checkAgentSpec would
          // take a name that exists in the server's working folder for a path, and run it.)
          const { name } = parseAgentSpec(text);
          if (agentTable()[name]?.withheld === true) checkAgentSpec(text);
        }
      } catch (e) {
        if (e instanceof UserError) throw new HttpError(400, `${side}: ${e.message}`);
        throw e;
      }
      return { typed: text, spec: path ?? text, path: path !== undefined };
    });
    if (specs.some((s) => s.path)) await sandboxFor(ctx.sandbox); // refuses (UserError, a 400) where the sandbox cannot run
    const options = { game: spec, conventions: profile.search, memoryMb: ctx.memoryMb, sandbox: ctx.sandbox };
    // A submission in its sandboxed process; a reference agent searching on the worker pool (searches.ts), not on the server's event loop.
    const open = (s: (typeof specs)[number]): Promise<MatchPlayer> | MatchPlayer =>
      ctx.open !== undefined ? ctx.open(s.spec, options) : s.path ? openPlayer(s.spec, options) : pooledReference(s.spec, profile.name);
    const players: (MatchPlayer | undefined)[] = [];
    try {
      for (const s of specs) {
        players.push(s.spec === HUMAN ? undefined : await open(s));
      }
    } catch (e) {
      await Promise.all(players.map((p) => p?.close()));
      throw e instanceof UserError ? new HttpError(400, e.message) : e;
    }
    const seats = specs.map((s, k): SeatState => {
      const player = players[k];
      return { view: { seat: seatOf(k as Player), human: player === undefined, label: s.typed }, ...(player !== undefined ? { player } : {}) };
    }) as [SeatState, SeatState];
    return new GameSession(id, profile, game, seats, req.timePerMoveMs ?? DEFAULT_LIMITS.ms, req.seed ?? Math.floor(Math.random() * 2 ** 31));
  }

  private get state(): MancalaState {
    return this.states[this.states.length - 1]!;
  }

  private seatToMove(): SeatState {
    return this.seats[this.game.toMove(this.state)]!;
  }

  private get over(): boolean {
    return this.game.isOver(this.state) || this.forfeit !== undefined;
  }

  private busy(): void {
    if (this.closed) throw new HttpError(410, 'this game is closed');
    if (this.thinking !== undefined) throw new HttpError(409, `${this.thinking} is still thinking`);
  }

  private lastHumanMove(): number {
    for (let k = this.moves.length - 1; k >= 0; k--) if (this.seats[this.moves[k]!.seat === 'bottom' ? 0 : 1].player === undefined) return k;
    return -1;
  }

  private play(move: number, by: string, extra: Pick<MoveView, 'value' | 'ms' | 'note'> = {}): void {
    const before = this.state;
    const after = this.game.play(before, move);
    this.moves.push({ ...traceMove(this.game, before, move, after, this.moves.length, by), ...extra });
    this.states.push(after);
  }

  view(): GameView {
    const g = this.game;
    const s = this.state;
    const waitingFor = this.over ? 'nobody' : this.seatToMove().player === undefined ? 'human' : 'agent';
    return {
      id: this.id,
      rules: this.profile.name,
      pits: g.n,
      seeds: g.rules.seeds,
      seats: [this.seats[0].view, this.seats[1].view],
      board: boardView(g, s),
      moves: this.moves,
      waitingFor,
      ...(this.over ? { result: this.result() } : {}),
      ...(this.forfeit !== undefined ? { forfeit: this.forfeit } : {}),
      canUndo: this.thinking === undefined && this.lastHumanMove() >= 0,
      timePerMoveMs: this.timePerMoveMs,
    };
  }

  private who(seat: Seat): string {
    const v = this.seats[seat === 'bottom' ? 0 : 1].view;
    return v.human ? seat : `${seat} (${v.label})`;
  }

  private result(): string {
    if (this.forfeit !== undefined) {
      const winner: Seat = this.forfeit.seat === 'bottom' ? 'top' : 'bottom';
      return `${this.who(this.forfeit.seat)} forfeits (${this.forfeit.reason}): ${this.who(winner)} wins`;
    }
    const g = this.game;
    const b = g.finalStore(this.state, 0);
    const t = g.finalStore(this.state, 1);
    const score = `bottom ${b}, top ${t}`;
    return b === t ? `a draw, ${score}` : `${this.who(b > t ? 'bottom' : 'top')} wins, ${score}`;
  }

  /** A human's move: the sowing index of a pit of theirs. */
  humanMove(move: number): GameView {
    this.busy();
    this.lastUsed = Date.now();
    if (this.over) throw new HttpError(409, 'the game is over');
    const seat = this.seatToMove();
    if (seat.player !== undefined) throw new HttpError(409, `it is ${this.who(seat.view.seat)}'s turn, not a human's`);
    if (!this.game.isLegal(this.state, move)) {
      const legal = this.game.legalMoves(this.state).map((m) => `${this.game.moveName(this.state, m)} (${m})`);
      throw new HttpError(400, `move ${move} is not legal here: the ${seat.view.seat} player may play ${legal.join(', ')}`);
    }
    this.play(move, seat.view.seat);
    return this.view();
  }

  /** The agent to move decides, and its move is played (or it forfeits). */
  async advance(): Promise<GameView> {
    this.busy();
    this.lastUsed = Date.now();
    if (this.over) throw new HttpError(409, 'the game is over');
    const seat = this.seatToMove();
    const player = seat.player;
    if (player === undefined) throw new HttpError(409, `it is the ${seat.view.seat} player's turn: a human's move`);
    const s = this.state;
    this.thinking = seat.view.label;
    let attempt: MoveAttempt;
    const start = performance.now();
    try {
      attempt = await player.chooseMove(this.game, s, this.timePerMoveMs, Math.floor(this.seeds() * 2 ** 31));
    } catch (e) {
      // The server busy (503): the page asks again; nobody forfeits.
      if (e instanceof HttpError) throw e;
      attempt = { status: 'error', message: e instanceof Error ? e.message : String(e), ms: performance.now() - start };
    } finally {
      this.thinking = undefined;
    }
    if (this.closed) throw new HttpError(410, 'this game is closed');
    const label = seat.view.label;
    const ply = this.moves.length;
    if (attempt.status === 'ok' && this.game.isLegal(s, attempt.move)) {
      const note = attempt.note !== undefined ? { note: attempt.note } : {};
      this.play(attempt.move, label, { ms: Math.round(attempt.ms), ...(attempt.value !== undefined ? { value: attempt.value } : {}), ...note });
      return this.view();
    }
    // The anytime rule (cs540): a timed-out decision plays the last legal move the agent reported.
    const reported = attempt.reported;
    if (attempt.status === 'timeout' && anytimeByDefault(this.profile.name) && reported !== undefined && this.game.isLegal(s, reported.move)) {
      this.play(reported.move, label, { ms: Math.round(attempt.ms), ...(reported.value !== undefined ? { value: reported.value } : {}) });
      return this.view();
    }
    const at = `at move ${ply + 1}`;
    this.forfeit =
      attempt.status === 'ok'
        ? {
            seat: seat.view.seat,
            reason: 'illegal-move',
            message: `${at}: played ${attempt.move}, not a legal move; legal: ${this.game.legalMoves(s).map((m) => this.game.moveName(s, m)).join(' ')}`,
          }
        : { seat: seat.view.seat, reason: attempt.status === 'error' ? 'crash' : attempt.status, message: `${at}: ${attempt.message}` };
    return this.view();
  }

  /** Takes back the last human move, and every agent move after it. */
  undo(): GameView {
    this.busy();
    this.lastUsed = Date.now();
    const k = this.lastHumanMove();
    if (k < 0) throw new HttpError(409, 'no move of yours to take back');
    this.moves.length = k;
    this.states.length = k + 1;
    this.forfeit = undefined;
    return this.view();
  }

  /** The reference search's move for the player to move, and its value. */
  async hint(): Promise<Hint> {
    this.busy();
    this.lastUsed = Date.now();
    if (this.over) throw new HttpError(409, 'the game is over: no move to hint');
    if (agentTable()['alphabeta']?.withheld === true) throw new HttpError(400, 'hints come from the reference alpha-beta, which this student kit holds back');
    let run: HintResult;
    try {
      run = await runSearchItem<HintResult>({ kind: 'hint', spec: HINT_AGENT, ...positionItem(this.profile.name, this.game, this.state) }, HINT_CAP_MS);
    } catch (e) {
      if (e instanceof PoolThreadCapped) throw cappedRefusal('the hint', HINT_CAP_MS);
      throw e;
    }
    const move = run.move;
    return { move, name: this.game.moveName(this.state, move), value: run.value, agent: HINT_AGENT, nodes: run.nodes, ms: Math.round(run.ms * 10) / 10 };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.seats.map((s) => s.player?.close().catch(() => {})));
  }
}
