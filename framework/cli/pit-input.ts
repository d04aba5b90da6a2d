/**
 * What a human typed at `mancala play`'s prompt: a pit of theirs (its name, "B3", or the name's
 * number, "3", as the board shows it; under the cpsc4610 profile's cups, the cup's number, 1 to
 * 6), a command, or a mistake with a message that says what would have been valid.
 */
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';

export type PitInput =
  | { kind: 'move'; move: number }
  | { kind: 'quit' }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string };

export const SIDE_NAMES = ['bottom', 'top'] as const;

/** What the profile calls a pit: "cup" under seed 002's naming (its MancalaBoard's word), else "pit". */
export function pitWord(game: MancalaGame): 'pit' | 'cup' {
  return game.rules.pitNaming === 'cups' ? 'cup' : 'pit';
}

/** How a human names one of their pits at the prompt: "a pit's name or just its number", "a cup's number". */
export function howToType(game: MancalaGame): string {
  return pitWord(game) === 'cup' ? "a cup's number" : "a pit's name or just its number";
}

/** A move as play's narration names it: "B2", or under cups "cup 3" (the move's name is the number alone). */
export function spokenMove(game: MancalaGame, s: MancalaState, move: number): string {
  const name = game.moveName(s, move);
  return pitWord(game) === 'cup' ? `cup ${name}` : name;
}

/** p's pits by sowing index, in the order the board shows them (left to right). */
export function pitsLeftToRight(game: MancalaGame, p: Player): number[] {
  return Array.from({ length: game.n }, (_, pos) => (p === 0 ? pos : game.n - 1 - pos));
}

/** The number in a pit's name: 3 for "B3", "A3" and cup "3". */
function nameNumber(name: string): number {
  return Number(name.replace(/^\D+/, ''));
}

/** "B0..B5" (or "T0..T5", "A2..A7", cups "1..6"): p's pit names from the lowest number to the highest. */
export function pitRange(game: MancalaGame, p: Player): string {
  const names = pitsLeftToRight(game, p).map((i) => game.pitName(p, i));
  const byNumber = names.sort((a, b) => nameNumber(a) - nameNumber(b));
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
  const word = pitWord(game);
  const cups = word === 'cup';
  const legal = `legal now: ${legalNames(game, s).join(' ')}`;
  const yours = cups ? `your cups are ${pitRange(game, p)}` : `your pits are ${pitRange(game, p)} (or just the number)`;
  if (/^(q|quit|exit)$/i.test(text)) return { kind: 'quit' };
  if (/^(h|help|\?)$/i.test(text)) return { kind: 'help' };
  if (text === '') return { kind: 'invalid', message: `type ${cups ? "a cup's number" : 'a pit'}: ${legal}; "help" explains, "quit" stops` };
  const move = game.parseMove(s, text);
  if (move !== undefined) {
    const name = cups ? `cup ${game.pitName(p, move)}` : game.pitName(p, move);
    if (game.pit(s, p, move) === 0) return { kind: 'invalid', message: `${name} is empty: ${legal}` };
    return { kind: 'move', move };
  }
  const upper = text.toUpperCase().replace(/\s+/g, ' ');
  const opponent = (1 - p) as Player;
  const theirs = pitsLeftToRight(game, opponent).find((i) => game.pitName(opponent, i) === upper || game.pitLabel(opponent, i).toUpperCase() === upper);
  if (theirs !== undefined) {
    return { kind: 'invalid', message: `${game.pitLabel(opponent, theirs)} is ${SIDE_NAMES[opponent]}'s ${word}: ${yours}; ${legal}` };
  }
  const number = cups ? /^(?:cup\s*)?(-?\d+)$/i.exec(text)?.[1] : /^-?\d+$/.test(text) ? text : undefined;
  if (number !== undefined) return { kind: 'invalid', message: `there is no ${word} ${number} on your side: ${yours}; ${legal}` };
  if (/^[a-z]+\d+$/i.test(text)) return { kind: 'invalid', message: `unknown ${word} ${upper}: ${yours}; ${legal}` };
  return { kind: 'invalid', message: `"${text}" is not ${cups ? 'a cup number' : 'a pit name or a number'}: ${yours}; ${legal}` };
}
