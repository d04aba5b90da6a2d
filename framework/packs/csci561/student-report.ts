/**
 * Reports a student can act on (`csci561-grade --reports DIR`): one folder a submission,
 *
 *   DIR/<submission>/report.txt          the score, then each failed case: what was wrong, the
 *                                        input, time and memory, a unified diff of each file,
 *                                        the files written under other names, and a command
 *                                        that re-runs the student's own program on that input
 *   DIR/<submission>/<case>/input.txt    the case's input
 *   DIR/<submission>/<case>/next_state.txt, traverse_log.txt   the program's own files, as written
 *   DIR/<submission>/<case>/expected_*.txt, *.diff             visible cases only
 *
 * These folders are csci561-grade's part of `--feedback DIR` (beside DIR/<id>.html and .md, written
 * by grading/feedback/); `--reports DIR` is its former name. `shown` says which cases a student may
 * see whole: `visible` ones, and `after_due_date` ones once --due has passed.
 * A case not shown (hidden, or after a due date still to come) shows what was wrong
 * and the student's own lines, never the expected text: no expected files, no diff, and the
 * comparison's "expected …" left out. Its input is shown, so that the student can re-run it.
 * The expected traverse log is written as the official files are, its OPTIONAL lines marked; the
 * diff leaves out the OPTIONAL lines the program did not print, since they may be left out.
 */
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../../errors.ts';
import type { SubmissionReport } from '../../grading/report.ts';
import type { Visibility } from '../../suites/types.ts';
import { compareTraverseLog } from '../../search/traverse-log.ts';
import { INPUT_FILE, NEXT_STATE_FILE, TRAVERSE_LOG_FILE } from './files.ts';
import { shellCommand, shellWord, type FailedRun, type KeptFile, type ProgramGrading, type ProgramRuns } from './grade-programs.ts';
import type { ProgramCase } from './program-cases.ts';
import { fileLines, unifiedDiff } from './student-report-diff.ts';
import { studentName, studentText } from '../../student-text.ts';

export const REPORT_FILE = 'report.txt';
/** The folder, inside a case's, in which the reproduce command runs a fresh copy of the program. */
export const RUN_DIR = 'run';

/** A name safe as one folder: the submission's or the case's id. */
export function folderName(id: string): string {
  const name = id.replace(/[^\w.-]+/g, '_');
  return /^\.*$/.test(name) ? `_${name}` : name;
}

/**
 * Before grading: DIR can be written, no two submissions would share a folder, and a folder of
 * DIR that is in the way holds an earlier report (it is replaced), not something else.
 */
export function checkReportsDir(dir: string, submissions: readonly string[], checkFolder: (flag: string, dir: string) => void): void {
  checkFolder('--reports', dir);
  const seen = new Map<string, string>();
  for (const s of submissions) {
    const name = folderName(idOf(s));
    const other = seen.get(name);
    if (other !== undefined) throw new UserError(`--reports ${dir}: the submissions ${other} and ${s} would both report into ${join(dir, name)}; give folders of different names`);
    seen.set(name, s);
    const place = join(dir, name);
    if (existsSync(place) && !(statSync(place).isDirectory() && existsSync(join(place, REPORT_FILE)))) {
      throw new UserError(`--reports ${dir}: ${place} is in the way: it is not an earlier report (no ${REPORT_FILE}); move it or choose another folder`);
    }
  }
}

/** A submission's id as gradeProgram names it: its folder's name, terminal-safe (the checked folder is the one written). */
const idOf = (path: string): string => studentName(basename(resolve(path)));

