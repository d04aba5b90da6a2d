/**
 * Bundles of submissions' modules kept by content (bundle.ts makes them): grading a class again
 * — another suite, a re-run after an instructor fixed a case — reuses each unchanged module's
 * bundle instead of compiling it again. A record lists every file its bundle was made from with
 * the SHA-256 of its content, and is reused only while each of those files has that content.
 * The submission's own files are named relative to its copy, whose folder is new each run.
 * Kept in the build cache's folder, which only this user may read, and pruned with it (build-cache.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { buildCacheFolder, markUsed, pruneBuildCache } from '../../build-cache.ts';
import { writeAtomically } from '../../write-file.ts';
import { isInside } from '../paths.ts';

interface BundleRecord {
  /** `copy:` + a path inside the submission's copy, or an absolute path (the framework, packages) → content hash */
  inputs: Record<string, string>;
  bundle: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function recordFile(key: string): string {
  return join(buildCacheFolder(), `submission-bundle-${sha256(key).slice(0, 24)}.json`);
}

function inputName(copyRoot: string, path: string): string {
  return isInside(copyRoot, path) ? `copy:${relative(copyRoot, path).split(sep).join('/')}` : path;
}

function inputPath(copyRoot: string, name: string): string {
  return name.startsWith('copy:') ? resolve(copyRoot, name.slice('copy:'.length)) : name;
}

function contentHash(path: string): string | undefined {
  try {
    return sha256(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** The bundle kept under `key`, if every file it was made from still has the same content (in `copyRoot` for the submission's own). */
export function cachedBundle(key: string, copyRoot: string): string | undefined {
  let record: BundleRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(key), 'utf8')) as BundleRecord;
  } catch {
    return undefined;
  }
  const unchanged = Object.entries(record.inputs).every(([name, hash]) => contentHash(inputPath(copyRoot, name)) === hash);
  if (!unchanged) return undefined;
  markUsed([recordFile(key)]);
  return record.bundle;
}

/** Keeps `bundle`, made from `inputs` (absolute paths), under `key`. */
export function keepBundle(key: string, copyRoot: string, inputs: readonly string[], bundle: string): void {
  pruneBuildCache();
  const record: BundleRecord = { inputs: {}, bundle };
  for (const path of inputs) {
    const hash = contentHash(path);
    // A file gone already (it was read, so this is a race): keep nothing rather than a record that cannot hold.
    if (hash === undefined) return;
    record.inputs[inputName(copyRoot, path)] = hash;
  }
  writeAtomically(recordFile(key), JSON.stringify(record), 0o600);
}
