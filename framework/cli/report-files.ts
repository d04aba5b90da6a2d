/**
 * The report files a grading command writes on request (`--json`, `--gradescope`, `--junit`,
 * `--csv`), all derived from one GradeReport. Gradescope takes one submission a file, so with
 * several submissions each gets its own: results.json → results.<id>.json. Their places are
 * checked before grading starts (checkReportFiles), and the end of a run says loudly when the
 * machine, not the students, looks at fault (warnCommonFailures).
 */
import { join, parse } from 'node:path';
import { commonFailures, commonFailureWarning, reportOutcomes } from '../grading/common-failure.ts';
import type { GradeReport } from '../grading/report.ts';
import { toCsv } from '../grading/reporters/csv.ts';
import { toGradescope } from '../grading/reporters/gradescope.ts';
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
}

/** Refuses, before any grading, a report file that could not be written (output-paths.ts); creates missing folders. */
export function checkReportFiles(files: ReportFiles): void {
  for (const key of ['json', 'gradescope', 'junit', 'csv'] as const) {
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
  const written = [files.json, files.gradescope, files.junit, files.csv].filter((f) => f !== undefined);
  if (written.length > 0) io.err(`wrote ${written.join(', ')}\n`);
}

/** results.json → results.alice.json */
function withId(file: string, id: string): string {
  const p = parse(file);
  return join(p.dir, `${p.name}.${id.replace(/[^\w.-]+/g, '_')}${p.ext}`);
}
