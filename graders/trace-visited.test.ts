/**
 * The trace check on `visited` (a program over stdio: the positions its search visited, as the
 * CPSC 4610 bridge reads them off the boards the student's search made). The reference's visiting
 * order is read from its events; here it is checked against an independent record, the moves the
 * reference search itself made on the game (playInto), paths derived from positions as the bridge
 * derives them; then the messages of each kind of difference.
 */
import { describe, expect, it } from 'vitest';
import alphabetaAgent from '../agents/alphabeta.ts';
import basic from '../agents/heuristics/basic.ts';
import { alphaBeta } from '../agents/reference/alphabeta.ts';
import type { Game } from '../framework/contracts/game.ts';
import { gameForSearch, type DepthUnit } from '../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../framework/contracts/search-trace.ts';
import { boardToState } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import { PROFILES } from '../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../framework/games/tictactoe/game.ts';
import { gradeInput, observe, testCase, testManifest } from './testing.ts';
import trace from './trace.ts';
import { referenceTree, visitedOfTrace } from './trace-visited.ts';

/**
 * Runs the reference alpha-beta on `game` with a trace, recording every move it makes (playInto):
 * the paths of the positions it visited, derived from the positions as the bridge does (a move's
 * parent is the latest position made that equals the board it was made on), and its events.
 */
function searchRecorded<S>(game: Game<S>, root: S, depth: number | null, unit: DepthUnit, caching = false) {
  const made: [string, number, string][] = [];
  const g = game.fork();
  const playInto = g.playInto.bind(g);
  g.playInto = (s: S, m: number, out: S) => {
    const before = g.key(s);
    playInto(s, m, out);
    made.push([before, m, g.key(out)]);
  };
  const events: TraceEvent[] = [];
  const result = alphaBeta({ game: g, heuristic: basic, depth, unit, terminal: 'score', caching, trace: (e) => void events.push(e) }, root);
  const paths = new Map<string, number[]>([[g.key(root), []]]);
  const visited = made.map(([before, m, after]) => {
    const path = [...paths.get(before)!, m];
    paths.set(after, path);
    return path;
  });
  return { visited, events, nodes: result.nodes };
}

describe("the positions the reference visited, read from its events, are the moves it made", () => {
  it('Kalah with free turns in unit turn (a free-turn child keeps its level): every position, in order', () => {
    const game = new MancalaGame(PROFILES.kalah!.rules, 'kalah');
    const root = boardToState(game, { top: [3, 0, 5, 1, 0, 6], bottom: [2, 4, 0, 3, 1, 5], topStore: 7, bottomStore: 11 }, 1);
    for (const depth of [1, 2, 3, 4]) {
      const r = searchRecorded(game, root, depth, 'turn');
      expect(r.visited).toHaveLength(r.nodes - 1);
      expect(visitedOfTrace(game, root, r.events)).toEqual(r.visited);
    }
  });

  it('cpsc4610 with free turns ignored (the twin game the reference searched), and from the start', () => {
    const game = gameForSearch(new MancalaGame(PROFILES.cpsc4610!.rules, 'cpsc4610'), 'ignore');
    for (const depth of [2, 5]) {
      const r = searchRecorded(game, game.initial(), depth, 'move');
      expect(visitedOfTrace(game, game.initial(), r.events)).toEqual(r.visited);
    }
  });

  it("Tic-Tac-Toe to the end, also with a transposition table (a cached position is visited, not expanded)", () => {
    const game = new TicTacToeGame();
    for (const [board, caching] of [['XX_/_O_/___', false], ['X__/___/___', true]] as const) {
      const root = game.fromString(board);
      const r = searchRecorded(game, root, null, 'move', caching);
      if (caching) expect(r.events.some((e) => e.type === 'cached')).toBe(true);
      expect(visitedOfTrace(game, root, r.events)).toEqual(r.visited);
    }
  });

  it('a trace that is not one search is said to be unreadable', () => {
    expect(referenceTree([{ type: 'leaf', name: 'root', level: 0, maximizing: true, value: 0, reason: 'depth' }, { type: 'update', name: 'root', level: 0, maximizing: true, value: 0 }])).toEqual({
      problem: 'event 2 (update) follows no child',
    });
  });
});

