/**
 * The solver's search: fail-soft alpha-beta over exact values, run with null windows by MTD(f)
 * (fast-solve.ts). What it returns for a position is its future margin for the player to move
 * (what the mover will still gain over the opponent; stores aside, see board-key.ts), and with a
 * window (alpha, beta) the usual fail-soft promise: a result ≤ alpha is an upper bound of the
 * true value, ≥ beta a lower bound, anything between exact.
 *
 * At each position, in this order: the endgame database if few enough stones are left; the
 * trivial bound (the mover cannot gain or lose more than the stones on the board); the table's
 * bounds; every move made once into this ply's states, finished games and positions in the
 * endgame database valued at once (a probe is cheaper than a node, and may cut at once); enhanced
 * transposition cut-off far above the database (a child whose table entry already refutes the
 * window ends the search here); then the children in order: the table's move, free turns, then by stones gained, then
 * from the pit nearest the store.
 *
 * The hot path: no allocation per node (each ply's states, moves and scores live in arrays that
 * grow with the depth reached), the engine's compiled playInto for every rule.
 */
import type { MancalaGame, MancalaState } from '../../framework/games/mancala/engine.ts';
import type { BoardKey } from './board-key.ts';
import type { EndgameDb } from './endgame-db.ts';
import type { SolveTable } from './solve-table.ts';

export interface SolverSearchParams {
  game: MancalaGame;
  /** stones on the board and in the stores of the positions searched (it never changes) */
  total: number;
  table: SolveTable;
  key: BoardKey;
  db: EndgameDb | undefined;
  /** performance.now() time to give up at */
  deadline: number;
  /** called every 2^20 nodes or so */
  onTick?: () => void;
  /** ETC is tried with more stones than this on the board (default: ETC_MIN_STONES, and ETC_ABOVE_DB over the database) */
  etcMinStones?: number;
}

/** Enhanced transposition cut-off is tried only with more stones than this on the board (near the leaves it costs more than it saves). */
const ETC_MIN_STONES = 20;
/**
 * ...and only with more than this many stones above the endgame database's. Its probes of every
 * child are table misses, which pay only where the subtrees they may spare are large: on Kalah(6,4)
 * with a 20-stone database, ETC from 21 stones up cost 10.6 s of CPU (empty capture) and 29.0 s
 * (kalah), from 37 up 7.6 s and 17.0 s, for 7% more nodes; smaller boards were unchanged.
 */
const ETC_ABOVE_DB = 16;

export class SolverSearch {
  nodes = 0;
  aborted = false;
  private readonly game: MancalaGame;
  private readonly n: number;
  private readonly w: number;
  private readonly total: number;
  private readonly table: SolveTable;
  private readonly key: BoardKey;
  private readonly db: EndgameDb | undefined;
  private readonly dbStones: number;
  /** ETC is tried with more stones than this on the board */
  private readonly etcMin: number;
  private readonly deadline: number;
  private readonly onTick: (() => void) | undefined;
  /** per ply: n child states, their moves, gains, free-turn flags and order */
  private states: MancalaState[] = [];
  private moves = new Int32Array(0);
  private gains = new Int32Array(0);
  private same = new Uint8Array(0);
  private scores = new Int32Array(0);
  private order = new Int32Array(0);
  /** per ply: the position's key, kept while its children overwrite the key's scratch */
  private keys = new Float64Array(0);
  private plies = 0;

  constructor(p: SolverSearchParams) {
    this.game = p.game;
    this.n = p.game.n;
    this.w = p.game.w;
    this.total = p.total;
    this.table = p.table;
    this.key = p.key;
    this.db = p.db;
    this.dbStones = p.db === undefined ? -1 : p.db.maxStones;
    this.etcMin = p.etcMinStones ?? Math.max(ETC_MIN_STONES, this.dbStones + ETC_ABOVE_DB);
    this.deadline = p.deadline;
    this.onTick = p.onTick;
    this.grow(64);
  }

