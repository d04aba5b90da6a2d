/**
 * The trace check of a search that cannot emit events: a program over stdio may answer with
 * `visited` (PROTOCOL.md), the path of every position its search visited, in order, the root
 * excluded. The CPSC 4610 bridge derives it from the boards the student's alpha-beta made with
 * makeMove: the student's code emits nothing, and the list is what the project's board saw.
 *
 * The reference's trace (its blessed events) says the same thing and more. Every position the
 * reference visits has exactly one `enter`, `leaf` or `cached` event, in visiting order, and after
 * each child returns its parent emits one `update` (then a `prune` when it stops there), so the
 * events give each visited position's path (a stack of open nodes; an `update` for a node whose
 * pending child is done closes that child), whatever the depth unit. Move names become moves by
 * replaying them from the case's position in the game the reference searched (free turns ignored
 * where the reference ignored them).
 *
 * The check compares the two sequences of paths; pruning decides exactly which positions are
 * visited, so equal sequences mean the same search up to values the move and value checks see.
 * On the first difference it says what kind it is, in the seed's own words where it can:
 *  - pruned too late: your search goes on to a child of a node the reference stopped expanding;
 *    the message gives the reference's stop as the seed prints it ("alpha is 0, score is -1.
 *    Aborted on move 2 in minValue on XX2 OO5 678");
 *  - pruned too early: the reference still visits a child of a node your search left, its value
 *    and window at that point (no cut yet);
 *  - a position expanded that the reference scores as it stands (the game is over there, or the
 *    depth limit is reached: a depth off by one);
 *  - otherwise the order differs (moves tried in another order), or one list ends first.
 */
import type { Game } from '../framework/contracts/game.ts';
import { gameForSearch } from '../framework/contracts/search-conventions.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { TicTacToeGame, type TicTacToeState } from '../framework/games/tictactoe/game.ts';
import type { CheckResult, GradeInput } from '../framework/grading/types.ts';
import { casePosition, referencePlan } from './case-context.ts';
import { failed, num, passed } from './message.ts';

type Loose = Record<string, unknown>;

/** A position the reference visited, read from its trace. */
export interface ReferenceVisit {
  /** the move names from the root (the events' names) */
  names: string[];
  kind: 'enter' | 'leaf' | 'cached';
  /** a leaf's: why the reference did not expand it */
  reason?: 'depth' | 'game-over';
  /** the window it was searched with (its event's), when the trace carries one */
  alpha?: number;
  beta?: number;
  /** its parent: a max node (the root player to move) or a min node */
  parentMaximizing: boolean;
  /** its parent's value when this child was tried (its latest update, else its initial ±Infinity) */
  parentValue: number;
}

/** Where the reference stopped expanding a node: its prune event. */
export interface ReferencePrune {
  maximizing: boolean;
  value: number;
  alpha: number;
  beta: number;
  skipped: number;
  /** the name of the last child it tried */
  after: string;
}

export interface ReferenceTree {
  visits: ReferenceVisit[];
  /** by the node's path (pathKey of its names) */
  prunes: Map<string, ReferencePrune>;
}

const pathKey = (path: readonly (string | number)[]) => JSON.stringify(path);

/** A number of an event, JSON's null (an infinity that travelled) put back as `fallback`. */
function numberOf(v: unknown, fallback: number): number {
  return typeof v === 'number' ? v : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : fallback;
}

interface Open {
  names: string[];
  maximizing: boolean;
  value: number;
  /** a child was visited whose parent update has not come yet */
  pending: boolean;
  lastChild?: string;
}

