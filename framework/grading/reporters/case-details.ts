/**
 * What a reader of a failed case wants at a glance, read back from its message (the graders write
 * every message in one shape: graders/message.ts): each "X: expected A, got B" line, the likely
 * bug the graders named, the position (to draw it), the moves expected and played (to mark them
 * on the board), and the reproduce lines with a command to copy.
 *
 * A message may also hold what the student's program printed (a crash's stderr and stdout), so a
 * line that looks like the graders' may be the student's: the graders' context comes last, so the
 * LAST position and reproduce lines are taken, only lines not indented count, and a command to
 * copy is offered only when it is one this tool prints, checked character by character
 * (`npx mancala search` with plain options, a board of digits): a student cannot put a command of
 * their own behind the copy button. Nothing here is trusted as markup: html.ts escapes it all.
 */
import type { BoardSpec } from '../../games/mancala/board-io/board.ts';
import { parseCsci561Input } from '../../games/mancala/board-io/csci561.ts';
import { LIMITS } from '../../games/mancala/rules.ts';
import type { CaseReport } from '../report.ts';
import { DIAGNOSIS_PREFIX } from '../types.ts';
import { plainText } from './text.ts';

/** One "what: expected A, got B" line of a message. */
export interface Comparison {
  what: string;
  expected: string;
  got: string;
}

/** A position a message names, to draw. */
export type CasePosition =
  | {
      kind: 'mancala';
      /** the game as messages name it: "kalah(6,4)", or the profile alone when the size is the board's ("csci561") */
      game: string;
      /** the rule profile (its pit names): kalah, csci561, csc384, cpsc4610, … */
      profile: string;
      /** rows left to right as the bottom player sees the board; toMove 0 bottom, 1 top */
      board: Required<Pick<BoardSpec, 'top' | 'bottom' | 'topStore' | 'bottomStore' | 'toMove'>>;
    }
  | {
      kind: 'tictactoe';
      /** the nine cells, row by row: X, O or _ */
      cells: string;
      /** "X to move", "O to move" or "game over" */
      status: string;
    };

export interface Reproduce {
  /** the message's lines, as written ("reproduce: …" and the indented lines under it) */
  lines: string[];
  /** a shell command that does it, when the lines are one this tool prints (else undefined: copy the lines) */
  command?: string;
}

export interface CaseDetails {
  comparisons: Comparison[];
  /** what each "likely bug: …" line says, without the prefix */
  likelyBugs: string[];
  position?: CasePosition;
  /** the mover's sowing indices of the move the reference chose and the one the submission played */
  move?: { expected?: number; got?: number };
  reproduce?: Reproduce;
}

function lines(message: string): string[] {
  return plainText(message).split('\n');
}

const COMPARISON = /^(\S.{0,160}?): expected (.+?), got (.*)$/;

/** Each "what: expected A, got B" line (the first ", got " splits; a line of the student's output may match too, and is shown as it says). */
export function comparisons(message: string): Comparison[] {
  const out: Comparison[] = [];
  for (const line of lines(message)) {
    const m = COMPARISON.exec(line.trimEnd());
    if (m !== null && !m[1]!.startsWith(DIAGNOSIS_PREFIX.trim())) out.push({ what: m[1]!, expected: m[2]!, got: m[3]! });
  }
  return out;
}

/** What each "likely bug: …" line says (message or info), once each, in order. */
export function likelyBugs(text: string): string[] {
  const found = lines(text)
    .map((l) => l.trim())
    .filter((l) => l.startsWith(DIAGNOSIS_PREFIX))
    .map((l) => l.slice(DIAGNOSIS_PREFIX.length));
  return [...new Set(found)];
}

const MANCALA_POSITION = /^position: ([a-z][\w-]*)\((\d+),(\d+)\): top \[([\d ]*)\] store (\d+), bottom \[([\d ]*)\] store (\d+), (bottom|top) to move$/;
const TICTACTOE_POSITION = /^position: tictactoe: ([XO_]{3})\/([XO_]{3})\/([XO_]{3}), (X to move|O to move|game over)$/;

function row(text: string): number[] {
  return text.trim() === '' ? [] : text.trim().split(/ +/).map(Number);
}

/** A board small enough to be real (the engine's limits), both rows alike. */
function plausible(board: { top: number[]; bottom: number[]; topStore: number; bottomStore: number }): boolean {
  const n = board.top.length;
  if (n < LIMITS.minPits || n > LIMITS.maxPits || board.bottom.length !== n) return false;
  return [...board.top, ...board.bottom, board.topStore, board.bottomStore].every((x) => Number.isSafeInteger(x) && x >= 0 && x <= 40_000);
}

