/**
 * Blackboard's "Assignment File Download" (Grade Centre → the column → Assignment File Download):
 * a flat zip of `<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>` with one receipt
 * `<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>.txt` per attempt. The receipt gives the
 * student's name (`Name: Alice Smith (asmith)`), the date submitted, and each file's
 * `Original filename:` beside its `Filename:` in the download: names are restored from it when
 * there, else by taking the prefix off. Of several attempts the latest is taken.
 * https://help.blackboard.com/Learn/Instructor/Original/Grade/Grading_Tasks; the same names in nbgrader's
 * https://nbgrader.readthedocs.io/en/stable/user_guide/managing_assignment_files_manually.html
 */
import { join } from 'node:path';
import { readRegularTextSync } from '../../files/safe-read.ts';
import { entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

const BLACKBOARD_NAME = /^(.*)_([^_]+)_attempt_(\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})(?:_(.+)|\.txt)$/;
const RECEIPT_BYTES = 1024 * 1024;

export function isBlackboardName(name: string): boolean {
  return BLACKBOARD_NAME.test(name);
}

/** `2024-01-15-23-58-03` → `2024-01-15T23:58:03` (Blackboard's clock, no zone given). */
function attemptTime(stamp: string): string {
  const [y, mo, d, h, mi, s] = stamp.split('-');
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

interface Attempt {
  assignment: string;
  username: string;
  stamp: string;
  files: { name: string; path: string; original?: string }[];
  receipt?: string;
}

/** What a receipt says: the name, and each download file name's original. */
export function readReceipt(text: string): { name?: string; originals: Map<string, string> } {
  const name = /^Name:\s*(.+?)\s*(?:\([^()]*\))?\s*$/m.exec(text)?.[1];
  const originals = new Map<string, string>();
  let original: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const o = /^\s*Original filename:\s*(.+?)\s*$/.exec(line);
    if (o !== null) original = o[1];
    const f = /^\s*Filename:\s*(.+?)\s*$/.exec(line);
    if (f !== null && original !== undefined) {
      originals.set(f[1]!, original);
      original = undefined;
    }
  }
  return { ...(name !== undefined ? { name } : {}), originals };
}

export function readBlackboard(dir: string, shown: string): LayoutRead {
  const attempts = new Map<string, Attempt>();
  const notes: string[] = [];
  for (const e of entriesOf(dir)) {
    const m = e.isFile() || e.isSymbolicLink() ? BLACKBOARD_NAME.exec(e.name) : null;
    if (m === null) {
      notes.push(`${shown}/${e.name}: not named as Blackboard names a student's file (<Assignment>_<username>_attempt_<date>_<file>): left out`);
      continue;
    }
    const [, assignment, username, stamp, file] = m as unknown as [string, string, string, string, string | undefined];
    const key = `${username}\n${stamp}`;
    let a = attempts.get(key);
    if (a === undefined) attempts.set(key, (a = { assignment, username, stamp, files: [] }));
    if (file === undefined) a.receipt = join(dir, e.name);
    else a.files.push({ name: file, path: join(dir, e.name) });
  }
  const byUser = new Map<string, Attempt[]>();
  for (const a of attempts.values()) byUser.set(a.username, [...(byUser.get(a.username) ?? []), a]);
  const submissions: FoundSubmission[] = [];
  for (const [username, list] of byUser) {
    list.sort((x, y) => (x.stamp < y.stamp ? -1 : 1));
    const a = list.at(-1)!;
    const sub: FoundSubmission = {
      idHint: username,
      lms: { userId: username, login: username },
      submittedAt: attemptTime(a.stamp),
      attempt: list.length,
      source: `${shown}/${a.assignment}_${username}_attempt_${a.stamp}_*`,
      from: { files: [] },
      notes: list.length > 1 ? [`attempt ${list.length} of ${list.length} taken (${a.stamp}); earlier attempts left out`] : [],
    };
    let originals = new Map<string, string>();
    if (a.receipt !== undefined) {
      const read = readRegularTextSync(a.receipt, RECEIPT_BYTES, { shown: `${a.assignment}_${username}_attempt_${a.stamp}.txt` });
      if (read.ok) {
        const receipt = readReceipt(read.text);
        if (receipt.name !== undefined) sub.name = receipt.name;
        originals = receipt.originals;
      } else sub.notes.push(`receipt ${read.message}`);
    }
    const prefix = `${a.assignment}_${username}_attempt_${a.stamp}_`;
    sub.from = { files: a.files.map((f) => ({ path: f.path, as: originals.get(prefix + f.name) ?? originals.get(f.name) ?? f.name })) };
    submissions.push(sub);
  }
  return { submissions, notes };
}
