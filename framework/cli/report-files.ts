/**
 * The report files a grading command writes on request (`--json`, `--gradescope`, `--junit`,
 * `--csv`, `--html`), all derived from one GradeReport. Gradescope takes one submission a file, so with
 * several submissions each gets its own: results.json → results.<id>.json. Their places are
 * checked before grading starts (checkReportFiles), and the end of a run says loudly when the
 * machine, not the students, looks at fault (warnCommonFailures).
 */
import { join, parse } from 'node:path';
import { commonFailures, commonFailureWarning, reportOutcomes } from '../grading/common-failure.ts';
import type { GradeReport } from '../grading/report.ts';
import { toCsv } from '../grading/reporters/csv.ts';
import { toGradescope } from '../grading/reporters/gradescope.ts';
import { renderHtmlReport, type HtmlReportOptions } from '../grading/reporters/html.ts';
import { toJson } from '../grading/reporters/json.ts';
import { toJUnit } from '../grading/reporters/junit.ts';
import { writeFileAtomically } from '../write-file.ts';
import type { CliIo } from './options.ts';
import { checkOutputFile } from './output-paths.ts';

export interface ReportFiles {
  json?: string;
  gradescope?: string;
  junit?: string;
  csv?: string;
  /** one self-contained HTML page (grading/reporters/html.ts) */
  html?: string;
}

/** The flags of ReportFiles, in the order they are checked. */
export const REPORT_FILE_KEYS = ['json', 'gradescope', 'junit', 'csv', 'html'] as const;

/** The --html option's help, the same on every command that takes it. */
export const HTML_OPTION_HELP = 'write one self-contained HTML report (opens from disk: class summary, histogram, a section per submission with each failing case drawn)';

/** Refuses, before any grading, a report file that could not be written (output-paths.ts); creates missing folders. */
export function checkReportFiles(files: ReportFiles): void {
  for (const key of REPORT_FILE_KEYS) {
    const file = files[key];
    if (file !== undefined) checkOutputFile(`--${key}`, file);
  }
}

/**
 * After grading: when every submission of a kind failed every case the same way, records a
 * warning in the report's notes (before its files are written) and returns the warnings, for
 * the command to print last on stderr, where they are seen.
 */
export function addCommonFailureNotes(report: GradeReport, kindOf: (submission: { id: string; path: string }) => string | undefined): string[] {
  const warnings = commonFailures(reportOutcomes(report, kindOf)).map(commonFailureWarning);
  if (warnings.length > 0) report.notes = [...(report.notes ?? []), ...warnings];
  return warnings;
}

export function printWarnings(io: CliIo, warnings: readonly string[]): void {
  for (const w of warnings) io.err(`\n${w}\n`);
}

/** Writes the files asked for and says which on stderr; nothing when none was asked. */
export function writeReportFiles(io: CliIo, report: GradeReport, files: ReportFiles): void {
  if (files.json) writeFileAtomically(files.json, toJson(report));
  if (files.junit) writeFileAtomically(files.junit, toJUnit(report));
  if (files.csv) writeFileAtomically(files.csv, toCsv(report));
  if (files.gradescope) {
    const many = report.submissions.length > 1;
    report.submissions.forEach((s, k) => {
      const file = many ? withId(files.gradescope!, s.id) : files.gradescope!;
      writeFileAtomically(file, JSON.stringify(toGradescope(report, k), null, 2) + '\n');
    });
  }
  if (files.html) writeFileAtomically(files.html, htmlOf(report));
  const written = [files.json, files.gradescope, files.junit, files.csv, files.html].filter((f) => f !== undefined);
  if (written.length > 0) io.err(`wrote ${written.join(', ')}\n`);
}

/**
 * The HTML report alone (`mancala check`'s reports, one per suite, for the student; a shard's
 * report, whose other files shard-option.ts writes), and says so on stderr. Nothing when `file`
 * is undefined.
 */
export function writeHtmlReport(io: CliIo, reports: GradeReport | readonly GradeReport[], file: string | undefined, options: HtmlReportOptions = {}): void {
  if (file === undefined) return;
  writeFileAtomically(file, htmlOf(reports, options));
  io.err(`wrote ${file}\n`);
}

/**
 * The page of the report as its JSON file holds it (numbers rounded as toJson rounds them), so
 * the page written here and the one the web app renders from that JSON file are the same bytes.
 */
function htmlOf(reports: GradeReport | readonly GradeReport[], options: HtmlReportOptions = {}): string {
  const list: readonly GradeReport[] = Array.isArray(reports) ? reports : [reports as GradeReport];
  return renderHtmlReport(
    list.map((r) => JSON.parse(toJson(r)) as GradeReport),
    options,
  );
}

/** results.json → results.alice.json */
function withId(file: string, id: string): string {
  const p = parse(file);
  return join(p.dir, `${p.name}.${id.replace(/[^\w.-]+/g, '_')}${p.ext}`);
}