/** The position of the last "position: …" line (not indented), else of the last "input.txt (…):" block (csci561-grade). */
export function casePosition(message: string): CasePosition | undefined {
  const all = lines(message);
  for (let k = all.length - 1; k >= 0; k--) {
    const line = all[k]!.trimEnd();
    const m = MANCALA_POSITION.exec(line);
    if (m !== null) {
      const board = { top: row(m[4]!), bottom: row(m[6]!), topStore: Number(m[5]), bottomStore: Number(m[7]), toMove: m[8] === 'top' ? (1 as const) : (0 as const) };
      if (!plausible(board)) return undefined;
      return { kind: 'mancala', game: `${m[1]}(${m[2]},${m[3]})`, profile: m[1]!, board };
    }
    const t = TICTACTOE_POSITION.exec(line);
    if (t !== null) return { kind: 'tictactoe', cells: `${t[1]}${t[2]}${t[3]}`, status: t[4]! };
    if (/^input\.txt \(.*\):$/.test(line)) {
      const block: string[] = [];
      for (let j = k + 1; j < all.length && all[j]!.startsWith('  '); j++) block.push(all[j]!.slice(2));
      try {
        const b = parseCsci561Input(`${block.join('\n')}\n`, 'input.txt');
        const board = { top: b.top, bottom: b.bottom, topStore: b.topStore, bottomStore: b.bottomStore, toMove: b.toMove ?? 0 };
        if (!plausible(board)) return undefined;
        return { kind: 'mancala', game: 'csci561', profile: 'csci561', board };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The indices of "move: expected B5 (index 5), got B3 (index 3)" (Tic-Tac-Toe: "cell 4"; either side may be missing: "got no move"). */
export function caseMove(message: string): { expected?: number; got?: number } | undefined {
  const line = lines(message).find((l) => l.startsWith('move: expected '));
  if (line === undefined) return undefined;
  const m = /^move: expected (.*?), got (.*)$/.exec(line);
  if (m === null) return undefined;
  const index = (text: string) => {
    const i = /^\S+(?: \S+)? \(index (\d+)\)$/.exec(text.trim()) ?? /^cell (\d)$/.exec(text.trim());
    return i === null ? undefined : Number(i[1]);
  };
  const expected = index(m[1]!);
  const got = index(m[2]!);
  if (expected === undefined && got === undefined) return undefined;
  return { ...(expected !== undefined ? { expected } : {}), ...(got !== undefined ? { got } : {}) };
}

/** A command `mancala search` prints in a reproduce line: its words only, nothing a shell would act on. */
const SEARCH_COMMAND = /^npx mancala search(?: --[a-z][a-z-]*(?: [\w.,:=-]+)?)+$/;
/** A board in the JSON board form as the graders write it: numbers, the keys, bottom or top. */
const BOARD_JSON = /^\{"top":\[[\d,]*\],"bottom":\[[\d,]*\],"stores":\{"top":\d+,"bottom":\d+\},"toMove":"(?:bottom|top)"\}$/;

/** The last "reproduce: …" line and the indented lines under it, with the command to copy when it is ours. */
export function caseReproduce(message: string): Reproduce | undefined {
  const all = lines(message).map((l) => l.trimEnd());
  let at = -1;
  for (let k = all.length - 1; k >= 0 && at < 0; k--) if (all[k]!.startsWith('reproduce: ')) at = k;
  if (at < 0) return undefined;
  const block = [all[at]!];
  for (let k = at + 1; k < all.length && /^\s+\S/.test(all[k]!); k++) block.push(all[k]!);
  const first = block[0]!.slice('reproduce: '.length);
  let command: string | undefined;
  if (SEARCH_COMMAND.test(first)) command = first;
  const save = /^save the board as board\.json: (.*)$/.exec(first);
  const then = /^\s+then run: (.*)$/.exec(block[1] ?? '');
  if (save !== null && then !== null && BOARD_JSON.test(save[1]!) && SEARCH_COMMAND.test(then[1]!)) command = `echo '${save[1]}' > board.json && ${then[1]}`;
  return command === undefined ? { lines: block } : { lines: block, command };
}

/** Everything above, for a case that did not pass (or one with information). */
export function caseDetails(c: Pick<CaseReport, 'message'>): CaseDetails {
  const position = casePosition(c.message);
  const move = caseMove(c.message);
  const reproduce = caseReproduce(c.message);
  return {
    comparisons: comparisons(c.message),
    likelyBugs: likelyBugs(c.message),
    ...(position !== undefined ? { position } : {}),
    ...(move !== undefined ? { move } : {}),
    ...(reproduce !== undefined ? { reproduce } : {}),
  };
}
