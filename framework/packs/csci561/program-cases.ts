/**
 * The cases of a csci561 suite as a program is graded on them. A case's input.txt is the suite's
 * `inputs/<id>.txt` when there is one (its task, player and board must be the case's: a Greedy
 * input keeps its own cut-off depth line, which the task ignores), else it is written from the
 * case: the task from the role's reference (greedy 1, minimax 2, alphabeta 3) and the case's
 * depth. The expected files are computed here, in the grader, by the reference solution; they
 * never reach the program's folder. A folder of the course's own files (course-suite.ts) brings
 * its own inputs and expected files instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../../errors.ts';
import { parseCsci561Input, writeCsci561InputBoard } from '../../games/mancala/board-io/index.ts';
import { parseAgentSpec } from '../../plugins/agents.ts';
import { solveCsci561 } from '../../plugins/csci561-solver.ts';
import type { Suite, SuiteCase } from '../../suites/types.ts';
import type { ExpectedFiles } from './compare.ts';
import { courseCaseFiles, isCourseSuite } from './course-suite.ts';

const TASK_OF_REFERENCE: Record<string, 1 | 2 | 3> = { greedy: 1, minimax: 2, alphabeta: 3 };

export interface ProgramCase {
  c: SuiteCase;
  /** input.txt's text */
  input: string;
  /** where it came from: the suite's file, or written from the case */
  source: string;
  expected: ExpectedFiles;
}

/** The task a case asks for, from its role's reference agent. */
export function caseTask(suite: Suite, c: SuiteCase): 1 | 2 | 3 {
  const reference = parseAgentSpec(suite.manifest.roles[c.role]!.reference).name;
  const task = TASK_OF_REFERENCE[reference];
  if (task === undefined) throw new UserError(`${suite.manifest.file}: role ${c.role}: a program is graded on Greedy, MiniMax or Alpha-Beta; its reference is ${reference}`);
  return task;
}

/** input.txt and the expected files of each case, checked against the case. */
export function programCases(suite: Suite, cases: readonly SuiteCase[]): ProgramCase[] {
  // A folder of the course's files carries its own inputs and expected files (course-suite.ts).
  if (isCourseSuite(suite)) return cases.map((c) => ({ c, ...courseCaseFiles(suite, c) }));
  const game = suite.manifest.game;
  if (game.kind !== 'mancala' || game.profile !== 'csci561') {
    throw new UserError(`${suite.manifest.file}: game: programs are graded on csci561 suites (CSCI-561's files), this suite plays ${game.name}`);
  }
  return cases.map((c) => {
    const task = caseTask(suite, c);
    const file = join(suite.manifest.dir, 'inputs', `${c.id}.txt`);
    let input: string;
    let source: string;
    if (existsSync(file)) {
      input = readFileSync(file, 'utf8');
      source = `${basename(suite.manifest.dir)}/inputs/${c.id}.txt`;
      const b = parseCsci561Input(input, file);
      const same = JSON.stringify([b.top, b.bottom, b.topStore, b.bottomStore, b.toMove]) === JSON.stringify([c.board.top, c.board.bottom, c.board.topStore, c.board.bottomStore, c.board.toMove ?? 0]);
      if (!same || b.csci561!.task !== task || (task !== 1 && b.csci561!.depth !== c.options.depth)) {
        throw new UserError(`${file}: does not say what case ${c.id} asks (task ${task}, depth ${c.options.depth}, its board and player)`);
      }
    } else {
      input = writeCsci561InputBoard({ ...c.board, toMove: c.board.toMove ?? 0 }, task, c.options.depth ?? 1);
      source = `case ${c.id}`;
    }
    const solved = solveCsci561(input, source, { optionalLines: 'mark' });
    const expected: ExpectedFiles = { task, nextState: solved.nextState };
    if (solved.traverseLog !== undefined) expected.traverseLog = solved.traverseLog.join('\n') + '\n';
    return { c, input, source, expected };
  });
}
