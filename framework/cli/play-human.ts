/**
 * A human's seat in `mancala play`: a player that asks at a prompt for a pit, reading lines from
 * any stream (stdin, or a scripted stream in tests). `quit` or the end of the input stops the game
 * through the game's abort signal, which the game loop checks after every decision.
 */
import { createInterface } from 'node:readline';
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import type { MatchPlayer, MoveAttempt } from '../matches/types.ts';
import type { CliIo } from './options.ts';
import { howToType, legalNames, pitRange, pitWord, readPitInput, SIDE_NAMES } from './pit-input.ts';

/** Lines from a stream, one at a time; null at its end. */
export interface LineReader {
  next(): Promise<string | null>;
  close(): void;
}

export function lineReader(input: NodeJS.ReadableStream): LineReader {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  // Made at once so that no line is lost: the iterator buffers lines that arrive while an agent thinks.
  const lines = rl[Symbol.asyncIterator]();
  return {
    async next() {
      const r = await lines.next();
      return r.done ? null : r.value;
    },
    close: () => rl.close(),
  };
}

/** Why a human stopped the game (the abort signal's reason). */
export type HumanStop = 'quit' | 'end-of-input';

export interface HumanSeatOptions {
  reader: LineReader;
  io: CliIo;
  /** repeat what was typed after the prompt (the input is not a terminal, which would show it) */
  echo: boolean;
  /** the name the prompt calls the side by: "bottom (you)" */
  name: () => string;
  /** aborted with the HumanStop when the human quits or the input ends */
  stop: AbortController;
}

/** A human at the prompt, as a player: it answers with the pit typed, or stops the game. */
export function humanSeat(o: HumanSeatOptions): MatchPlayer {
  return {
    label: 'human',
    async chooseMove(game, state): Promise<MoveAttempt> {
      const start = performance.now();
      const chosen = await askHuman(o, game, state);
      if (typeof chosen === 'number') return { status: 'ok', move: chosen, ms: performance.now() - start };
      o.stop.abort(chosen);
      // Never judged: the game loop sees the abort first.
      return { status: 'error', message: chosen, ms: 0 };
    },
    close: async () => {},
  };
}

/** Asks until the human types a legal pit, `quit`, or the input ends. */
async function askHuman(o: HumanSeatOptions, game: MancalaGame, state: MancalaState): Promise<number | HumanStop> {
  const { io } = o;
  for (;;) {
    io.out(`${o.name()} to move [${legalNames(game, state).join(' ')}]: `);
    const line = await o.reader.next();
    if (line === null) {
      io.out('\n');
      return 'end-of-input';
    }
    if (o.echo) io.out(line + '\n');
    const r = readPitInput(game, state, line);
    switch (r.kind) {
      case 'move':
        return r.move;
      case 'quit':
        return 'quit';
      case 'help':
        io.out(helpText(game, game.toMove(state)));
        break;
      case 'invalid':
        io.out(`  ${r.message}\n`);
        break;
    }
  }
}

function helpText(game: MancalaGame, p: Player): string {
  const r = game.rules;
  const pit = pitWord(game);
  const lines = [
    `You play ${SIDE_NAMES[p]}: the ${pit}s ${pitRange(game, p)}${p === 0 ? ' (the bottom row; your store is on the right)' : ' (the top row; your store is on the left)'}.`,
    `Type ${howToType(game)}; only a ${pit} with stones in it can be played. "quit" stops the game.`,
    `Sowing: the stones of the ${pit} go one by one into the next ${pit}s counter-clockwise, your store included, the opponent's store skipped.`,
    r.freeTurn ? 'A last stone in your own store gives you another move.' : 'There are no free turns in these rules.',
    r.capture === 'none'
      ? 'There are no captures in these rules.'
      : `A last stone in an empty ${pit} of yours captures the opposite ${pit}${r.capture === 'last-and-opposite' ? ' and the last stone' : ' (the last stone stays)'}${r.captureEmptyOpposite ? `, even when the opposite ${pit} is empty` : ` when the opposite ${pit} has stones`}.`,
    r.gameEnd === 'either-row-empty'
      ? 'The game ends when either row is empty; the stones left go to their row\'s owner.'
      : 'The game ends when the player to move has no stones; the stones left go to their row\'s owner.',
  ];
  return lines.map((l) => `  ${l}\n`).join('');
}
