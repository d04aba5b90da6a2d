/**
 * The files a distributed run reads (its submissions, a tournament's agents given by path, an
 * openings file) travel with the run, through Redis: workers on other machines need no shared
 * folder. The coordinator packs each path as it named it; a worker writes them under a folder of
 * its own that mirrors the coordinator's absolute paths, `<root>/fs/<coordinator's path>`, and runs
 * the run's jobs from `<root>/fs/<coordinator's working folder>`: a relative path then names the
 * same files as on the coordinator, and the job's results (a report's paths, a note naming the
 * file that filled a role) read as a local run's. A path given as absolute is rewritten into the
 * mirror in the job's setup and items, and the mirror's prefix is taken out of every string of a
 * result.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { UserError } from '../errors.ts';
import { readRegularFileSync } from '../files/safe-read.ts';

/** A file or folder as it travels. */
export type PackedNode = { type: 'file'; mode: number; data: Buffer } | { type: 'dir'; entries: Record<string, PackedNode> } | { type: 'link'; target: string };

/** The most a path may hold: Redis keeps it in memory while the run lasts. */
export const MAX_PACKED_BYTES = 64 * 1024 * 1024;

/** `path` (relative to `cwd`, or absolute) packed, base64; a UserError when it is missing or too large. */
export function packPath(path: string, cwd: string): { packed: string; digest: string } {
  const abs = resolve(cwd, path);
  let total = 0;
  const pack = (p: string): PackedNode => {
    const s = lstatSync(p);
    if (s.isSymbolicLink()) return { type: 'link', target: readlinkSync(p) };
    if (s.isDirectory()) {
      const entries: Record<string, PackedNode> = {};
      for (const name of readdirSync(p).sort()) entries[name] = pack(join(p, name));
      return { type: 'dir', entries };
    }
    if (!s.isFile()) return { type: 'dir', entries: {} }; // a socket or a device: nothing a job reads
    total += s.size;
    if (total > MAX_PACKED_BYTES) throw new UserError(`${path}: more than ${MAX_PACKED_BYTES / 1024 / 1024} MB, too much to send to the workers through Redis`);
    // Opened with no link followed and as the regular file lstat saw (a name swapped since is read as nothing).
    const read = readRegularFileSync(p, s.size);
    return read.ok ? { type: 'file', mode: s.mode & 0o777, data: read.bytes } : { type: 'dir', entries: {} };
  };
  let node: PackedNode;
  try {
    node = pack(abs);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${path}: cannot read it to send it to the workers (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const bytes = serialize(node);
  return { packed: bytes.toString('base64'), digest: createHash('sha256').update(bytes).digest('hex') };
}

/** Where a worker writes the run's files: `fsRoot` + the coordinator's absolute path. */
export function mirrored(fsRoot: string, coordinatorCwd: string, path: string): string {
  return join(fsRoot, resolve(coordinatorCwd, path));
}

/** Writes a packed path (packPath) at its mirrored place under `fsRoot`. */
export function unpackPath(packed: string, fsRoot: string, coordinatorCwd: string, path: string): void {
  const abs = resolve(coordinatorCwd, path);
  const write = (node: PackedNode, at: string) => {
    if (node.type === 'dir') {
      mkdirSync(at, { recursive: true });
      for (const [name, child] of Object.entries(node.entries)) {
        if (name === '' || name === '.' || name === '..' || name.includes('/')) continue;
        write(child, join(at, name));
      }
    } else if (node.type === 'file') {
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, node.data);
      chmodSync(at, node.mode);
    } else {
      mkdirSync(dirname(at), { recursive: true });
      // An absolute link into the shipped path points into the mirror, as it pointed into the original.
      const inside = isAbsolute(node.target) && !relative(abs, node.target).startsWith('..');
      symlinkSync(inside ? join(fsRoot, node.target) : node.target, at);
    }
  };
  write(deserialize(Buffer.from(packed, 'base64')) as PackedNode, join(fsRoot, abs));
}

/** `value` with every string `edit` changes changed (plain data: objects, arrays, Maps, Sets). */
export function mapStrings<T>(value: T, edit: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return edit(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [walk(k), walk(x)]));
    if (v instanceof Set) return new Set([...v].map(walk));
    if (v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** The edit that moves the run's absolute paths (as named, also with `:options` or a sub-path after them) into the mirror. */
export function intoMirror(fsRoot: string, paths: readonly string[]): (s: string) => string {
  const absolute = paths.filter((p) => isAbsolute(p));
  if (absolute.length === 0) return (s) => s;
  return (s) => (absolute.some((p) => s === p || s.startsWith(`${p}:`) || s.startsWith(`${p}/`)) ? join(fsRoot, s) : s);
}

/** The edit that takes the mirror's prefix out of a result's strings. */
export function outOfMirror(fsRoot: string): (s: string) => string {
  return (s) => (s.includes(fsRoot) ? s.split(fsRoot).join('') : s);
}
