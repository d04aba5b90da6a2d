/**
 * Which JSON report a file is, from its first bytes, without reading the rest (a class's report
 * is megabytes, and a folder's listing looks at every *.json in it). The JSON reporters write
 * their keys in a fixed order (grading/reporters/json.ts, shards/record.ts), so the key after
 * `"version": 1` tells them apart:
 *
 *   "suite"    a grade report: `mancala grade`, `csci561-grade`, `gauntlet --json FILE`
 *   "shard"    a shard's grade report (`--shard i/n --json FILE`): a grade report with its shard
 *              record first, whose "command" tells a shard of `check` (a report per suite) and a
 *              tournament's standings apart
 *   "reports"  `mancala check --json` (or merge of check shards): a report per suite
 *   "similarity"  `mancala similarity --json FILE` (or merge of its shards): the pairs of a class
 *
 * A hand-written file in another order is not listed, but opens all the same: the reader
 * (report-files.ts) checks the whole file and names what is wrong in it.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export type JsonReportKind = 'grade' | 'shard' | 'check' | 'similarity';

/** The first `bytes` bytes of a file as text ('' when it cannot be read). */
export function fileHead(file: string, bytes = 1024): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether `head` (a .jsonl file's first bytes) begins a grading run's journal (grading/grade-journal.ts,
 * `grade.journal.jsonl` beside a run's reports): the run's own bookkeeping, neither a replay nor a tournament's results.
 */
export function isGradeJournal(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"type"\s*:\s*"grade-journal"\s*[,}]/.test(head);
}

/** The kind of JSON report `head` (a file's first bytes) begins, and its suite when the head names it; undefined: not one. */
export function jsonReportKind(head: string): { kind: JsonReportKind; suite?: string } | undefined {
  const m = /^\uFEFF?\s*\{\s*"version"\s*:\s*1\s*,\s*"(suite|shard|reports|similarity)"\s*:/.exec(head);
  if (m === null) return undefined;
  if (m[1] === 'similarity') return { kind: 'similarity' };
  let kind: JsonReportKind = m[1] === 'suite' ? 'grade' : m[1] === 'shard' ? 'shard' : 'check';
  if (kind === 'shard') {
    // The record's third key names the command: a shard of check holds a report per suite; a tournament's standings are no
    // grade report, nor is a similarity shard's part of its run (mancala merge makes the report).
    const command = /^[^"]*"version"\s*:\s*1\s*,\s*"shard"\s*:\s*\{[^{}]*?"command"\s*:\s*"([\w-]+)"/.exec(head)?.[1];
    if (command === 'tournament' || command === 'similarity') return undefined;
    if (command === 'check') kind = 'check';
  }
  // A grade report's suite is its second key. (A shard's comes after its record, whose identity has a "suite" of its own.)
  const suite = kind === 'grade' ? /^[^"]*"version"\s*:\s*1\s*,\s*"suite"\s*:\s*("(?:[^"\\\n]|\\.){0,300}")/.exec(head) : null;
  if (suite === null) return { kind };
  try {
    return { kind, suite: JSON.parse(suite[1]!) as string };
  } catch {
    return { kind };
  }
}
