/**
 * The Reports page's files: grade reports as `mancala grade --json FILE` writes them (also
 * csci561-grade's and gauntlet's, and a shard's, whose `shard` record is set aside) and similarity
 * reports (`mancala similarity --json FILE`, checked by similarity/report.ts), read under
 * the server's root only (resolveUnder) and checked by the JSON reporter's own reader
 * (grading/reporters/json.ts parseReport), so a malformed file is a 422 naming the file and the
 * line or field, in the words `mancala merge` uses for the same file.
 *
 * A class's report is megabytes (200 submissions × 30 cases: 3.4 MB, 20–40 ms to parse), and
 * every page of it (the class, each submission) is a request: a report is parsed once and kept,
 * with the pages rendered from it, while its file stays the same (same inode, size and mtime).
 * The cache holds a few reports, the least recently used going first.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { UserError } from '../../errors.ts';
import type { GradeReport } from '../../grading/report.ts';
import { parseReport } from '../../grading/reporters/json.ts';
import { parseSimilarityReport, type SimilarityReport } from '../../similarity/report.ts';
import { HttpError } from './http-error.ts';
import { jsonReportKind } from './report-kind.ts';
import { withoutFileText } from './file-problem.ts';
import { MAX_FILE_BYTES, resolveUnder, shownPath } from './replay-files.ts';

/** A report read and checked, and what has been rendered from it. */
export interface OpenedReport {
  /** the file as the page names it: relative to the root, forward slashes */
  file: string;
  report: GradeReport;
  /** rendered pages by key (report-pages.ts), kept with the report */
  pages: Map<string, string>;
}

/** A similarity report (`mancala similarity --json FILE`), read and checked: one page, the pairs. */
export interface OpenedSimilarity {
  file: string;
  similarity: SimilarityReport;
  pages: Map<string, string>;
}

/** Reports kept at once: a few, so that an instructor going between two classes' reports reads neither again. */
const MAX_CACHED = 6;

/** A grade report's text, checked: one with a shard record is read as the grade report it holds. */
export function parseGradeJson(text: string, file: string): GradeReport {
  const kind = jsonReportKind(text.slice(0, 1024))?.kind;
  if (kind === 'check') {
    throw new UserError(`${file}: field "reports": a report per suite (mancala check --json), not a grade report: open a report of mancala grade --json FILE`);
  }
  if (kind === 'shard') {
    const data = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    // Its notes say which shard it is; `mancala merge` checks the record, a reader needs only the report.
    const { shard: _shard, ...report } = data;
    return parseReport(JSON.stringify(report), file);
  }
  return parseReport(text, file);
}

export class ReportFiles {
  private readonly cache = new Map<string, { stamp: string; opened: OpenedReport | OpenedSimilarity }>();

  constructor(private readonly root: string) {}

  /** The grade report at `path` under the root: 403 outside it, 404 missing, 400 a folder, 413 too large, 422 malformed (a similarity report too). */
  open(path: string): OpenedReport {
    const opened = this.openAny(path);
    if ('similarity' in opened) throw new HttpError(422, `${opened.file}: a similarity report (mancala similarity --json), not a grade report`);
    return opened;
  }

  /** The grade or similarity report at `path` under the root, refused as open() refuses. */
  openAny(path: string): OpenedReport | OpenedSimilarity {
    const real = resolveUnder(this.root, path);
    const file = shownPath(this.root, real);
    let info: Stats;
    try {
      info = statSync(real);
    } catch (e) {
      throw new HttpError(404, `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (info.isDirectory()) throw new HttpError(400, `${file}: a folder, not a grade report file`);
    if (info.size > MAX_FILE_BYTES) throw new HttpError(413, `${file}: ${info.size} bytes, more than the ${MAX_FILE_BYTES} this page opens`);
    const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    const hit = this.cache.get(real);
    if (hit !== undefined && hit.stamp === stamp) {
      // Most recently used last: the first is the one to drop.
      this.cache.delete(real);
      this.cache.set(real, hit);
      return hit.opened;
    }
    let text: string;
    try {
      text = readFileSync(real, 'utf8');
    } catch (e) {
      throw new HttpError(404, `${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    let opened: OpenedReport | OpenedSimilarity;
    try {
      opened =
        jsonReportKind(text.slice(0, 1024))?.kind === 'similarity'
          ? { file, similarity: parseSimilarityReport(text, file), pages: new Map() }
          : { file, report: parseGradeJson(text, file), pages: new Map() };
    } catch (e) {
      if (e instanceof UserError) throw new HttpError(422, withoutFileText(e.message));
      // JSON.parse of a shard's report that is not JSON after all (V8's message quotes the text: not shown).
      if (e instanceof SyntaxError) throw new HttpError(422, `${file}: expected a JSON grade report (not JSON)`);
      throw e;
    }
    this.cache.delete(real);
    this.cache.set(real, { stamp, opened });
    while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return opened;
  }
}