/** Writes every submission's report under `dir`; returns the report files written. */
export function writeStudentReports(dir: string, grading: ProgramGrading, shown: (v: Visibility) => boolean = (v) => v === 'visible'): string[] {
  const written: string[] = [];
  grading.report.submissions.forEach((s, k) => {
    const runs = grading.programs[k]!;
    const place = join(dir, folderName(s.id));
    // An earlier report of this submission (checkReportsDir made sure it is one) is replaced whole.
    rmSync(place, { recursive: true, force: true });
    mkdirSync(place, { recursive: true });
    const file = join(place, REPORT_FILE);
    // It quotes the program's files and what it printed: terminal-safe, for a `cat` of it.
    writeFileSync(file, studentText(submissionReport(grading, s, runs, place, shown), { maxChars: Infinity, maxLineChars: Infinity }));
    written.push(file);
  });
  return written;
}

const MB = 1024 * 1024;
const indent = (text: string, by = '  '): string =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => (l === '' ? '' : by + l))
    .join('\n');

function submissionReport(grading: ProgramGrading, s: SubmissionReport, runs: ProgramRuns, place: string, shown: (v: Visibility) => boolean): string {
  const passed = s.cases.filter((c) => c.status === 'passed');
  const out: string[] = [
    `${s.id}: ${s.score} / ${s.maxScore} on ${grading.report.suite} (${passed.length} of ${s.cases.length} cases passed)`,
    `submission: ${s.path}`,
  ];
  if (runs.argv !== undefined) out.push(`run as: ${shellCommand(runs.argv)}${runs.build !== undefined ? ` (built first with: ${runs.build})` : ''}`);
  for (const n of s.notes) out.push(`note: ${n}`);
  out.push('');
  if (runs.setupError !== '') {
    out.push('No case could run:', indent(runs.setupError), '');
  }
  if (passed.length > 0) out.push(`passed: ${passed.map((c) => c.id).join(', ')}`, '');
  const byId = new Map(grading.cases.map((pc) => [pc.c.id, pc]));
  const failedRuns = new Map(runs.failed.map((f) => [f.caseId, f]));
  for (const c of s.cases) {
    if (c.status === 'passed') continue;
    const pc = byId.get(c.id)!;
    const run = failedRuns.get(c.id);
    out.push(`== ${c.id} [${c.category}]: ${c.status}${shown(c.visibility) ? '' : ` (a ${c.visibility === 'hidden' ? 'hidden' : 'not yet visible'} case: its expected files are not shown)`}`);
    if (c.description !== undefined) out.push(c.description);
    if (run === undefined) {
      // Nothing ran (the folder or its build failed): said once above.
      out.push('not run: see above', '');
      continue;
    }
    out.push(...caseSection(pc, run, join(place, folderName(c.id)), runs, shown(c.visibility)));
    out.push('');
  }
  return out.join('\n').trimEnd() + '\n';
}

