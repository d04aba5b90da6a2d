/**
 * Where a match's games start, so that games between deterministic agents differ:
 *
 * - `random:K` — K seeded random moves from the start position (fewer if the game ends). Each
 *   opening is played twice, once with each side moving first, so neither side is favoured by
 *   the luck of the draw. Openings are drawn from one seeded source and kept distinct (by the
 *   position they reach) while the draws find new ones; `random:0` starts every game from the start.
 * - `FILE` — start positions: JSON lines, one board a line, or a JSON array of boards, each board
 *   in the JSON board form (`{"top":[…],"bottom":[…],"stores":{"top":0,"bottom":0},"toMove":"bottom"}`,
 *   docs/engine.md, board files). Position p is played by games 2p and 2p+1; with more games than twice
 *   the positions, the list starts over.
 *
 * Every mistake is one line naming the file and the line (or the array element) and the field.
 */
import { readFileSync } from 'node:fs';
import { located, UserError } from '../errors.ts';
import { boardToState, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { parseJsonBoard } from '../games/mancala/board-io/json.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { createRandom, randomInt, type RandomSource } from '../random.ts';
import { OpeningDrawer } from './opening-draws.ts';

export type OpeningsSpec =
  /** `plies` seeded random moves from the start position */
  | { kind: 'random'; plies: number }
  /** start positions read from a file */
  | { kind: 'file'; file: string };

/** The most random plies an opening may have: beyond that the agents hardly play. */
export const MAX_OPENING_PLIES = 100;
/** Draws per opening before a repeat is accepted (a small board may have few distinct openings). */
const DRAWS_FOR_A_NEW_OPENING = 64;

/** Reads `--openings`: `random:K` (K a whole number 0..100) or the path of a start-positions file. */
export function parseOpeningsOption(text: string): OpeningsSpec {
  const t = text.trim();
  const random = /^random(?::(.*))?$/.exec(t);
  if (random !== null) {
    const k = random[1]?.trim() ?? '';
    if (!/^\d+$/.test(k) || Number(k) > MAX_OPENING_PLIES) {
      throw new UserError(`--openings ${text}: expected random:K with K a whole number from 0 to ${MAX_OPENING_PLIES} (random moves before the agents play), or a file of start positions`);
    }
    return { kind: 'random', plies: Number(k) };
  }
  if (t === '') throw new UserError('--openings: expected random:K or a file of start positions, got nothing');
  return { kind: 'file', file: t };
}

/** How `--openings` is shown in reports: `random:2`, or the file. */
export function describeOpenings(spec: OpeningsSpec): string {
  return spec.kind === 'random' ? `random:${spec.plies}` : spec.file;
}

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/**
 * The boards of a start-positions file: a JSON array of boards, or JSON lines (one board a line;
 * blank lines and lines starting with `#` or `//` are skipped). At least one board.
 */
export function readStartPositions(file: string): BoardSpec[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`${file}: cannot read the openings file: ${READ_FAILURES[code] ?? (e as Error).message}`);
  }
  return parseStartPositions(text, file);
}

/** `readStartPositions` on text already read; `file` names it in errors. */
export function parseStartPositions(text: string, file: string): BoardSpec[] {
  const source = text.replace(/^\uFEFF/, '');
  const boards = source.trimStart().startsWith('[') ? parseArray(source, file) : parseLines(source, file);
  if (boards.length === 0) throw new UserError(`${file}: expected at least one start position (a JSON board a line, or a JSON array of boards), but the file has none`);
  return boards;
}

function parseArray(text: string, file: string): BoardSpec[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const position = /at position (\d+)/.exec((e as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
    throw located(file, line, 'expected a JSON array of boards (the file starts with "["), but it is not valid JSON');
  }
  if (!Array.isArray(data)) throw new UserError(`${file}: expected a JSON array of boards`);
  // Each element goes through the board reader, which names the field; the prefix names the element.
  return data.map((element, k) => parseJsonBoard(JSON.stringify(element), `${file}: board [${k}]`));
}

function parseLines(text: string, file: string): BoardSpec[] {
  const boards: BoardSpec[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, k) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('//')) return;
    if (!line.startsWith('{')) {
      throw located(file, k + 1, `expected a JSON board {"top": […], "bottom": […], "stores": {…}} on each line, got ${JSON.stringify(line.slice(0, 40))}`);
    }
    // parseJsonBoard reports "NAME: field …" and "NAME:1: expected valid JSON"; naming the line keeps both clickable.
    try {
      boards.push(parseJsonBoard(line, `${file}:${k + 1}`));
    } catch (e) {
      if (e instanceof UserError) throw new UserError(e.message.replace(`${file}:${k + 1}:1:`, `${file}:${k + 1}:`));
      throw e;
    }
  });
  return boards;
}

