/**
 * The child runtime, bundled by esbuild the first time a session needs it in this process (about
 * 0.1 s), or taken from the build cache when its sources did not change. The sandboxed child may
 * read the runtime's folder and nothing of the project, so everything the runtime uses is inside
 * its bundle.
 *
 * One runtime (child/main.ts), which runs a submission's agent and heuristic roles. It must not
 * contain a reference search: student code could reuse or print it. The build checks that it
 * takes nothing from outside framework/ (which holds no reference solution; its one heuristic,
 * `basic`, is given code). A heuristic's playoff ("your heuristic under our alpha-beta") runs the
 * reference alpha-beta in the grader (grading/grader-search-player.ts), never here.
 *
 * The bundle is never written where a child can read it (the build cache that keeps it between
 * processes is a folder only the grader's user may enter, which no jail mounts: build-cache.ts).
 * What the child runs from disk is a small bootstrap (child/bootstrap.ts: node built-ins and the
 * channel, no grader logic); the runtime, bundled as CommonJS, is held here in memory and sent to
 * the child in the boot message (protocol.ts) with a fresh token, and the bootstrap compiles it
 * from memory under a neutral name (`mancala-agent-runtime`). So stack traces name no file of the
 * grader's and carry no source.
 *
 * The bootstrap is stored under its content hash in a folder of the user's own in the temp dir
 * (mode 0755: the jail's unprivileged user reads it).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version } from 'esbuild';
import { recordBuild, reusableBuild } from '../build-cache.ts';
import { writeAtomically } from '../write-file.ts';
import { FRAMEWORK_DIR, isInside, isPackageFile, PROJECT_ROOT } from './paths.ts';

export interface ChildRuntime {
  /** the bootstrap: the file the child runs */
  file: string;
  /** the bootstrap's folder (the child may read it; nothing else of the runtime is on disk) */
  dir: string;
  /** what the runtime's code is compiled as in the child: the file name its stack frames show */
  name: string;
  /** the runtime, bundled as CommonJS, sent in the boot message */
  code: string;
}

/** The folder name of the bootstrap under the temp dir (the user's uid is appended). */
const FOLDER = 'mancala-sandbox-boot-agent';

function childModule(name: string): string {
  return join(FRAMEWORK_DIR, 'sandbox', 'child', name);
}

let cached: Promise<ChildRuntime> | undefined;

export function childRuntime(): Promise<ChildRuntime> {
  cached ??= buildRuntime().catch((e) => {
    cached = undefined;
    throw e;
  });
  return cached;
}

/** The folder the runtime's bootstrap is kept in. */
export function runtimeFolder(): string {
  return join(tmpdir(), `${FOLDER}-${userInfo().uid}`);
}

async function buildRuntime(): Promise<ChildRuntime> {
  const { runtime, bootstrap } = await runtimeTexts();
  const dir = ownFolder(runtimeFolder(), 0o755);
  const file = join(dir, `boot-${createHash('sha256').update(bootstrap).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) writeAtomically(file, bootstrap, 0o644);
  return { file, dir, name: 'mancala-agent-runtime', code: runtime };
}

/**
 * The runtime and its bootstrap as text: from the build cache (build-cache.ts: a folder the jail
 * never sees) while none of their sources changed, else built (and checked) now. Every grading
 * process and every thread of its pool needs them: built each time, they cost 100-300 ms of a core.
 */
async function runtimeTexts(): Promise<{ runtime: string; bootstrap: string }> {
  const entry = childModule('main.ts');
  const key = `sandbox runtime\nagent\n${entry}\n${version}`;
  const reused = reusableBuild(key);
  if (reused !== undefined) return { runtime: readFileSync(reused.runtime!, 'utf8'), bootstrap: readFileSync(reused.bootstrap!, 'utf8') };
  // CommonJS: the bootstrap compiles it as a function body (vm.Script), which cannot hold imports.
  const runtime = await bundle(entry, 'cjs', 'the sandbox runtime');
  const bootstrap = await bundle(childModule('bootstrap.ts'), 'esm', 'the sandbox bootstrap');
  // This file is a source too: it says how they are built and checked.
  const sources = [fileURLToPath(import.meta.url), ...runtime.inputs, ...bootstrap.inputs];
  recordBuild(key, { runtime: { text: runtime.text, extension: '.cjs' }, bootstrap: { text: bootstrap.text, extension: '.mjs' } }, sources);
  return { runtime: runtime.text, bootstrap: bootstrap.text };
}

/**
 * One entry module bundled for Node, as text with the files it read. Throws if it takes a project
 * file outside framework/ (agents/ holds the reference searches); `what` names the bundle in that message.
 */
export async function bundle(entry: string, format: 'cjs' | 'esm', what: string): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format,
    platform: 'node',
    target: 'node20',
    metafile: true,
    write: false,
    logLevel: 'silent',
    absWorkingDir: PROJECT_ROOT,
  });
  const leaked = Object.keys(result.metafile.inputs)
    .map((input) => join(PROJECT_ROOT, input))
    .filter((path) => !isInside(FRAMEWORK_DIR, path) && !isPackageFile(path))
    .map((path) => relative(PROJECT_ROOT, path));
  if (leaked.length > 0) throw new Error(`${what} must contain nothing outside framework/, but it bundles ${leaked.join(', ')}`);
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs).map((input) => join(PROJECT_ROOT, input)) };
}

/** `path` as a real folder of ours that only we may write (not a link someone planted). */
function ownFolder(path: string, mode: number): string {
  mkdirSync(path, { recursive: true, mode });
  const info = lstatSync(path);
  if (!info.isDirectory() || info.uid !== userInfo().uid || (info.mode & 0o022) !== 0) {
    throw new Error(`${path}: expected a folder of this user's that others cannot write (the sandbox runtime is kept there)`);
  }
  if ((info.mode & 0o777) !== mode) chmodSync(path, mode);
  return path;
}
