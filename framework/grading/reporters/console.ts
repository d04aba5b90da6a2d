/**
 * What people read in a terminal: `renderConsole` for the instructor after `mancala grade`, and
 * `renderCheck` for the student after `mancala check`.
 *
 * Every string that may come from a student (messages, submission names, paths) goes through
 * `plainText`/`oneLine` first: a message must not be able to clear the screen, move the cursor or
 * reorder text with bidi overrides in the instructor's terminal.
 */
import type { CaseReport, GradeReport, SubmissionReport } from '../report.ts';
import { DIAGNOSIS_PREFIX, type CaseStatus } from '../types.ts';
import { clipped, cpuTime, diagnosisFamilies, reasonGroups, reasonPhrase, sharedReasons, type ReasonGroup } from './case-reasons.ts';
import { caseTitle, categoryTotals, countStatuses, isolationLine } from './summary.ts';
import { firstLine, formatPoints, lateBrief, oneLine, plainText } from './text.ts';

type Paint = (text: string) => string;
interface Palette {
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`;
const COLOR: Palette = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39) };
const plain: Paint = (text) => text;
const NO_COLOR: Palette = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain };

function palette(color: boolean): Palette {
  return color ? COLOR : NO_COLOR;
}

/** passed green, failed red, the process's own troubles (error, timeout, memory) yellow. */
function statusPaint(p: Palette, status: CaseStatus): Paint {
  return status === 'passed' ? p.green : status === 'failed' ? p.red : p.yellow;
}

function mark(p: Palette, status: CaseStatus): string {
  return statusPaint(p, status)(status === 'passed' ? '✓' : '✗');
}

/** Every line of `text` indented by `indent`. */
function indented(text: string, indent: string): string[] {
  return plainText(text)
    .replace(/\s+$/, '')
    .split('\n')
    .map((line) => `${indent}${line}`);
}

export interface ConsoleOptions {
  color: boolean;
  /** every case (passed ones too) and whole messages, not just their first lines and the likely bugs named */
  verbose: boolean;
  /** without verbose, a line for each failed case under its submission's (a student's check of one submission, csci561-grade --check) */
  failedCases?: boolean;
}

function caseLines(p: Palette, cases: readonly CaseReport[], verbose: boolean): string[] {
  const shown = verbose ? cases : cases.filter((c) => c.status !== 'passed');
  const statusWidth = Math.max(0, ...shown.map((c) => c.status.length));
  const idWidth = Math.max(0, ...shown.map((c) => oneLine(c.id).length));
  const lines: string[] = [];
  for (const c of shown) {
    const status = statusPaint(p, c.status)(c.status.padEnd(statusWidth));
    const id = oneLine(c.id).padEnd(idWidth);
    const head = `  ${mark(p, c.status)} ${status}  ${id}`;
    if (verbose) {
      const about = c.description ? `  ${p.dim(oneLine(c.description))}` : '';
      lines.push(`${head.trimEnd()}${about}`);
      if (c.message !== '') lines.push(...indented(c.message, '      '));
      for (const info of c.info ?? []) lines.push(...indented(info, '      ').map(p.dim));
    } else {
      lines.push(`${head}  ${firstLine(c.message)}`.trimEnd());
    }
  }
  return lines;
}

/** Case ids a diagnosis line names before it says "and N more". */
const DIAGNOSED_IDS_SHOWN = 3;
/** "likely bug", the diagnosis line's prefix without its colon */
const DIAGNOSIS_LABEL = DIAGNOSIS_PREFIX.replace(/:\s*$/, '');
/** The most characters of a reason a submission's line shows (the reports hold it whole). */
const REASON_WIDTH = 160;

/** "(move-02)", "× 5 cases (move-01, move-02, nodes-01 and 2 more)" */
function casesNamed(ids: readonly string[]): string {
  return ids.length === 1 ? `(${ids[0]})` : `× ${ids.length} cases (${namedIds(ids)})`;
}

/**
 * Each mistake the graders named in the submission's failed cases, once, with the cases it
 * explains: `likely bug × 5 cases (move-02, …): Your search matches …`. One mistake (a depth off
 * by one) reads alike in every case but for its numbers: one line, not one a case.
 */
function diagnosisLines(cases: readonly CaseReport[]): string[] {
  return diagnosisFamilies(cases, false).map((f) => `  ${DIAGNOSIS_LABEL} ${casesNamed(f.ids)}: ${f.text}`);
}

/**
 * What the graders found but did not grade (CaseReport.info), without --verbose: each kind once,
 * by the word its line starts with, with the cases it was found in, then each likely bug named
 * in it once. One case shows its whole line; several a count, as the words differ by case:
 *
 *   info (alphabeta-caching-public): nodes: your search visited 2,298 nodes; the reference 1,200 (informational, not graded)
 *   info (minimax-caching-01, minimax-caching-02, minimax-caching-03 and 17 more): nodes differ from the reference's in 20 cases (informational, not graded; --verbose shows each)
 *   likely bug, not graded (minimax-caching-01, …): Your search matches the reference with no transposition table …
 */
function informationLines(p: Palette, cases: readonly CaseReport[]): string[] {
  const byKind = new Map<string, { ids: string[]; first: string }>();
  for (const c of cases) {
    for (const info of c.info ?? []) {
      const first = oneLine(firstLine(info)).trim();
      if (first === '') continue;
      const kind = /^([\w ]+):/.exec(first)?.[1] ?? first;
      const group = byKind.get(kind) ?? { ids: [], first };
      group.ids.push(oneLine(c.id));
      byKind.set(kind, group);
    }
  }
  const out: string[] = [];
  for (const [kind, { ids, first }] of byKind) {
    const what = ids.length === 1 ? first : `${kind} differ from the reference's in ${ids.length} cases (informational, not graded; --verbose shows each)`;
    out.push(p.dim(`  info (${namedIds(ids)}): ${what}`));
  }
  for (const f of diagnosisFamilies(cases, true)) out.push(p.dim(`  ${DIAGNOSIS_LABEL}, not graded (${namedIds(f.ids)}): ${f.text}`));
  return out;
}