describe("the trace check on a program's `visited`", () => {
  const ttt = testManifest({ kind: 'tictactoe', name: 'tictactoe' });
  /** Seed 002's pruning example: O to move on XX_/_O_/___. */
  async function example() {
    const c = testCase(ttt, { tictactoe: 'XX_/_O_/___', board: { top: [], bottom: [], topStore: 0, bottomStore: 0, toMove: 1 }, checks: { trace: { format: 'events' } } });
    const input = await gradeInput(ttt, c, await observe(ttt, c, alphabetaAgent));
    const game = new TicTacToeGame();
    const visited = visitedOfTrace(game, game.fromString('XX_/_O_/___'), input.expected.trace!) as number[][];
    const { trace: _events, ...rest } = input.observation;
    const grade = (v: number[][]) => trace.grade({ ...input, observation: { ...rest, visited: v } });
    return { visited, grade };
  }
  const key = (p: number[]) => p.join(' ');

  it("passes on the reference's own positions; fails, naming the first difference, on any other list", async () => {
    const { visited, grade } = await example();
    expect(visited.slice(0, 3)).toEqual([[2], [2, 3], [2, 3, 5]]);
    expect(await grade(visited)).toMatchObject({ passed: true });
    expect((await grade([])).message).toMatch(/^trace: pruned too early, or a move left out: the reference's maxValue node the root \(XX2 3O5 678\) goes on to O 2 \(XXO 3O5 678\)/);
  });

  it('pruned too late: the node the reference stopped, its cut, and the seed\'s own printout of it', async () => {
    const { visited, grade } = await example();
    const at = visited.findIndex((p) => key(p) === '3 2');
    const late = [...visited.slice(0, at + 1), [3, 5], [3, 5, 2], ...visited.slice(at + 1)];
    const r = await grade(late);
    expect(r.passed).toBe(false);
    expect(r.message.split('\n').slice(0, 4)).toEqual([
      "trace: pruned too late after O 3, X 2 (XXX OO5 678): there the reference's minValue node O 3 (XX2 OO5 678) stops (value -1 <= alpha 0), skipping its 4 other moves; your search went on to O 3, X 5 (XX2 OOX 678)",
      'trace: the reference, as the seed prints it: alpha is 0, score is -1. Aborted on move 2 in minValue on XX2 OO5 678',
      `trace: the first ${at + 1} positions visited are the same; the reference visits ${visited.length} positions besides the root, yours ${late.length}`,
      'trace: the last position both visited: O 3, X 2 (XXX OO5 678)',
    ]);
    expect(r.message).toContain('position: tictactoe: XX_/_O_/___, O to move');
  });

  it('pruned too early: where the reference goes on, with the value and window that allow no cut', async () => {
    const { visited, grade } = await example();
    // Stop O 2's min node after its first reply (X 3): the reference goes on to X 5.
    const first = visited.findIndex((p) => key(p) === '2 5');
    const early = visited.filter((p) => !(p[0] === 2 && p.length > 1 && key(p) >= '2 5'));
    const r = await grade(early);
    expect(r.message.split('\n')[0]).toMatch(/^trace: pruned too early, or a move left out: the reference's minValue node O 2 \(XXO 3O5 678\) goes on to O 2, X 5 \(XXO 3OX 678\) \(its value so far 1 with alpha -Infinity and beta 1: no cut, as a min node prunes when its value <= alpha\); your search went on to O 3/);
    expect(r.message).toContain(`trace: the first ${first} positions visited are the same`);
  });

  it('a search that goes on below a finished game (or past the depth limit) hears that the reference stops there', async () => {
    const { visited, grade } = await example();
    const at = visited.findIndex((p) => key(p) === '3 2');
    const r = await grade([...visited.slice(0, at + 1), [3, 2, 5], ...visited.slice(at + 1)]);
    expect(r.message.split('\n')[0]).toBe('trace: your search went on below O 3, X 2 (XXX OO5 678), which the reference scores without expanding it: the game is over there; yours went on to O 3, X 2, then 5 (after the end of the game)');
  });

  it('moves tried in another order, and a search that visits more than the reference', async () => {
    const { visited, grade } = await example();
    // The root's first two moves, their subtrees swapped.
    const of = (m: number) => visited.filter((p) => p[0] === m);
    const swapped = [...of(3), ...of(2), ...visited.filter((p) => p[0] !== 2 && p[0] !== 3)];
    expect((await grade(swapped)).message.split('\n')[0]).toBe('trace: your search visits positions in another order: at position 1 the reference visits O 2 (XXO 3O5 678), yours O 3 (XX2 OO5 678) (moves are tried in order, first to last)');
    const more = [...visited, [8]];
    expect((await grade(more)).message.split('\n')[0]).toMatch(/^trace: your search visits more positions: after the reference's last, .+, yours went on to O 8 \(XX2 3O5 67O\)$/);
  });
});