/** One failed case: its folder written, and its section of report.txt. */
function caseSection(pc: ProgramCase, run: FailedRun, caseDir: string, runs: ProgramRuns, visible: boolean): string[] {
  mkdirSync(caseDir, { recursive: true });
  writeFileSync(join(caseDir, INPUT_FILE), pc.input);
  const lines: string[] = [`files: ${caseDir}`];
  lines.push(
    `time: ${round1(run.cpuMs)} ms of CPU time (limit ${pc.c.limits.ms} ms), ${round1(run.wallMs)} ms wall-clock; memory: ${round1(run.peakMemoryBytes / MB)} MB at the peak (limit ${pc.c.limits.memoryMb} MB)`,
  );
  if (run.runMessage !== '') lines.push('what went wrong:', indent(run.runMessage));
  if (run.problems.length > 0) lines.push('what was wrong:', ...run.problems.map((p) => `  ${visible ? p : withoutExpected(p)}`));
  lines.push(`${INPUT_FILE} (${pc.source}):`, indent(pc.input));

  const files: [string, KeptFile | undefined, string | undefined, 'state' | 'log'][] = [[NEXT_STATE_FILE, run.nextState, pc.expected.nextState, 'state']];
  if (pc.expected.task !== 1 || run.traverseLog !== undefined) files.push([TRAVERSE_LOG_FILE, run.traverseLog, pc.expected.task === 1 ? undefined : pc.expected.traverseLog, 'log']);
  for (const [name, kept, expected, kind] of files) {
    if (kept === undefined) {
      lines.push(`${name}: your program did not write it`);
      continue;
    }
    writeFileSync(join(caseDir, name), kept.text);
    const cut = kept.truncated ? ` (${kept.bytes} bytes; the first ${MB} kept)` : '';
    if (expected === undefined) {
      lines.push(`${name}: kept as ${join(caseDir, name)}${cut}; not graded for this task`);
      continue;
    }
    if (!visible) {
      lines.push(`${name}: kept as ${join(caseDir, name)}${cut}`);
      continue;
    }
    writeFileSync(join(caseDir, `expected_${name}`), expected);
    const diff = unifiedDiff(fileLines(expected), fileLines(kept.text), {
      from: `expected_${name}`,
      to: `${name} (yours)`,
      equal: kind === 'state' ? (e, g) => e.trim() === g.trim() : (e, g) => compareTraverseLog([e], [g]).ok,
      ...(kind === 'log' ? { optional: (e: string) => e.endsWith('\tOPTIONAL') } : {}),
    });
    if (diff === '') {
      lines.push(`${name}: kept as ${join(caseDir, name)}${cut}; it matches expected_${name}`);
      continue;
    }
    writeFileSync(join(caseDir, `${name}.diff`), studentText(diff, { maxChars: Infinity, maxLineChars: Infinity }));
    lines.push(`${name}: kept as ${join(caseDir, name)}${cut}; the diff against expected_${name} (- expected, + yours):`, indent(diff, '    '));
  }
  if (pc.expected.task !== 1 && visible) lines.push(`(expected_${TRAVERSE_LOG_FILE} is in the official files' format: a line ending in <TAB>OPTIONAL may be printed with an infinity, or left out)`);
  const others = run.wrote.filter((f) => f.name !== NEXT_STATE_FILE && f.name !== TRAVERSE_LOG_FILE);
  if (others.length > 0) {
    const shown = others.slice(0, 20).map((f) => `${JSON.stringify(f.name)} (${f.bytes} bytes)`);
    lines.push(`other files your program wrote (the grader reads only ${NEXT_STATE_FILE} and ${TRAVERSE_LOG_FILE}): ${shown.join(', ')}${others.length > 20 ? ` and ${others.length - 20} more` : ''}`);
  }
  if (runs.argv !== undefined) lines.push('reproduce (your program on this input, in a fresh copy of your folder, in the case folder\'s run/):', `  ${reproduceCommand(caseDir, runs)}`);
  return lines;
}

/**
 * The shell line that runs the student's program on the case's input.txt as the grader did: a
 * fresh copy of the submission in <case folder>/run (built first, if it builds), with input.txt;
 * its files land there, beside the ones the grader kept. Not sandboxed: the program is the student's own.
 */
export function reproduceCommand(caseDir: string, runs: Pick<ProgramRuns, 'path' | 'argv' | 'build'>): string {
  const steps = [
    `cd ${shellWord(resolve(caseDir))}`,
    `rm -rf ${RUN_DIR}`,
    `mkdir ${RUN_DIR}`,
    `cp -R ${shellWord(resolve(runs.path))}/. ${RUN_DIR}/`,
    `cp ${INPUT_FILE} ${RUN_DIR}/`,
    `cd ${RUN_DIR}`,
    ...(runs.build !== undefined ? [`{ ${runs.build}; }`] : []),
    shellCommand(runs.argv ?? []),
  ];
  return steps.join(' && ');
}

/** A comparison's line without the expected text: `next_state.txt line 1: expected "…", got "…"` → `next_state.txt line 1: got "…" (not what was expected)`. */
export function withoutExpected(problem: string): string {
  const m = /^(.*?): expected (?:"(?:[^"\\]|\\.)*"|nothing \(the file ends\)), got (.*)$/.exec(problem);
  return m === null ? problem : `${m[1]}: got ${m[2]} (not what was expected)`;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
