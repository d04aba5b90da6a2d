/**
 * What a human typed at `mancala play`'s prompt: a pit of theirs (its name, "B3", or the name's
 * number, "3", as the board shows it), a command, or a mistake with a message that says what
 * would have been valid.
 */
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';

export type PitInput =
  | { kind: 'move'; move: number }
  | { kind: 'quit' }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string };

export const SIDE_NAMES = ['bottom', 'top'] as const;

/** p's pits by sowing index, in the order the board shows them (left to right). */
export function pitsLeftToRight(game: MancalaGame, p: Player): number[] {
  return Array.from({ length: game.n }, (_, pos) => (p === 0 ? pos : game.n - 1 - pos));
}

/** "B0..B5" (or "T0..T5", "A2..A7"): p's pit names from the lowest number to the highest. */
export function pitRange(game: MancalaGame, p: Player): string {
  const names = pitsLeftToRight(game, p).map((i) => game.pitName(p, i));
  const byNumber = names.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return byNumber.length === 1 ? byNumber[0]! : `${byNumber[0]}..${byNumber[byNumber.length - 1]}`;
}

/** The legal moves' names as the board shows them, left to right. */
export function legalNames(game: MancalaGame, s: MancalaState): string[] {
  const p = game.toMove(s);
  return pitsLeftToRight(game, p)
    .filter((i) => game.pit(s, p, i) > 0)
    .map((i) => game.pitName(p, i));
}

export function readPitInput(game: MancalaGame, s: MancalaState, line: string): PitInput {
  const text = line.trim();
  const p = game.toMove(s);
  const legal = `legal now: ${legalNames(game, s).join(' ')}`;
  const yours = `your pits are ${pitRange(game, p)} (or just the number)`;
  if (/^(q|quit|exit)$/i.test(text)) return { kind: 'quit' };
  if (/^(h|help|\?)$/i.test(text)) return { kind: 'help' };
  if (text === '') return { kind: 'invalid', message: `type a pit: ${legal}; "help" explains, "quit" stops` };
  const move = game.parseMove(s, text);
  if (move !== undefined) {
    const name = game.pitName(p, move);
    if (game.pit(s, p, move) === 0) return { kind: 'invalid', message: `${name} is empty: ${legal}` };
    return { kind: 'move', move };
  }
  const upper = text.toUpperCase();
  const opponent = (1 - p) as Player;
  if (pitsLeftToRight(game, opponent).some((i) => game.pitName(opponent, i) === upper)) {
    return { kind: 'invalid', message: `${upper} is ${SIDE_NAMES[opponent]}'s pit: ${yours}; ${legal}` };
  }
  if (/^-?\d+$/.test(text)) return { kind: 'invalid', message: `there is no pit ${text} on your side: ${yours}; ${legal}` };
  if (/^[a-z]+\d+$/i.test(text)) return { kind: 'invalid', message: `unknown pit ${upper}: ${yours}; ${legal}` };
  return { kind: 'invalid', message: `"${text}" is not a pit name or a number: ${yours}; ${legal}` };
}
