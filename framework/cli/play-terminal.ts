/**
 * `mancala play` in the terminal: an observer of the game loop (framework/matches/play-game.ts)
 * that draws the board before every move, says who played what (an agent's value, depth, positions
 * and time), announces free turns, captures and the end of the game, and reports how it ended.
 */
import type { Player } from '../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import type { GameObserver } from '../matches/play-game.ts';
import type { GameRecord, MoveAttempt, Side } from '../matches/types.ts';
import { moveEvents } from './move-events.ts';
import { grouped, type CliIo } from './options.ts';
import { howToType, legalNames, pitRange, pitWord, SIDE_NAMES, spokenMove } from './pit-input.ts';
import type { HumanStop } from './play-human.ts';
import { HUMAN, seatSearch, seatSettings, type ResolvedPlay } from './play-setup.ts';
import { studentPath, studentText } from '../student-text.ts';

/** How the game ended: played out, or stopped early by a human or by a forfeit. */
export type PlayEnding = 'finished' | 'forfeit' | 'quit' | 'end-of-input';

export interface PlayResult {
  ending: PlayEnding;
  /** the winner; null for a draw or a game stopped early */
  winner: Player | null;
  /** final stores (after the sweep) of bottom and top, or the stores as they stood when stopped */
  score: [number, number];
  /** every move played, as sowing indices of its mover */
  moves: number[];
}

