/**
 * When each submission was handed in, as far as the export tells: its metadata's time
 * (Gradescope, Blackboard), else the newest of its files' own times, unless those say nothing.
 * They say nothing in Canvas's download, which stamps every file with the time its zip was made
 * (layouts/canvas.ts), nor in any zip whose entries all bear one time: such a record gets no time,
 * and `noTimes` says why (the late policy says it once a run, grading/late/).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FoundSubmission } from './layouts/found.ts';
import type { SubmissionRecord } from './submission.ts';

/** Why a Canvas download gives no times. */
export const CANVAS_NO_TIMES = "Canvas's download carries no submission times (each file in it bears the time the zip was made)";

/** Why a zip whose entries share one time gives none. */
export function sharedTimeReason(shown: string, at: number): string {
  return `every file in ${shown} has the same time (${new Date(at).toISOString()}), the time the zip was made, not when each was handed in`;
}

/** The export's time, or the latest of the files' own (the snapshot keeps them); none when `noTimes`. */
export function submittedAt(sub: FoundSubmission, pathOf: (file: string) => string, files: readonly string[], noTimes: string | undefined): Pick<SubmissionRecord, 'submittedAt' | 'submittedAtSource' | 'noTimes'> {
  if (sub.submittedAt !== undefined) return { submittedAt: sub.submittedAt, submittedAtSource: 'export' };
  if (noTimes !== undefined) return { noTimes };
  let latest = 0;
  for (const f of files) {
    try {
      latest = Math.max(latest, lstatSync(pathOf(f)).mtimeMs);
    } catch {
      // removed meanwhile: not counted
    }
  }
  return latest === 0 ? {} : { submittedAt: new Date(latest).toISOString(), submittedAtSource: 'file-times' };
}

/** The one modification time every regular file under `dir` shares (two files or more), else undefined. */
export function sharedTime(dir: string): number | undefined {
  const times = new Set<number>();
  let files = 0;
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (times.size > 1) return;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        times.add(lstatSync(p).mtimeMs);
      }
    }
  };
  walk(dir);
  return files >= 2 && times.size === 1 ? [...times][0] : undefined;
}
