/**
 * The child runtime (framework/sandbox/child/), bundled by esbuild into one .mjs the first time a
 * session needs it in this process (about 0.1 s). The sandboxed child may read the bundle's
 * folder and nothing of the project, so everything the runtime uses is inside the bundle.
 *
 * The bundle is stored under its content hash in a folder of the user's own in the temp dir
 * (mode 0700), so processes share it and nothing needs removing when a grader is killed; the
 * folder holds nothing but runtime builds, all of them public framework code.
 *
 * The bundle must not contain the reference searches (a student could read them out of it):
 * the build checks that the only file it takes from agents/ is the basic heuristic.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { FRAMEWORK_DIR, PROJECT_ROOT } from './paths.ts';

export interface ChildRuntime {
  /** the bundled entry point */
  file: string;
  /** its folder (the child may read it) */
  dir: string;
}

/** The only files of agents/ the runtime may contain: given code, not a reference solution. */
const ALLOWED_FROM_AGENTS = new Set(['agents/heuristics/basic.ts']);

let cached: Promise<ChildRuntime> | undefined;

export function childRuntime(): Promise<ChildRuntime> {
  cached ??= buildRuntime().catch((e) => {
    cached = undefined;
    throw e;
  });
  return cached;
}

async function buildRuntime(): Promise<ChildRuntime> {
  const result = await build({
    entryPoints: [join(FRAMEWORK_DIR, 'sandbox', 'child', 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    write: false,
    logLevel: 'silent',
    absWorkingDir: PROJECT_ROOT,
  });
  const leaked = Object.keys(result.metafile.inputs)
    .map((input) => relative(PROJECT_ROOT, join(PROJECT_ROOT, input)))
    .filter((input) => input.startsWith('agents/') && !ALLOWED_FROM_AGENTS.has(input));
  if (leaked.length > 0) {
    throw new Error(`the sandbox runtime must not contain reference code, but it bundles ${leaked.join(', ')}`);
  }
  const code = result.outputFiles[0]!.contents;
  const dir = ownFolder(join(tmpdir(), `mancala-sandbox-runtime-${userInfo().uid}`));
  const file = join(dir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // Written aside and renamed: a grader starting at the same moment never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code, { mode: 0o600 });
    renameSync(partial, file);
  }
  return { file, dir };
}

/** `path` as a real folder of ours that only we may write (not a link someone planted). */
function ownFolder(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const info = lstatSync(path);
  if (!info.isDirectory() || info.uid !== userInfo().uid || (info.mode & 0o022) !== 0) {
    throw new Error(`${path}: expected a folder of this user's that others cannot write (the sandbox runtime is kept there)`);
  }
  return path;
}