/** The positions the reference visited, in order, with its prunes: from its events (see the header). */
export function referenceTree(events: readonly unknown[]): ReferenceTree | { problem: string } {
  const visits: ReferenceVisit[] = [];
  const prunes = new Map<string, ReferencePrune>();
  const stack: Open[] = [];
  let rootSeen = false;
  for (const [i, raw] of events.entries()) {
    const e = (raw ?? {}) as Loose;
    const type = e.type;
    const maximizing = e.maximizing === true;
    if (type === 'enter' || type === 'leaf' || type === 'cached') {
      if (!rootSeen) {
        rootSeen = true;
        if (type === 'enter') stack.push({ names: [], maximizing, value: numberOf(e.value, maximizing ? -Infinity : Infinity), pending: false });
        continue;
      }
      const parent = stack[stack.length - 1];
      if (parent === undefined) return { problem: `event ${i + 1} visits a position after the root's search ended` };
      parent.pending = true;
      parent.lastChild = String(e.name);
      const names = [...parent.names, String(e.name)];
      visits.push({
        names,
        kind: type,
        ...(type === 'leaf' ? { reason: e.reason === 'depth' ? ('depth' as const) : ('game-over' as const) } : {}),
        ...(e.alpha !== undefined ? { alpha: numberOf(e.alpha, -Infinity) } : {}),
        ...(e.beta !== undefined ? { beta: numberOf(e.beta, Infinity) } : {}),
        parentMaximizing: parent.maximizing,
        parentValue: parent.value,
      });
      if (type === 'enter') stack.push({ names, maximizing, value: numberOf(e.value, maximizing ? -Infinity : Infinity), pending: false });
    } else if (type === 'update') {
      let node = stack[stack.length - 1];
      // No child pending: the node on top is done, and this update is its parent's.
      if (node !== undefined && !node.pending) {
        stack.pop();
        node = stack[stack.length - 1];
      }
      if (node === undefined || !node.pending) return { problem: `event ${i + 1} (update) follows no child` };
      node.pending = false;
      node.value = numberOf(e.value, node.maximizing ? -Infinity : Infinity);
    } else if (type === 'prune') {
      const node = stack[stack.length - 1];
      if (node === undefined) return { problem: `event ${i + 1} (prune) has no node` };
      prunes.set(pathKey(node.names), {
        maximizing: node.maximizing,
        value: numberOf(e.value, node.value),
        alpha: numberOf(e.alpha, -Infinity),
        beta: numberOf(e.beta, Infinity),
        skipped: typeof e.skipped === 'number' ? e.skipped : 0,
        after: node.lastChild ?? '',
      });
    }
  }
  return { visits, prunes };
}

/** The case's game and position, in the game the reference searched. */
function searchedGame(input: GradeInput): { game: Game<any>; root: unknown } {
  const { game, state } = casePosition(input.manifest, input.case);
  const plan = referencePlan(input.manifest, input.case);
  return { game: plan?.freeTurns === 'ignore' ? gameForSearch(game, 'ignore') : game, root: state };
}

/** A visited position's moves, its state, and how a student reads it. */
interface Node {
  moves: number[];
  state: unknown;
}

/** The states along paths of moves, each made once. */
class Replay {
  private readonly nodes = new Map<string, Node>();

  constructor(
    readonly game: Game<any>,
    readonly root: unknown,
  ) {
    this.nodes.set(pathKey([]), { moves: [], state: root });
  }

  /** The node at `moves`, or why there is none (an illegal move on the way). */
  at(moves: readonly number[]): Node | { illegal: number; after: number[]; over: boolean } {
    const key = pathKey(moves);
    const known = this.nodes.get(key);
    if (known !== undefined) return known;
    const parent = this.at(moves.slice(0, -1));
    if ('illegal' in parent) return parent;
    const m = moves[moves.length - 1]!;
    if (!this.game.isLegal(parent.state, m)) return { illegal: m, after: parent.moves, over: this.game.isOver(parent.state) };
    const node = { moves: [...moves], state: this.game.play(parent.state, m) };
    this.nodes.set(key, node);
    return node;
  }

  /** The reference's names as moves, or the first name that names no legal move. */
  movesOf(names: readonly string[]): number[] | string {
    const moves: number[] = [];
    for (const name of names) {
      const node = this.at(moves) as Node;
      const m = this.game.legalMoves(node.state).find((x) => this.game.moveName(node.state, x) === name);
      if (m === undefined) return name;
      moves.push(m);
    }
    return moves;
  }

