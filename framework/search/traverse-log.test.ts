import { existsSync, readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { SearchCounters, type Game, type Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import { collectTrace, type TraceEvent } from '../contracts/search-trace.ts';
import { minimax } from '../../agents/reference/minimax.ts';
import { alphaBeta } from '../../agents/reference/alphabeta.ts';
import { solveCsci561 } from '../../agents/reference/csci561-task.ts';
import { compareTraverseLog, formatLogValue, renderTraverseLog } from './traverse-log.ts';
import { CSCI561_OFFICIAL_DIR } from '../../testcases/shared-data.ts';

/**
 * A tiny explicit game tree, so the real searches can be traced on a tree whose log is worked out
 * by hand. Each node says who moves there; `h` is the heuristic at a cut-off, `score` the outcome
 * of a finished game (both from player 0's side).
 */
interface TreeNode {
  toMove: Player;
  moves?: [name: string, child: string][];
  h?: number;
  score?: number;
}
interface TreeState {
  id: string;
}

class TreeGame implements Game<TreeState> {
  readonly kind = 'tree';
  readonly name = 'tree';
  readonly maxMoves = 4;
  readonly counters = new SearchCounters();
  constructor(private readonly nodes: Record<string, TreeNode>) {}
  private node(s: TreeState): TreeNode {
    return this.nodes[s.id]!;
  }
  initial(): TreeState {
    return { id: 'root' };
  }
  newState(): TreeState {
    return { id: '' };
  }
  newStates(count: number): TreeState[] {
    return Array.from({ length: count }, () => this.newState());
  }
  copyInto(from: TreeState, to: TreeState): void {
    to.id = from.id;
  }
  clone(s: TreeState): TreeState {
    return { id: s.id };
  }
  toMove(s: TreeState): Player {
    return this.node(s).toMove;
  }
  isOver(s: TreeState): boolean {
    return this.node(s).score !== undefined;
  }
  legalMoves(s: TreeState): number[] {
    return this.isOver(s) ? [] : (this.node(s).moves ?? []).map((_, i) => i);
  }
  legalMovesInto(s: TreeState, out: Int32Array): number {
    const moves = this.legalMoves(s);
    out.set(moves);
    return moves.length;
  }
  isLegal(s: TreeState, move: number): boolean {
    return this.legalMoves(s).includes(move);
  }
  moveAt(s: TreeState, k: number): number {
    return k < (this.node(s).moves?.length ?? 0) ? k : -1;
  }
  play(s: TreeState, move: number): TreeState {
    const out = this.newState();
    this.playInto(s, move, out);
    return out;
  }
  playInto(s: TreeState, move: number, out: TreeState): void {
    this.counters.plays++;
    out.id = this.node(s).moves![move]![1];
  }
  score(s: TreeState, p: Player): number {
    const v = this.node(s).score!;
    return p === 0 ? v : -v;
  }
  key(s: TreeState): string {
    return s.id;
  }
  moveName(s: TreeState, move: number): string {
    return this.node(s).moves![move]![0];
  }
  parseMove(s: TreeState, text: string): number | undefined {
    const i = (this.node(s).moves ?? []).findIndex(([name]) => name === text);
    return i < 0 ? undefined : i;
  }
  render(s: TreeState): string {
    return s.id;
  }
  fork(): TreeGame {
    return new TreeGame(this.nodes);
  }
  heuristic(): Heuristic<TreeState> {
    return { name: 'tree-h', evaluate: (s, p) => (p === 0 ? 1 : -1) * this.nodes[s.id]!.h! };
  }
}

/*
 * Player 0 (max) at the root, cut-off depth 2 in turns:
 *   root --x--> X (player 0 again: a free turn) --p--> XP (player 1) --r--> h 3
 *                                                                    --s--> game over, score 5 (player 1 to move)
 *                                               --q--> XQ (player 1) --t--> h 1
 *        --y--> Y (player 1) --u--> h 2
 *                            --w--> h 7
 * Minimax: XP = 3, XQ = 1, X = 3, Y = 2, root = 3 (move x).
 */
const tree: Record<string, TreeNode> = {
  root: { toMove: 0, moves: [['x', 'X'], ['y', 'Y']] },
  X: { toMove: 0, moves: [['p', 'XP'], ['q', 'XQ']] },
  XP: { toMove: 1, moves: [['r', 'XPr'], ['s', 'XPs']] },
  XPr: { toMove: 0, h: 3 },
  XPs: { toMove: 1, score: 5 },
  XQ: { toMove: 1, moves: [['t', 'XQt']] },
  XQt: { toMove: 0, h: 1 },
  Y: { toMove: 1, moves: [['u', 'Yu'], ['w', 'Yw']] },
  Yu: { toMove: 0, h: 2 },
  Yw: { toMove: 0, h: 7 },
};

function traceOf(search: typeof minimax, game: TreeGame): TraceEvent[] {
  const { events, sink } = collectTrace();
  const result = search({ game, heuristic: game.heuristic(), depth: 2, unit: 'turn', terminal: 'score', trace: sink }, game.initial());
  expect([result.move, result.value]).toEqual([0, 3]);
  return events;
}

describe('renderTraverseLog on a hand-worked tree', () => {
  const game = new TreeGame(tree);

  it('minimax: free-turn children share their parent\'s depth; a game-over leaf has its optional first line', () => {
    // Worked by hand from the rules in ../shared/conformance/csci561-official/README.md.
    expect(renderTraverseLog(traceOf(minimax, game), { alphaBeta: false })).toEqual([
      'Node,Depth,Value',
      'root,0,-Infinity',
      'x,1,-Infinity', // the free-turn node: player 0 moves next
      'p,1,Infinity', // player 0's second move of the turn keeps depth 1
      'r,2,3',
      'p,1,3',
      's,2,Infinity', // game over, player 1 to move: the OPTIONAL first visit
      's,2,5',
      'p,1,3',
      'x,1,3',
      'q,1,Infinity',
      't,2,1',
      'q,1,1',
      'x,1,3',
      'root,0,3',
      'y,1,Infinity',
      'u,2,2',
      'y,1,2',
      'w,2,7',
      'y,1,2',
      'root,0,3',
    ]);
  });

  it('alpha-beta: window columns, and a pruned node prints one line with alpha/beta as they were', () => {
    expect(renderTraverseLog(traceOf(alphaBeta, game), { alphaBeta: true })).toEqual([
      'Node,Depth,Value,Alpha,Beta',
      'root,0,-Infinity,-Infinity,Infinity',
      'x,1,-Infinity,-Infinity,Infinity',
      'p,1,Infinity,-Infinity,Infinity',
      'r,2,3,-Infinity,Infinity',
      'p,1,3,-Infinity,3',
      's,2,Infinity,-Infinity,3',
      's,2,5,-Infinity,3',
      'p,1,3,-Infinity,3',
      'x,1,3,3,Infinity',
      'q,1,Infinity,3,Infinity',
      't,2,1,3,Infinity',
      'q,1,1,3,Infinity', // 1 <= alpha 3: prune, beta not lowered
      'x,1,3,3,Infinity',
      'root,0,3,3,Infinity',
      'y,1,Infinity,3,Infinity',
      'u,2,2,3,Infinity',
      'y,1,2,3,Infinity', // 2 <= 3: prune before w
      'root,0,3,3,Infinity',
    ]);
  });

  it("optionalLines 'omit' leaves out only the game-over node's first line", () => {
    const events = traceOf(minimax, game);
    const printed = renderTraverseLog(events, { alphaBeta: false });
    const omitted = renderTraverseLog(events, { alphaBeta: false, optionalLines: 'omit' });
    expect(printed.filter((l) => l !== 's,2,Infinity')).toEqual(omitted);
    expect(omitted).toHaveLength(printed.length - 1);
  });

  it('prints a prune that no update announced, and rejects traces it cannot render', () => {
    const root = { name: 'root', level: 0, maximizing: true };
    const leaf: TraceEvent = { type: 'leaf', name: 'a', level: 1, maximizing: false, value: 4, reason: 'depth', alpha: -1e9, beta: 2 };
    expect(
      renderTraverseLog(
        [
          { type: 'enter', ...root, value: -1e9, alpha: -1e9, beta: 2 },
          leaf,
          { type: 'prune', ...root, value: 4, alpha: -1e9, beta: 2, skipped: 1 },
        ],
        { alphaBeta: true },
      ),
    ).toEqual(['Node,Depth,Value,Alpha,Beta', 'root,0,-Infinity,-Infinity,2', 'a,1,4,-Infinity,2', 'root,0,4,-Infinity,2']);
    expect(() => renderTraverseLog([{ type: 'cached', name: 'root', level: 0, value: 1 }], { alphaBeta: false })).toThrow(/without caching/);
    expect(() => renderTraverseLog([{ type: 'update', ...root, value: 1 }], { alphaBeta: false })).toThrow(/malformed trace/);
    expect(() => renderTraverseLog([{ type: 'enter', ...root, value: -Infinity }], { alphaBeta: true })).toThrow(/needs alpha and beta/);
  });

  it('prints values as integers and anything from ±1e9 on as ±Infinity', () => {
    expect([1e9, -1e9, Infinity, -Infinity, 0, -7, 42].map(formatLogValue)).toEqual(['Infinity', '-Infinity', 'Infinity', '-Infinity', '0', '-7', '42']);
    expect(() => formatLogValue(0.5)).toThrow(RangeError);
  });
});

describe('compareTraverseLog (the official grading rule, strict about extra lines)', () => {
  const official = ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,+/-Infinity\tOPTIONAL', 'B6,1,2', 'root,0,2'];
  it('accepts an OPTIONAL line printed with any infinity, or left out, and ignores surrounding white space', () => {
    expect(compareTraverseLog(official, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,-Infinity', 'B6,1,2', 'root,0,2'])).toEqual({ ok: true });
    expect(compareTraverseLog(official, ['Node,Depth,Value', ' root,0,-Infinity ', 'B6,1,2', 'root,0,2', ''])).toEqual({ ok: true });
  });
  it('rejects a wrong line, a missing line, an OPTIONAL line with other fields, and extra lines', () => {
    expect(compareTraverseLog(official, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,3', 'root,0,2'])).toMatchObject({ ok: false, line: 4, expected: 'B6,1,2', actual: 'B6,1,3' });
    expect(compareTraverseLog(official, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,2'])).toMatchObject({ ok: false, line: 5, actual: undefined });
    expect(compareTraverseLog(official, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,2,Infinity', 'B6,1,2', 'root,0,2'])).toMatchObject({ ok: false, line: 4, actual: 'B6,2,Infinity' });
    expect(compareTraverseLog(official, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,2', 'root,0,2', 'root,0,2'])).toMatchObject({ ok: false, line: 6, reason: 'extra line in our log' });
  });
});

// The course's published graded cases (see its README); read in place, never copied here.
const officialDir = CSCI561_OFFICIAL_DIR + '/';
const haveOfficial = existsSync(officialDir);

describe(`seed 000's 30 official graded cases (${officialDir})`, () => {
  if (!haveOfficial) it.skip(`official cases not found at ${officialDir}: skipped`, () => {});

  const read = (name: string) => readFileSync(`${officialDir}/${name}`, 'utf8');
  const cases = Array.from({ length: 30 }, (_, i) => i + 1);
  it.runIf(haveOfficial).each(cases)('case %i: next_state and traverse_log match, OPTIONAL lines printed or omitted', (k) => {
    const input = read(`testInput_${k}.txt`);
    const task = Number(input.trim().split(/\r?\n/)[0]);
    const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    const expectedState = lines(read(`next_state_${k}.txt`));
    for (const optionalLines of ['print', 'omit'] as const) {
      const out = solveCsci561(input, `testInput_${k}.txt`, { optionalLines });
      expect(lines(out.nextState)).toEqual(expectedState);
      if (task === 1) {
        expect(out.traverseLog).toBeUndefined();
        continue;
      }
      expect(out.traverseLog).toBeDefined();
      expect(compareTraverseLog(read(`traverse_log_${k}.txt`).split('\n'), out.traverseLog!)).toEqual({ ok: true });
    }
  });
});