  private grow(plies: number): void {
    const n = this.n;
    const more = this.game.newStates((plies - this.plies) * n);
    this.states = this.states.concat(more);
    const extend = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (size: number) => T, size: number): T => {
      const fresh = make(size);
      fresh.set(old as never);
      return fresh;
    };
    this.moves = extend(this.moves, (k) => new Int32Array(k), plies * n);
    this.gains = extend(this.gains, (k) => new Int32Array(k), plies * n);
    this.same = extend(this.same, (k) => new Uint8Array(k), plies * n);
    this.scores = extend(this.scores, (k) => new Int32Array(k), plies * n);
    this.order = extend(this.order, (k) => new Int32Array(k), plies * n);
    this.keys = extend(this.keys, (k) => new Float64Array(k), plies * this.key.words);
    this.plies = plies;
  }

  private tick(): void {
    if (performance.now() > this.deadline) this.aborted = true;
    else if (this.onTick !== undefined && (this.nodes & 0xfffff) === 0) this.onTick();
  }

  /** The future margin of `s` (a game not over) for its player to move, fail-soft in (alpha, beta). */
  search(s: MancalaState, ply: number, alpha: number, beta: number): number {
    const nodes = ++this.nodes;
    if ((nodes & 0x3fff) === 0) this.tick();
    if (this.aborted) return 0;
    const n = this.n;
    const w = this.w;
    const c = s.cells;
    const mover = c[w]!;
    const board = this.total - c[n]! - c[2 * n + 1]!;
    if (board <= this.dbStones) return this.db!.probe(c, mover, board);
    if (board <= alpha) return board;
    if (-board >= beta) return -board;

    // The table: bounds that may settle the position or narrow the window, and the best move found.
    const key = this.key;
    const table = this.table;
    const hash = key.pack(c, mover);
    const slot = table.find(key.scratch, hash);
    let ttMove = -1;
    if (slot >= 0) {
      const lo = table.lower(slot);
      const hi = table.upper(slot);
      if (lo >= beta) return lo;
      if (hi <= alpha) return hi;
      if (lo === hi) return lo;
      if (lo > alpha) alpha = lo;
      if (hi < beta) beta = hi;
      ttMove = table.move(slot);
    }
    if (ply + 2 >= this.plies) this.grow(this.plies * 2);
    const words = key.words;
    for (let k = 0; k < words; k++) this.keys[ply * words + k] = key.scratch[k]!;

    // Every move once: finished games are valued here, the rest wait in this ply's states.
    const storeDiff = mover === 0 ? c[n]! - c[2 * n + 1]! : c[2 * n + 1]! - c[n]!;
    const base = ply * n;
    const own = mover === 0 ? 0 : n + 1;
    let best = -Infinity;
    let bestMove = -1;
    let count = 0;
    for (let move = 0; move < n; move++) {
      if (c[own + move] === 0) continue;
      const child = this.states[base + count]!;
      this.game.playInto(s, move, child);
      const cc = child.cells;
      const d = cc[n]! - cc[2 * n + 1]!;
      const gain = (mover === 0 ? d : -d) - storeDiff;
      if (cc[w + 1] === 1) {
        // Finished: each row goes to its owner.
        let rows = 0;
        for (let k = 0; k < n; k++) rows += cc[k]! - cc[n + 1 + k]!;
        const v = gain + (mover === 0 ? rows : -rows);
        if (v > best) {
          best = v;
          bestMove = move;
          if (v >= beta) break;
        }
        continue;
      }
      const same = cc[w] === mover ? 1 : 0;
      const left = this.total - cc[n]! - cc[2 * n + 1]!;
      if (left <= this.dbStones) {
        // In the endgame database: valued now, like a finished game, so a child the database
        // answers cuts before any search (and is not a node: a probe, not a search).
        const f = this.db!.probe(cc, cc[w]!, left);
        const v = same === 1 ? gain + f : gain - f;
        if (v > best) {
          best = v;
          bestMove = move;
          if (v >= beta) break;
        }
        continue;
      }
      const i = base + count;
      this.moves[i] = move;
      this.gains[i] = gain;
      this.same[i] = same;
      this.scores[i] = move === ttMove ? 1 << 20 : same === 1 ? (1 << 16) + move : (gain << 8) + move;
      count++;
    }
    const alpha0 = alpha;
    if (best >= beta) return this.remember(ply, hash, alpha0, beta, best, bestMove, nodes);
    if (best > alpha) alpha = best;

    // Enhanced transposition cut-off: a child the table already values well enough settles this position.
    if (board > this.etcMin && count > 1) {
      for (let j = 0; j < count; j++) {
        const i = base + j;
        const cc = this.states[i]!.cells;
        const cs = table.find(key.scratch, key.pack(cc, cc[w]!));
        if (cs < 0) continue;
        const g = this.gains[i]!;
        const bound = this.same[i] === 1 ? g + table.lower(cs) : g - table.upper(cs);
        if (bound >= beta) return this.remember(ply, hash, alpha0, beta, bound, this.moves[i]!, nodes);
      }
    }

    // The children, best-looking first (insertion sort: at most n of them).
    const order = this.order;
    for (let j = 0; j < count; j++) {
      const sc = this.scores[base + j]!;
      let k = j;
      while (k > 0 && this.scores[base + order[base + k - 1]!]! < sc) {
        order[base + k] = order[base + k - 1]!;
        k--;
      }
      order[base + k] = j;
    }
    for (let j = 0; j < count; j++) {
      const i = base + order[base + j]!;
      const g = this.gains[i]!;
      const v =
        this.same[i] === 1
          ? g + this.search(this.states[i]!, ply + 1, alpha - g, beta - g)
          : g - this.search(this.states[i]!, ply + 1, g - beta, g - alpha);
      if (this.aborted) return 0;
      if (v > best) {
        best = v;
        bestMove = this.moves[i]!;
        if (v > alpha) {
          alpha = v;
          if (v >= beta) break;
        }
      }
    }
    return this.remember(ply, hash, alpha0, beta, best, bestMove, nodes);
  }

  /** Stores what the search of ply's position proved (a bound or the exact value) and returns `best`. */
  private remember(ply: number, hash: number, alpha: number, beta: number, best: number, move: number, nodesBefore: number): number {
    const key = this.key;
    const words = key.words;
    for (let k = 0; k < words; k++) key.scratch[k] = this.keys[ply * words + k]!;
    const lo = best > alpha ? best : -0x7fffffff;
    const hi = best < beta ? best : 0x7fffffff;
    const work = 32 - Math.clz32(this.nodes - nodesBefore + 1);
    this.table.store(key.scratch, hash, lo, hi, move, work);
    return best;
  }
}