  /** A move as a student reads it: "X 2" (Tic-Tac-Toe), "bottom cup 3" / "B2" (Mancala). */
  moveText(state: unknown, m: number): string {
    const g = this.game;
    if (g instanceof TicTacToeGame) return `${g.toMove(state as TicTacToeState) === 0 ? 'X' : 'O'} ${m}`;
    if (g instanceof MancalaGame) return g.pitLabel(g.toMove(state as never), m);
    return g.moveName(state, m);
  }

  /** The board in the seed's printout: rows, each empty cell showing its number ("XX2 OO5 678"). */
  boardText(state: unknown): string | undefined {
    if (!(this.game instanceof TicTacToeGame)) return undefined;
    const cells = this.game.toBoardString(state as TicTacToeState).replaceAll('/', '');
    const shown = [...cells].map((c, i) => (c === '_' ? String(i) : c)).join('');
    return `${shown.slice(0, 3)} ${shown.slice(3, 6)} ${shown.slice(6)}`;
  }

  /** A visited position: its moves from the root, and the board after them where it is short (Tic-Tac-Toe). */
  describe(moves: readonly number[]): string {
    const node = this.at(moves);
    if ('illegal' in node) return `${this.movesText(node.after)}, then ${node.illegal} (${node.over ? 'after the end of the game' : 'not a legal move there'})`;
    const board = this.boardText(node.state);
    if (moves.length === 0) return board === undefined ? 'the root' : `the root (${board})`;
    return board === undefined ? this.movesText(moves) : `${this.movesText(moves)} (${board})`;
  }

  private movesText(moves: readonly number[]): string {
    if (moves.length === 0) return 'the root';
    const parts: string[] = [];
    for (let k = 0; k < moves.length; k++) {
      const parent = this.at(moves.slice(0, k)) as Node;
      parts.push(this.moveText(parent.state, moves[k]!));
    }
    return parts.join(', ');
  }
}

/** The node a min or max node is, as the seed's Player names its functions. */
const valueFunction = (maximizing: boolean) => (maximizing ? 'maxValue' : 'minValue');

/**
 * The positions a search visited, as `visited` lists them (paths of moves from `root`, in order),
 * read from its trace events; `game` is the game it searched.
 */
export function visitedOfTrace(game: Game<any>, root: unknown, events: readonly unknown[]): number[][] | { problem: string } {
  const tree = referenceTree(events);
  if ('problem' in tree) return tree;
  const replay = new Replay(game, root);
  const paths: number[][] = [];
  for (const v of tree.visits) {
    const moves = replay.movesOf(v.names);
    if (typeof moves === 'string') return { problem: `it names a move ${moves} that is not legal where it is played` };
    paths.push(moves);
  }
  return paths;
}

/**
 * Grades `visited` against the reference's events (the trace check's `events` format).
 */
