/**
 * A folder of the course's own files is a csci561 suite: `testInput_K.txt` (the input.txt a
 * program is run on), `next_state_K.txt` and, for MiniMax and Alpha-Beta, `traverse_log_K.txt`
 * (the course's expected answers), as in ../shared/conformance/csci561-official. It is turned into
 * the Suite every grader and report already reads: one case per input (`case-K`), its task's
 * category (greedy, minimax, alpha-beta; one point a case, as the course graded), every case
 * visible, and each case's board size its own input's, so one folder may mix 4, 5, 6 and 7 pits.
 *
 * The expected files are the folder's, not our reference solution's: grading on the course's own
 * answers is the point. Their OPTIONAL lines (`B6,3,+/-Infinity<TAB>OPTIONAL`) are already what
 * compare.ts reads; an OPTIONAL set off by spaces instead of a tab is read the same.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { located, UserError } from '../../errors.ts';
import { boardToState, parseCsci561Input, parseCsci561NextState, type BoardSpec } from '../../games/mancala/board-io/index.ts';
import { OPTIONAL_MARK } from '../../search/traverse-log.ts';
import { gameSpec } from '../../suites/game.ts';
import { loadSuite, MANIFEST_FILES } from '../../suites/load.ts';
import { readText } from '../../suites/source.ts';
import type { Category, Limits, Manifest, RoleSpec, Suite, SuiteCase } from '../../suites/types.ts';
import type { ExpectedFiles } from './compare.ts';
import { csci561Game } from './game.ts';
import { TASK_NAMES } from './task.ts';

/** The case files' pattern: also how a loaded suite says it is a course-file suite (isCourseSuite). */
export const COURSE_INPUT_PATTERN = 'testInput_*.txt';
const FILE_NAME = /^(testInput|next_state|traverse_log)_(.+)\.txt$/;

/**
 * The course's files set no limits. The official cases search deeper than testcases/csci561-public
 * (2 s): the Python reference program takes up to 1 s of CPU time on them (cases 13 and 18), so
 * 5 s leaves a slower but correct program room; memory as csci561-public.
 */
export const COURSE_SUITE_LIMITS: Limits = { ms: 5000, memoryMb: 512 };

const courseFiles = (k: string) => ({ input: `testInput_${k}.txt`, nextState: `next_state_${k}.txt`, traverseLog: `traverse_log_${k}.txt` });

/** Each task's category and role, named as in testcases/csci561-public. */
const TASKS = {
  1: { category: 'greedy', role: 'greedy', description: "task 1: the next state after Greedy's move (the course checked only next_state.txt)" },
  2: { category: 'minimax', role: 'minimax', description: "task 2: MiniMax's next state and traverse log" },
  3: { category: 'alpha-beta', role: 'agent', description: "task 3: Alpha-Beta's next state and traverse log with alpha and beta" },
} as const;
type GradedTask = keyof typeof TASKS;

/** The roles of testcases/csci561-public: a program needs none, but `mancala grade` reads the same shape. */
const ROLES: Record<string, RoleSpec> = {
  greedy: { kind: 'agent', files: ['greedy.ts', 'greedy.js', 'minimax.ts', 'minimax.js', 'agent.ts', 'agent.js', 'alphabeta.ts', 'alphabeta.js'], reference: 'greedy' },
  minimax: { kind: 'agent', files: ['minimax.ts', 'minimax.js'], reference: 'minimax' },
  agent: { kind: 'agent', files: ['agent.ts', 'agent.js', 'alphabeta.ts', 'alphabeta.js'], reference: 'alphabeta' },
};

const LOG_HEADER: Record<2 | 3, string> = { 2: 'Node,Depth,Value', 3: 'Node,Depth,Value,Alpha,Beta' };

/** A folder without a suite manifest that holds testInput_K.txt files. */
export function isCourseFolder(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  if (MANIFEST_FILES.some((f) => existsSync(join(dir, f)))) return false;
  return readdirSync(dir).some((f) => FILE_NAME.exec(f)?.[1] === 'testInput');
}