/** "a, b, c and 4 more" */
function namedIds(ids: readonly string[]): string {
  const named = ids.slice(0, DIAGNOSED_IDS_SHOWN).join(', ');
  return ids.length > DIAGNOSED_IDS_SHOWN ? `${named} and ${ids.length - DIAGNOSED_IDS_SHOWN} more` : named;
}

/**
 * Notes that only say how a submission was run: which file played which role ("role agent:
 * agent.ts", "agent over stdio: …"), how a program was run and built as its course did ("CSCI-561
 * ran mancala.py as Python 3: …", "built once before the cases …"), the runtime's start-up left
 * uncharged. Every submission has them, so at class scale they are left to --verbose and the reports.
 */
function routineNote(note: string): boolean {
  return (
    note.startsWith('agent over stdio: ') ||
    /^role [\w-]+: [^\s:]+$/.test(note) ||
    /^[\w -]+ ran \S+ as [^:]+: (build `|run `)/.test(note) ||
    note.startsWith('built once before the cases (') ||
    note.startsWith('start-up not charged to the cases (')
  );
}

/** "90 / 100"; with a due date the adjusted score, the raw score and the lateness beside it: "90 / 100 (raw 100, 10 h late, −10)". */
function scoreField(s: SubmissionReport): string {
  return s.late === undefined ? `${formatPoints(s.score)} / ${formatPoints(s.maxScore)}` : `${formatPoints(s.late.score)} / ${formatPoints(s.maxScore)} (${lateBrief(s.late)})`;
}

/** The submission's line: score, cases passed, CPU time, where it is; then what went wrong most, once with its count. */
function headLine(p: Palette, s: SubmissionReport, groups: readonly ReasonGroup[]): string {
  const counts = countStatuses(s.cases);
  const score = scoreField(s);
  const verdict = counts.passed === s.cases.length ? p.green(`all ${s.cases.length} cases passed`) : `${counts.passed} of ${s.cases.length} cases passed`;
  const head = `${p.bold(oneLine(s.id))}  ${p.bold(score)}  ${verdict}  ${cpuTime(s)} CPU  ${p.dim(oneLine(s.path))}`;
  const lead = groups[0];
  if (lead === undefined) return head;
  const rest = groups.slice(1);
  const otherCases = rest.reduce((n, g) => n + g.ids.length, 0);
  const others = rest.length === 0 ? '' : p.dim(`  (+ ${rest.length} other reason${rest.length === 1 ? '' : 's'} in ${otherCases} case${otherCases === 1 ? '' : 's'})`);
  return `${head}  ${statusPaint(p, lead.status)(reasonPhrase(lead, REASON_WIDTH))}${others}`;
}

function submissionBlock(p: Palette, s: SubmissionReport, verbose: boolean, failedCases: boolean): string[] {
  // The machine could not run it: one line saying why, no score and no cases that would blame the student.
  if (s.notGraded !== undefined) return [`${p.bold(oneLine(s.id))}  ${p.yellow(`NOT GRADED: ${oneLine(s.notGraded)}`)}  ${p.dim(oneLine(s.path))}`];
  if (!verbose) {
    // Class scale: one line, then one line a mistake the graders named, what was found but not graded, and the notes that matter.
    const lines = [headLine(p, s, reasonGroups(s.cases))];
    if (failedCases) lines.push(...caseLines(p, s.cases, false));
    lines.push(...diagnosisLines(s.cases), ...informationLines(p, s.cases));
    for (const note of s.notes.filter((n) => !routineNote(n))) lines.push(`  ${p.dim(`note: ${oneLine(note)}`)}`);
    return lines;
  }
  const counts = countStatuses(s.cases);
  const score = scoreField(s);
  const verdict = counts.passed === s.cases.length ? p.green(`all ${s.cases.length} cases passed`) : `${counts.passed} of ${s.cases.length} cases passed`;
  const lines = [`${p.bold(oneLine(s.id))}  ${p.bold(score)}  ${verdict}  ${p.dim(oneLine(s.path))}`];
  lines.push(...caseLines(p, s.cases, verbose));
  const totals = categoryTotals(s.cases);
  const nameWidth = Math.max(0, ...totals.map((t) => oneLine(t.name).length));
  const pointsWidth = Math.max(0, ...totals.map((t) => `${formatPoints(t.score)} / ${formatPoints(t.maxScore)}`.length));
  for (const t of totals) {
    const points = `${formatPoints(t.score)} / ${formatPoints(t.maxScore)}`.padStart(pointsWidth);
    lines.push(`  ${p.dim('·')} ${oneLine(t.name).padEnd(nameWidth)}  ${points}  ${t.passed} of ${t.cases} passed`);
  }
  for (const note of s.notes) lines.push(`  ${p.dim(`note: ${oneLine(note)}`)}`);
  return lines;
}

