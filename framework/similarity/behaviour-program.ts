/**
 * A csci561 file-in/file-out program's answers to the behaviour positions (the first `asked` of
 * them: a run a position is costly, behaviour.ts DEFAULT_PROGRAM_POSITIONS), asked exactly as
 * `csci561-grade` asks a case (packs/csci561/program.ts): the folder read as the course ran it,
 * built once in the sandbox, then one sandboxed run per position on an input.txt (Alpha-Beta, the
 * run's depth), its next_state.txt read back. The kind allows no other way: the program reads one
 * input a run.
 *
 * The move is the one whose turn leads to the next state the program wrote (a free turn's chain
 * included, named by its first move, so it reads like an agent's answer); the value is the root's
 * on the traverse log's last line; the node count is the log's lines, the header left out.
 */
import { writeCsci561InputBoard } from '../games/mancala/board-io/csci561.ts';
import { boardToState } from '../games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { writeCsci561NextState } from '../games/mancala/board-io/csci561.ts';
import { programRunLines } from '../packs/csci561/course-run-lines.ts';
import { missingRuntime } from '../packs/csci561/not-graded.ts';
import { prepareProgram, readProgramSubmission, runProgram } from '../packs/csci561/program.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import type { BehaviourPosition } from './behaviour-positions.ts';
import type { BehaviourAnswer } from './behaviour-types.ts';

export interface ProgramAsk {
  game: MancalaGame;
  positions: readonly BehaviourPosition[];
  /** how many of the positions, from the first, it is asked (the rest are null answers) */
  asked: number;
  depth: number;
  ms: number;
  memoryMb: number;
  sandbox: SandboxMode;
  /** called once a position is answered (progress) */
  onAnswer?: () => void;
}

/** Consecutive failures, before any answer, after which a program is taken not to run at all. */
export const GIVE_UP_AFTER = 3;

/** The program's answers, or the one line why it could not be run at all. */
export async function askProgram(dir: string, o: ProgramAsk): Promise<{ answers: BehaviourAnswer[]; failure?: string }> {
  const submission = readProgramSubmission(dir, { lines: programRunLines(undefined) });
  const missing = await missingRuntime(submission);
  if (missing !== undefined) return { answers: [], failure: missing };
  const prepared = await prepareProgram(submission, o.sandbox);
  if ('error' in prepared) return { answers: [], failure: firstLine(prepared.error) };
  try {
    const answers: BehaviourAnswer[] = [];
    let failures = 0;
    for (const p of o.positions.slice(0, o.asked)) {
      const input = writeCsci561InputBoard(p.board, 3, o.depth);
      const run = await runProgram(submission, input, { ms: o.ms, memoryMb: o.memoryMb }, { sandbox: o.sandbox, files: prepared.files });
      const answer = run.status === 'ok' && run.nextState !== undefined ? readAnswer(o.game, p, run.nextState, run.traverseLog) : { move: null };
      answers.push(answer);
      o.onAnswer?.();
      if (answer.move !== null) failures = -Infinity;
      else if (++failures >= GIVE_UP_AFTER) {
        const why = run.status === 'ok' ? 'its next_state.txt is no turn of the position' : firstLine(run.message);
        return { answers: [], failure: `no answer on the first ${GIVE_UP_AFTER} positions: ${why}` };
      }
    }
    return { answers: [...answers, ...o.positions.slice(o.asked).map(() => ({ move: null }))] };
  } finally {
    await prepared.files.dispose();
  }
}

const firstLine = (text: string): string => text.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'failed';

/** What the program's files say it chose (see the module's comment); move null when no turn leads there. */
function readAnswer(game: MancalaGame, p: BehaviourPosition, nextState: string, traverseLog: string | undefined): BehaviourAnswer {
  const start = boardToState(game, p.board);
  const move = turnTo(game, start, normalised(nextState));
  if (move === undefined) return { move: null };
  const answer: BehaviourAnswer = { move: game.moveName(start, move) };
  const lines = traverseLog?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? [];
  if (lines.length > 1) {
    const value = Number(lines[lines.length - 1]!.split(',')[2]);
    if (Number.isFinite(value)) answer.value = value;
    answer.nodes = lines.length - 1;
  }
  return answer;
}

const normalised = (text: string): string =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '')
    .join('\n');

/** The first move (positional order) whose whole turn, free turns included, ends in `target`. */
function turnTo(game: MancalaGame, s: MancalaState, target: string): number | undefined {
  const mover = game.toMove(s);
  const ends = (state: MancalaState, budget: { left: number }): boolean => {
    if (game.isOver(state) || game.toMove(state) !== mover) return normalised(writeCsci561NextState(game, state)) === target;
    for (const m of game.legalMoves(state)) {
      if (--budget.left < 0) return false;
      if (ends(game.play(state, m), budget)) return true;
    }
    return false;
  };
  // A long chain of free turns is rare; a bound keeps a pathological board from costing much.
  return game.legalMoves(s).find((m) => ends(game.play(s, m), { left: 5000 }));
}