/**
 * The start positions of a file as states of `game`: each must fit the board size, be meant for
 * these rules (a board naming another profile is refused) and not be finished already.
 */
export function startStates(game: MancalaGame, profile: string, boards: readonly BoardSpec[], file: string): MancalaState[] {
  return boards.map((board, k) => {
    const where = `${file}: start position ${k + 1}`;
    if (board.profile !== undefined && board.profile !== profile) {
      throw new UserError(`${where}: the board is for the ${board.profile} rules, but the match plays ${profile} (--rules)`);
    }
    const state = boardToState(game, board, undefined, where);
    if (game.isOver(state)) throw new UserError(`${where}: the game is already over in this position (a row is empty)`);
    return state;
  });
}

/** `plies` uniformly random legal moves from `start`, drawn from `random` (fewer if the game ends). */
export function randomOpening(game: MancalaGame, start: MancalaState, plies: number, random: RandomSource): number[] {
  const moves: number[] = [];
  let s = start;
  for (let k = 0; k < plies && !game.isOver(s); k++) {
    const legal = game.legalMoves(s);
    const m = legal[randomInt(random, legal.length)]!;
    moves.push(m);
    s = game.play(s, m);
  }
  return moves;
}

/**
 * `count` random openings of `plies` moves from `start`, all drawn from one source seeded by
 * `seed`. Each is drawn again (up to DRAWS_FOR_A_NEW_OPENING times) while it reaches a position an
 * earlier one reached, so a match sees as many different openings as the board allows. The draws
 * are randomOpening's, made fast by OpeningDrawer (opening-draws.ts), which remembers drawn prefixes.
 */
export function distinctRandomOpenings(game: MancalaGame, start: MancalaState, plies: number, seed: number, count: number): number[][] {
  const drawer = new OpeningDrawer(game, start, plies, createRandom(seed));
  const seen = new Set<string>();
  const openings: number[][] = [];
  for (let p = 0; p < count; p++) {
    let opening = drawer.draw();
    for (let draw = 1; draw < DRAWS_FOR_A_NEW_OPENING && seen.has(opening.reached); draw++) opening = drawer.draw();
    seen.add(opening.reached);
    openings.push([...opening.moves]); // a copy: the drawer hands out the same opening each time it is drawn
  }
  return openings;
}

/** Where one game starts: a position and the random moves played from it before the agents take over. */
export interface GameStart {
  start: MancalaState;
  opening: number[];
  /** 1-based position in the openings file, when the start came from one */
  position?: number;
}

/**
 * The start of every game of a match: game g plays opening ⌊g/2⌋ (colours alternate, so each
 * opening is played once from each side). `seed` draws the random openings; `boards` are the
 * file's start positions (readStartPositions) when `spec` names a file.
 */
export function planStarts(
  game: MancalaGame,
  spec: OpeningsSpec,
  o: { profile: string; seed: number; games: number; boards?: readonly BoardSpec[] },
): GameStart[] {
  const pairs = Math.ceil(o.games / 2);
  if (spec.kind === 'random') {
    const start = game.initial();
    const openings = distinctRandomOpenings(game, start, spec.plies, o.seed, pairs);
    return Array.from({ length: o.games }, (_, g) => ({ start, opening: openings[Math.floor(g / 2)]! }));
  }
  const states = startStates(game, o.profile, o.boards ?? readStartPositions(spec.file), spec.file);
  return Array.from({ length: o.games }, (_, g) => {
    const p = Math.floor(g / 2) % states.length;
    return { start: states[p]!, opening: [], position: p + 1 };
  });
}