/** One line for each leading reason several submissions share: "12 submissions: error × 66 cases each: no agent found …: a, b, c and 9 more". */
function sharedLines(p: Palette, report: GradeReport): string[] {
  return sharedReasons(report.submissions).map((r) => `${r.ids.length} submissions: ${statusPaint(p, r.status)(`${r.status}: ${clipped(r.text, REASON_WIDTH)}`)}  ${p.dim(`(${namedIds(r.ids)})`)}`);
}

/** The instructor's report after `mancala grade`. Ends with a newline. */
export function renderConsole(report: GradeReport, options: ConsoleOptions): string {
  const p = palette(options.color);
  const n = report.submissions.length;
  const lines = [`${p.bold(`Suite ${oneLine(report.suite)}`)}: ${n} submission${n === 1 ? '' : 's'}`];
  const isolation = isolationLine(report.isolation);
  lines.push(report.isolation.network ? p.dim(isolation) : p.yellow(isolation));
  // The run's own notes (overridden limits, a machine at fault) concern every score below: not dimmed.
  for (const note of report.notes ?? []) lines.push(p.yellow(`note: ${oneLine(note)}`));
  // A class reads one line a submission; --verbose, a block each, apart.
  if (!options.verbose) lines.push('');
  for (const s of report.submissions) lines.push(...(options.verbose ? [''] : []), ...submissionBlock(p, s, options.verbose, options.failedCases === true));
  const shared = n > 1 && !options.verbose ? sharedLines(p, report) : [];
  if (shared.length > 0) lines.push('', ...shared);
  const graded = report.submissions.filter((s) => s.notGraded === undefined);
  const notGraded = n - graded.length;
  if (n > 1 && graded.length > 0) {
    const mean = graded.reduce((total, s) => total + s.score, 0) / graded.length;
    const max = Math.max(...graded.map((s) => s.maxScore));
    const perfect = graded.filter((s) => s.cases.every((c) => c.status === 'passed')).length;
    const apart = notGraded > 0 ? ` of the ${graded.length} graded; ${notGraded} not graded (the machine's fault, not theirs: see above)` : '';
    lines.push('', `${n} submissions: mean ${formatPoints(mean)} / ${formatPoints(max)}, ${perfect} with every case passed${apart}`);
  } else if (notGraded > 0) {
    lines.push('', `${n} submission${n === 1 ? '' : 's'}: ${notGraded} not graded (the machine's fault, not the students': see above)`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The student's view after `mancala check`: every visible case with ✓ or ✗, the whole message of
 * each failure, and a last line saying what to do. Cases that are not `visible` are never shown,
 * whatever the report holds (the runner already leaves them out; this is a second lock).
 */
export function renderCheck(report: GradeReport, options: { color: boolean }): string {
  const p = palette(options.color);
  const lines: string[] = [];
  for (const s of report.submissions) {
    const cases = s.cases.filter((c) => c.visibility === 'visible');
    if (lines.length > 0) lines.push('');
    lines.push(p.bold(`${oneLine(report.suite)}: ${oneLine(s.path)}`));
    if (s.notGraded !== undefined) {
      lines.push(p.yellow(`not checked: ${oneLine(s.notGraded)}`));
      continue;
    }
    for (const c of cases) {
      const status = c.status === 'passed' || c.status === 'failed' ? '' : ` ${statusPaint(p, c.status)(`(${c.status})`)}`;
      lines.push(`  ${mark(p, c.status)} ${oneLine(caseTitle(c))}${status}`);
      if (c.status !== 'passed' && c.message !== '') lines.push(...indented(c.message, '      '));
      // What was found but not graded: shown, never counted (a passed case stays passed).
      for (const info of c.info ?? []) lines.push(...indented(info, '      ').map(p.dim));
    }
    for (const note of s.notes) lines.push(`  ${p.dim(`note: ${oneLine(note)}`)}`);
    const failed = cases.filter((c) => c.status !== 'passed').length;
    if (cases.length === 0) lines.push('no visible cases to check');
    else if (failed === 0) lines.push(p.green(`all ${cases.length} visible case${cases.length === 1 ? '' : 's'} passed`));
    else lines.push(p.red(`${failed} of ${cases.length} case${cases.length === 1 ? '' : 's'} failed — fix ${failed === 1 ? 'it' : 'these'} before submitting`));
  }
  return `${lines.join('\n')}\n`;
}
