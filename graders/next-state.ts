/**
 * `nextState`: the board after the agent's move equals the board after the reference's. The move
 * is played on the case's position with the engine; when it ends the game, the board may be
 * compared as the move left it or after the end-of-game sweep (a course's next-state file shows
 * the swept board), and either passes.
 */
import type { Player } from '../framework/contracts/game.ts';
import { UserError } from '../framework/errors.ts';
import { boardToState, stateToBoard, type BoardSpec } from '../framework/games/mancala/board-io/index.ts';
import { MancalaGame } from '../framework/games/mancala/engine.ts';
import type { Grader } from '../framework/grading/types.ts';
import { casePosition, describeLegalMoves, describeMove } from './case-context.ts';
import { observedMove } from './move.ts';
import { failed, missingExpected, passed } from './message.ts';

interface CellDifference {
  name: string;
  expected: number;
  got: number;
}

/** The pits and stores where two boards of `game` differ, named as the course names them (and, where its names repeat on both sides, whose: "top cup 4"). */
export function boardDifferences(game: MancalaGame, expected: BoardSpec, got: BoardSpec): CellDifference[] {
  const n = game.n;
  const out: CellDifference[] = [];
  for (let pos = 0; pos < n; pos++) {
    if (expected.top[pos] !== got.top[pos]) out.push({ name: game.pitLabel(1, n - 1 - pos), expected: expected.top[pos]!, got: got.top[pos]! });
  }
  for (let pos = 0; pos < n; pos++) {
    if (expected.bottom[pos] !== got.bottom[pos]) out.push({ name: game.pitLabel(0, pos), expected: expected.bottom[pos]!, got: got.bottom[pos]! });
  }
  if (expected.topStore !== got.topStore) out.push({ name: "top's store", expected: expected.topStore, got: got.topStore });
  if (expected.bottomStore !== got.bottomStore) out.push({ name: "bottom's store", expected: expected.bottomStore, got: got.bottomStore });
  return out;
}

function sameBoard(game: MancalaGame, expected: BoardSpec, got: BoardSpec, compareMover: boolean): boolean {
  if (boardDifferences(game, expected, got).length > 0) return false;
  return !compareMover || expected.toMove === undefined || expected.toMove === got.toMove;
}

const side = (p: Player | undefined): string => (p === undefined ? '?' : p === 0 ? 'bottom' : 'top');

const nextState: Grader = {
  check: 'nextState',
  grade(input) {
    const expected = input.expected.nextState;
    if (expected === undefined) return missingExpected(input, 'nextState');
    const { game, state } = casePosition(input.manifest, input.case);
    if (!(game instanceof MancalaGame)) throw new UserError(`${input.manifest.file}: case ${input.case.id}: the nextState check needs a Mancala game`);
    const { move } = observedMove(input);
    if (move === undefined) return failed('nextState', input, 'next state: got no move, so there is no next state (chooseMove returned none)');
    if (!game.isLegal(state, move)) {
      return failed('nextState', input, [
        `next state: ${describeMove(game, state, move)} is not a legal move in this position, so there is no next state`,
        `legal moves: ${describeLegalMoves(game, state)}`,
      ]);
    }
    const after = game.play(state, move);
    const over = game.isOver(after);
    const got = stateToBoard(game, after);
    const gotSwept = stateToBoard(game, game.swept(after));
    if (sameBoard(game, expected, got, !over) || (over && sameBoard(game, expected, gotSwept, false))) return passed('nextState');

    // Compare with the swept board when the expected one looks swept (both rows empty).
    const expectSwept = over && [...expected.top, ...expected.bottom].every((x) => x === 0);
    const shown = expectSwept ? gotSwept : got;
    const shownState = expectSwept ? game.swept(after) : after;
    const diffs = boardDifferences(game, expected, shown);
    const what = diffs.map((d) => `${d.name} expected ${d.expected}, got ${d.got}`);
    if (diffs.length === 0 && !over) what.push(`side to move expected ${side(expected.toMove)}, got ${side(shown.toMove)}`);
    const expectedState = boardToState(game, expected, expected.toMove ?? game.toMove(after), 'the expected next state');
    const reference = input.expected.move === undefined ? '' : ` (the reference played ${describeMove(game, state, input.expected.move)})`;
    return failed('nextState', input, [
      `next state after your move ${describeMove(game, state, move)}${reference}${expectSwept ? ', after the end-of-game sweep' : ''}: ${what.join('; ')}`,
      'expected board:',
      ...game.render(expectedState).split('\n').map((l) => `  ${l}`),
      'your board:',
      ...game.render(shownState).split('\n').map((l) => `  ${l}`),
    ]);
  },
};

export default nextState;