export function msText(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${grouped(Math.round(ms))} ms`;
}

function stones(k: number): string {
  return `${k} stone${k === 1 ? '' : 's'}`;
}

function signed(v: number): string {
  return v > 0 ? `+${v}` : String(v);
}

function forfeitText(a: Exclude<MoveAttempt, { status: 'ok' }>, timeLimitMs: number): string {
  // The agent's own words (a submission's crash): terminal-safe, the game is on the terminal.
  const message = studentText(a.message);
  switch (a.status) {
    case 'timeout':
      return `it ran out of time (${msText(timeLimitMs)} a move): ${message}`;
    case 'memory':
      return `it ran out of memory: ${message}`;
    default:
      return `it crashed: ${message}`;
  }
}

/** Bottom is side A, top side B: `mancala play` seats side A at the bottom. */
const playerOf = (side: Side): Player => (side === 'A' ? 0 : 1);

export interface TerminalOptions {
  io: CliIo;
  plan: ResolvedPlay;
  /** the agent seats' labels as `mancala match` shows them, by player (undefined: a human) */
  agentLabels: [string | undefined, string | undefined];
  timePerMoveMs: number;
  seed: number;
  /** why the game was stopped, once a human stopped it */
  stopReason: () => HumanStop | undefined;
}

/** The terminal's view of one game: the intro, the observer to hand playGame, and the result once it ended. */
export function terminalView(o: TerminalOptions) {
  const { io, plan } = o;
  const game: MancalaGame = plan.game;
  const humans = o.agentLabels.filter((l) => l === undefined).length;
  const isHuman = (p: Player) => o.agentLabels[p] === undefined;
  /** "bottom (you)", "top (alphabeta:depth=6)", or plain "bottom" when two humans play */
  const who = (p: Player): string => {
    const label = o.agentLabels[p];
    if (label !== undefined) return `${SIDE_NAMES[p]} (${studentPath(label)})`;
    return humans === 1 ? `${SIDE_NAMES[p]} (you)` : SIDE_NAMES[p];
  };
  const storeOf = (p: Player): string => (isHuman(p) && humans === 1 ? 'your store' : `${SIDE_NAMES[p]}'s store`);
  let mover: Player = game.toMove(plan.start);
  let forfeitWhy = '';
  let result: PlayResult | undefined;

  const intro = () => {
    io.out(`Mancala: ${game.name}, ${plan.profile.summary}.\n`);
    const [bottomSeat, topSeat] = plan.seats;
    // A seat's label is a submission's path: a folder name a student chose.
    io.out(`bottom = ${studentPath(bottomSeat.label)}, top = ${studentPath(topSeat.label)}; ${game.toMove(plan.start) === 0 ? 'bottom' : 'top'} moves first.`);
    if (humans < 2) io.out(` Agents: ${msText(o.timePerMoveMs)} a move, seed ${o.seed}.`);
    io.out('\n');
    if (plan.handout) {
      for (const p of [0, 1] as const) {
        const seat = plan.seats[p];
        if (seat.spec !== HUMAN) io.out(`  ${SIDE_NAMES[p]}: ${seatSettings(seat, plan)}\n`);
      }
      // The handout's default is no depth limit, which on a full board no search finishes in time.
      if (plan.seats.some((seat) => seat.spec !== HUMAN && seatSearch(seat, plan).depth === null)) {
        io.out(
          `  note: without a depth limit a search must finish within ${msText(o.timePerMoveMs)} a move (--time-per-move): a reference agent then plays ` +
            'the best move it found so far, a submission forfeits; --limit N searches N moves deep.\n',
        );
      }
    }
    for (const p of [0, 1] as const) {
      if (isHuman(p)) io.out(`${SIDE_NAMES[p]} plays the ${pitWord(game)}s ${pitRange(game, p)}: type ${pitWord(game) === 'cup' ? howToType(game) : "a pit's name or its number"}; "help" explains, "quit" stops.\n`);
    }
  };

  const announce = (before: MancalaState, move: number, after: MancalaState) => {
    const p = game.toMove(before);
    const name = spokenMove(game, before, move);
    const e = moveEvents(game, before, move, after);
    if (e.capture) {
      const k = e.capture;
      const what =
        k.fromStones === 0
          ? `${k.from} was empty, so only the last stone`
          : k.lastStoneTaken
            ? `${k.fromStones} from ${k.from} and the last stone`
            : `from ${k.from}; the last stone stays in ${k.landed}`;
      io.out(`  ${name} ends in the empty ${k.landed} and captures ${stones(k.stones)} (${what})\n`);
    }
    if (e.freeTurn) io.out(`  ${name} ends in ${storeOf(p)}: ${isHuman(p) && humans === 1 ? 'move again' : `${who(p)} moves again`}\n`);
    if (e.gameOver) {
      const empty = ([0, 1] as const).filter((q) => game.rowSum(after, q) === 0);
      const left = ([0, 1] as const).filter((q) => game.rowSum(after, q) > 0);
      const why = empty.length === 2 ? 'both rows are empty' : `${SIDE_NAMES[empty[0] ?? game.toMove(after)]}'s row is empty`;
      const sweep = left.map((q) => `${SIDE_NAMES[q]}'s ${stones(game.rowSum(after, q))} go to ${SIDE_NAMES[q]}'s store`).join(', ');
      io.out(`  the game is over: ${why}${sweep ? `; ${sweep}` : ''}\n`);
    }
  };

  const ending = (record: GameRecord, state: MancalaState): PlayResult => {
    const moves = record.moves;
    const stopped = (why: string): PlayResult['score'] => {
      io.out(`\n${why}: the game stops after ${moves.length} move${moves.length === 1 ? '' : 's'} with the stores at bottom ${game.store(state, 0)}, top ${game.store(state, 1)}.\n`);
      io.out('no winner: the game was not finished\n');
      return [game.store(state, 0), game.store(state, 1)];
    };
    const reason = o.stopReason();
    if (record.stopped === true && reason !== undefined) {
      const score = stopped(reason === 'quit' ? `${who(mover)} quit` : 'the input ended');
      return { ending: reason, winner: null, score, moves };
    }
    if (record.forfeit !== null) {
      const loser = playerOf(record.forfeit.side);
      const winner = (1 - loser) as Player;
      io.out(`\n${who(loser)} forfeits: ${forfeitWhy}\n`);
      io.out(`winner: ${who(winner)}, by forfeit after ${moves.length} move${moves.length === 1 ? '' : 's'}\n`);
      return { ending: 'forfeit', winner, score: [game.store(state, 0), game.store(state, 1)], moves };
    }
    io.out('\n' + game.render(state) + '\n');
    const score: [number, number] = [game.finalStore(state, 0), game.finalStore(state, 1)];
    io.out(`final score: bottom ${score[0]}, top ${score[1]} after ${moves.length} moves\n`);
    const winner: Player | null = score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : null;
    io.out(winner === null ? `a draw: ${score[0]} to ${score[1]}\n` : `winner: ${who(winner)} by ${Math.abs(score[0] - score[1])}\n`);
    return { ending: 'finished', winner, score, moves };
  };

  const observer: GameObserver = {
    onTurn: (e) => {
      mover = playerOf(e.side);
      io.out('\n' + game.render(e.state) + '\n');
    },
    onMove: (e) => {
      if (e.by === 'opening') return;
      const p = playerOf(e.side);
      const a = e.attempt;
      if (isHuman(p) || a === undefined || a.status !== 'ok') {
        io.out(`> ${who(p)} plays ${spokenMove(game, e.before, e.move)}\n`);
      } else {
        const details = [
          ...(a.value !== undefined ? [`value ${signed(a.value)} for ${SIDE_NAMES[p]}`] : []),
          ...(a.depth !== undefined ? [`depth ${a.depth}`] : []),
          ...(a.nodes !== undefined ? [`${grouped(a.nodes)} position${a.nodes === 1 ? '' : 's'}`] : []),
          msText(a.ms),
        ];
        io.out(`> ${who(p)} plays ${spokenMove(game, e.before, e.move)}: ${details.join(', ')}\n`);
        if (a.note !== undefined) io.out(`  (${a.note})\n`);
      }
      announce(e.before, e.move, e.after);
    },
    onFailure: (e) => {
      const a = e.attempt;
      if (a.status !== 'ok') {
        forfeitWhy = forfeitText(a, o.timePerMoveMs);
        return;
      }
      const s = e.state;
      const name = Number.isInteger(a.move) && a.move >= 0 && a.move < game.n ? `${game.pitLabel(game.toMove(s), a.move)} (empty)` : `pit index ${a.move}`;
      forfeitWhy = `it played ${name}, an illegal move (legal: ${legalNames(game, s).join(' ')})`;
    },
    onEnd: (e) => {
      result = ending(e.record, e.state);
    },
  };
  return {
    intro,
    observer,
    who,
    /** how the game ended, once playGame has returned */
    result: (): PlayResult => result!,
  };
}