/** A suite loaded by loadCourseSuite: its cases are the folder's testInput_K.txt files. */
export function isCourseSuite(suite: Suite): boolean {
  return suite.manifest.cases.length === 1 && suite.manifest.cases[0] === COURSE_INPUT_PATTERN;
}

const NOT_A_SUITE = `expected a manifest (${MANIFEST_FILES.join(', ')}) or the course's files (testInput_K.txt with next_state_K.txt and traverse_log_K.txt)`;

/** The suite in `dir`: a folder of the course's files, else a suite with a manifest (suites/load.ts). */
export async function loadProgramSuite(dir: string): Promise<Suite> {
  if (isCourseFolder(dir)) return loadCourseSuite(dir);
  const isFolder = existsSync(dir) && statSync(dir).isDirectory();
  if (isFolder && !MANIFEST_FILES.some((f) => existsSync(join(dir, f)))) throw new UserError(`${dir}: not a suite folder: ${NOT_A_SUITE}`);
  return loadSuite(dir);
}

/** One course case, read and checked: its input, its board, and the folder's expected files. */
interface CourseCase {
  k: string;
  input: string;
  board: BoardSpec;
  task: GradedTask;
  player: 1 | 2;
  depth: number;
  expected: ExpectedFiles;
}

/** The course files in `dir` as a Suite; every mistake is one line naming the file. */
export function loadCourseSuite(dir: string): Suite {
  const absDir = resolve(dir);
  if (!existsSync(absDir) || !statSync(absDir).isDirectory()) throw new UserError(`${dir}: no such suite folder`);
  const keys = caseKeys(dir, absDir);
  if (keys.length === 0) throw new UserError(`${dir}: not a suite folder: ${NOT_A_SUITE}`);
  const read = keys.map((k) => readCourseCase(dir, absDir, k));
  const tasks = ([1, 2, 3] as const).filter((t) => read.some((r) => r.task === t));
  const categories: Category[] = tasks.map((t) => ({ name: TASKS[t].category, weight: read.filter((r) => r.task === t).length, description: TASKS[t].description }));
  const sizes = [...new Set(read.map((r) => r.board.top.length))].sort((a, b) => a - b);
  const game = gameSpec({ profile: 'csci561', pits: read[0]!.board.top.length });
  if (game.kind !== 'mancala') throw new RangeError('the csci561 profile is a Mancala game');
  const manifest: Manifest = {
    name: `CSCI-561 course files (${basename(absDir)})`,
    description: `the course's own inputs and expected files, ${read.length} cases`,
    // The folder is its own manifest: it has no manifest file.
    file: absDir,
    dir: absDir,
    // Each case plays on its own input's board; the name says which sizes occur.
    game: { ...game, name: `csci561 (${sizes.join(', ')} pits, each case its input's)` },
    roles: ROLES,
    categories,
    limits: COURSE_SUITE_LIMITS,
    visibility: 'visible',
    cases: [COURSE_INPUT_PATTERN],
  };
  return { manifest, cases: read.map((r) => suiteCase(r, manifest)), expected: {} };
}

/** input.txt, where it came from, and the expected files of a case of a course-file suite. */
export function courseCaseFiles(suite: Suite, c: SuiteCase): { input: string; source: string; expected: ExpectedFiles } {
  const k = FILE_NAME.exec(c.file)?.[2];
  if (k === undefined) throw new RangeError(`case ${c.id} is not a course file: ${c.file}`);
  const r = readCourseCase(suite.manifest.dir, suite.manifest.dir, k);
  return { input: r.input, source: `${basename(suite.manifest.dir)}/${c.file}`, expected: r.expected };
}