export function gradeVisited(input: GradeInput, expected: readonly unknown[], visited: readonly (readonly number[])[]): CheckResult {
  const { game, root } = searchedGame(input);
  const tree = referenceTree(expected);
  const want = visitedOfTrace(game, root, expected);
  if ('problem' in tree || 'problem' in want) {
    const problem = 'problem' in want ? want.problem : (tree as { problem: string }).problem;
    return failed('trace', input, `trace: the reference's trace cannot be read as the positions it visited (${problem}): bless the suite again`);
  }
  const replay = new Replay(game, root);
  const wantKeys = want.map(pathKey);
  const gotKeys = visited.map(pathKey);
  let i = 0;
  while (i < wantKeys.length && i < gotKeys.length && wantKeys[i] === gotKeys[i]) i++;
  if (i === wantKeys.length && i === gotKeys.length) return passed('trace');

  const wantSet = new Set(wantKeys);
  const gotSet = new Set(gotKeys);
  const moveNames = (moves: readonly number[]) => replay.describe(moves);
  const lines: string[] = [];
  const got = visited[i];
  const exp = want[i];
  const nodeByMoves = new Map(want.map((moves, k) => [pathKey(moves), tree.visits[k]!]));
  const namesOf = (moves: readonly number[]) => (moves.length === 0 ? [] : nodeByMoves.get(pathKey(moves))?.names);

  // Pruned too late: yours went on below a node the reference stopped expanding.
  const gotParent = got?.slice(0, -1);
  const parentNames = gotParent === undefined ? undefined : namesOf(gotParent);
  const prune = parentNames === undefined ? undefined : tree.prunes.get(pathKey(parentNames));
  if (got !== undefined && !wantSet.has(pathKey(got)) && prune !== undefined && gotParent !== undefined) {
    const node = replay.at(gotParent);
    const afterMove = 'illegal' in node ? undefined : game.legalMoves(node.state).find((m) => game.moveName(node.state, m) === prune.after);
    const afterText = afterMove === undefined ? prune.after : moveNames([...gotParent, afterMove]);
    const bound = prune.maximizing ? `beta is ${num(prune.beta)}` : `alpha is ${num(prune.alpha)}`;
    const cut = prune.maximizing ? `value ${num(prune.value)} >= beta ${num(prune.beta)}` : `value ${num(prune.value)} <= alpha ${num(prune.alpha)}`;
    const board = 'illegal' in node ? undefined : replay.boardText(node.state);
    lines.push(
      `trace: pruned too late after ${afterText}: there the reference's ${valueFunction(prune.maximizing)} node ${moveNames(gotParent)} stops (${cut}), skipping its ${prune.skipped} other move${prune.skipped === 1 ? '' : 's'}; your search went on to ${moveNames(got)}`,
      `trace: the reference, as the seed prints it: ${bound}, score is ${num(prune.value)}. Aborted on move ${prune.after} in ${valueFunction(prune.maximizing)} on ${board ?? moveNames(gotParent)}`,
    );
  } else if (got !== undefined && gotParent !== undefined && gotParent.length > 0 && nodeByMoves.get(pathKey(gotParent))?.kind === 'leaf') {
    // Expanded a position the reference scores as it is: the game is over there, or the depth is reached.
    const leaf = nodeByMoves.get(pathKey(gotParent))!;
    const why = leaf.reason === 'depth' ? 'the depth limit is reached there (count a level for every move, the root at the full depth)' : 'the game is over there';
    lines.push(`trace: your search went on below ${moveNames(gotParent)}, which the reference scores without expanding it: ${why}; yours went on to ${moveNames(got)}`);
  } else if (exp !== undefined && !gotSet.has(pathKey(exp))) {
    // Pruned too early: the reference still visits a child of a node yours left.
    const v = tree.visits[i]!;
    const parent = exp.slice(0, -1);
    const window = v.alpha !== undefined && v.beta !== undefined ? ` with alpha ${num(v.alpha)} and beta ${num(v.beta)}` : '';
    const rule = v.parentMaximizing ? 'a max node prunes when its value >= beta' : 'a min node prunes when its value <= alpha';
    const next = got === undefined ? `your search visited nothing more (it visited ${visited.length} positions)` : `your search went on to ${moveNames(got)}`;
    lines.push(
      `trace: pruned too early, or a move left out: the reference's ${valueFunction(v.parentMaximizing)} node ${moveNames(parent)} goes on to ${moveNames(exp)} (its value so far ${num(v.parentValue)}${window}: no cut, as ${rule}); ${next}`,
    );
  } else if (got !== undefined && exp !== undefined) {
    lines.push(`trace: your search visits positions in another order: at position ${i + 1} the reference visits ${moveNames(exp)}, yours ${moveNames(got)} (moves are tried in order, first to last)`);
  } else if (got !== undefined) {
    lines.push(`trace: your search visits more positions: after the reference's last, ${i === 0 ? 'the root' : moveNames(want[i - 1]!)}, yours went on to ${moveNames(got)}`);
  } else {
    lines.push(`trace: your search stopped early: after ${i === 0 ? 'the root' : moveNames(visited[i - 1]!)} the reference goes on to ${moveNames(exp!)}`);
  }
  lines.push(`trace: the first ${i} position${i === 1 ? '' : 's'} visited are the same; the reference visits ${want.length} positions besides the root, yours ${visited.length}`);
  if (i > 0) lines.push(`trace: the last position both visited: ${moveNames(want[i - 1]!)}`);
  return failed('trace', input, lines);
}
