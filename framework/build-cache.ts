/**
 * Builds kept between processes: what a build wrote (its output files) with every source it read,
 * stamped with size and modification time, so that a later process whose sources are unchanged
 * reuses the outputs without building. esbuild takes 100-500 ms of a core for a bundle, and every
 * `mancala` process (and every thread of its pool) would otherwise build the same ones again.
 *
 * The cache lives in a folder of this user's in the temp dir that no one else may read
 * (mode 0700): it holds the sandbox's runtimes too, which submissions must not read. Each reuse
 * renews an entry's time; what no process used for two weeks is removed (pruneBuildCache).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { writeAtomically } from './write-file.ts';

/** What was built: output name → the file holding it; source path → [size, mtimeMs]. */
interface BuildRecord {
  outputs: Record<string, string>;
  inputs: Record<string, [number, number]>;
}

/** The cache's folder: a real folder of this user's that only this user may enter. */
export function buildCacheFolder(): string {
  const dir = join(tmpdir(), `mancala-builds-${userInfo().uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory() || info.uid !== userInfo().uid) throw new Error(`${dir}: expected a folder of this user's (built bundles are kept there)`);
  if ((info.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return dir;
}

function fileStamp(path: string): [number, number] | undefined {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs];
  } catch {
    return undefined;
  }
}

function recordFile(key: string): string {
  return join(buildCacheFolder(), `record-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
}

/** The output files recorded under `key`, if they are all there and none of their sources changed since. */
export function reusableBuild(key: string): Record<string, string> | undefined {
  let record: BuildRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(key), 'utf8')) as BuildRecord;
  } catch {
    return undefined;
  }
  const unchanged = Object.entries(record.inputs).every(([path, [size, mtime]]) => {
    const now = fileStamp(path);
    return now !== undefined && now[0] === size && now[1] === mtime;
  });
  if (!unchanged || !Object.values(record.outputs).every((f) => existsSync(f))) return undefined;
  markUsed([recordFile(key), ...Object.values(record.outputs)]);
  return record.outputs;
}

/** An entry no process used for this long is removed when a process next writes to the cache. */
export const UNUSED_ENTRY_MS = 14 * 24 * 60 * 60 * 1000;

/** Renews `files`' modification time: a reused entry counts as used (pruneBuildCache keeps it). */
export function markUsed(files: readonly string[]): void {
  const now = new Date();
  for (const f of files) {
    try {
      utimesSync(f, now, now);
    } catch {
      // Gone meanwhile (another process pruned it): the caller already holds what it read.
    }
  }
}

let prunedThisProcess = false;

/**
 * Removes the cache's files that no process used for UNUSED_ENTRY_MS (builds of old sources,
 * submissions graded long ago); at most once a process, called by those that write to the cache.
 * Returns the files removed.
 */
export function pruneBuildCache(options: { dir?: string; now?: number; force?: boolean } = {}): string[] {
  if (prunedThisProcess && options.force !== true) return [];
  prunedThisProcess = true;
  const dir = options.dir ?? buildCacheFolder();
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    try {
      const info = lstatSync(file);
      if (info.isFile() && now - info.mtimeMs > UNUSED_ENTRY_MS) {
        rmSync(file, { force: true });
        removed.push(file);
      }
    } catch {
      // Removed by another process meanwhile.
    }
  }
  return removed;
}

/**
 * Keeps `texts` (output name → text) as files named by their content, and records them under `key`
 * with the stamps of `sources`; returns the files. A source that changes while the build runs
 * makes the record stale at once, which only costs a rebuild.
 */
export function recordBuild(key: string, texts: Record<string, { text: string; extension: string }>, sources: readonly string[]): Record<string, string> {
  pruneBuildCache();
  const dir = buildCacheFolder();
  const outputs: Record<string, string> = {};
  for (const [name, { text, extension }] of Object.entries(texts)) {
    const file = join(dir, outputFileName(name, text, extension));
    if (!existsSync(file)) writeAtomically(file, text, 0o600);
    outputs[name] = file;
  }
  const inputs: BuildRecord['inputs'] = {};
  for (const path of sources) {
    const stamp = fileStamp(path);
    if (stamp !== undefined) inputs[path] = stamp;
  }
  writeAtomically(recordFile(key), JSON.stringify({ outputs, inputs } satisfies BuildRecord), 0o600);
  return outputs;
}

/** The name recordBuild gives output `name` holding `text`: by content, so processes agree on it. */
export function outputFileName(name: string, text: string, extension: string): string {
  return `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}${extension}`;
}