/** The K of every testInput_K.txt, in natural order (2 before 10); a stray answer file is an error. */
function caseKeys(dir: string, absDir: string): string[] {
  const names = readdirSync(absDir);
  const inputs = new Set<string>();
  for (const name of names) {
    const m = FILE_NAME.exec(name);
    if (m?.[1] === 'testInput') inputs.add(m[2]!);
  }
  for (const name of names) {
    const m = FILE_NAME.exec(name);
    if (m !== null && m[1] !== 'testInput' && !inputs.has(m[2]!)) {
      throw new UserError(`${join(dir, name)}: expected ${courseFiles(m[2]!).input} beside it (the input it answers), but there is none`);
    }
  }
  return [...inputs].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

function readCourseCase(dir: string, absDir: string, k: string): CourseCase {
  const names = courseFiles(k);
  const shown = (name: string) => join(dir, name);
  const input = readCourseFile(absDir, names.input, shown(names.input), 'the input');
  const parsed = parseCsci561Input(input, shown(names.input));
  const { task, depth } = parsed.csci561!;
  if (task === 4) throw located(shown(names.input), 1, 'expected task 1 (Greedy), 2 (MiniMax) or 3 (Alpha-Beta): task 4 (Competition) has no one right answer to grade');
  const board: BoardSpec = { top: parsed.top, bottom: parsed.bottom, topStore: parsed.topStore, bottomStore: parsed.bottomStore, toMove: parsed.toMove! };
  const pits = board.top.length;
  const game = csci561Game(pits);
  if (game.isOver(boardToState(game, board, board.toMove, shown(names.input)))) {
    throw new UserError(`${shown(names.input)}: the game is over on this board: a program has no move to choose`);
  }

  if (!existsSync(join(absDir, names.nextState))) {
    throw new UserError(`${shown(names.nextState)}: missing: expected the next state that ${names.input} asks for (4 lines: the two rows, the two stores)`);
  }
  const nextState = readCourseFile(absDir, names.nextState, shown(names.nextState), 'the expected next state');
  const next = parseCsci561NextState(nextState, shown(names.nextState));
  if (next.top.length !== pits) {
    throw located(shown(names.nextState), 1, `expected ${pits} pits a side, as ${names.input}, got ${next.top.length}`);
  }
  const expected: ExpectedFiles = { task, nextState };

  const hasLog = existsSync(join(absDir, names.traverseLog));
  if (task === 1 && hasLog) {
    throw new UserError(`${shown(names.traverseLog)}: unexpected: ${names.input} is task 1 (Greedy), which writes no traverse log (remove the file, or fix line 1 of ${names.input})`);
  }
  if (task !== 1) {
    if (!hasLog) throw new UserError(`${shown(names.traverseLog)}: missing: expected the traverse log that ${names.input} asks for (task ${task}, ${TASK_NAMES[task]})`);
    const log = readCourseFile(absDir, names.traverseLog, shown(names.traverseLog), 'the expected traverse log');
    const first = log.split(/\r?\n/, 1)[0]!.trim();
    if (first !== LOG_HEADER[task]) {
      throw located(shown(names.traverseLog), 1, `expected the header ${JSON.stringify(LOG_HEADER[task])} (${names.input} is task ${task}, ${TASK_NAMES[task]}), got ${JSON.stringify(first)}`);
    }
    expected.traverseLog = markedLog(log);
  }
  return { k, input, board, task, player: board.toMove === 0 ? 1 : 2, depth, expected };
}

function readCourseFile(absDir: string, name: string, shown: string, what: string): string {
  return readText(join(absDir, name), shown, what);
}

/** The log's lines without carriage returns, each OPTIONAL mark as compare.ts reads it (a tab before it). */
function markedLog(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+OPTIONAL\s*$/, OPTIONAL_MARK))
    .join('\n');
}

function suiteCase(r: CourseCase, manifest: Manifest): SuiteCase {
  const { category, role } = TASKS[r.task];
  const pits = r.board.top.length;
  const depth = r.task === 1 ? '' : `, cut-off depth ${r.depth}`;
  return {
    id: `case-${r.k}`,
    file: courseFiles(r.k).input,
    description: `${courseFiles(r.k).input}: task ${r.task} (${TASK_NAMES[r.task]}), player ${r.player}${depth}, ${pits} pits a side`,
    category,
    role,
    board: r.board,
    // Greedy is MiniMax at cut-off depth 1, whatever its input's depth line says.
    options: { depth: r.task === 1 ? 1 : r.depth, unit: 'turn' },
    checks: r.task === 1 ? { nextState: true } : { nextState: true, trace: { format: 'traverse-log' } },
    points: 1,
    limits: manifest.limits,
    visibility: manifest.visibility,
  };
}
