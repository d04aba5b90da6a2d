/**
 * The report files a grading command writes on request (`--json`, `--gradescope`, `--junit`,
 * `--csv`), all derived from one GradeReport. Gradescope takes one submission a file, so with
 * several submissions each gets its own: results.json → results.<id>.json.
 */
import { join, parse } from 'node:path';
import type { GradeReport } from '../grading/report.ts';
import { toCsv } from '../grading/reporters/csv.ts';
import { toGradescope } from '../grading/reporters/gradescope.ts';
import { toJson } from '../grading/reporters/json.ts';
import { toJUnit } from '../grading/reporters/junit.ts';
import { writeFileAtomically } from '../write-file.ts';
import type { CliIo } from './options.ts';

export interface ReportFiles {
  json?: string;
  gradescope?: string;
  junit?: string;
  csv?: string;
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
