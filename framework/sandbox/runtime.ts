/**
 * The child runtimes, bundled by esbuild the first time a session needs them in this process
 * (about 0.1 s), or taken from the build cache when their sources did not change. The sandboxed child may read a runtime's folder and nothing of the project, so
 * everything a runtime uses is inside its bundle.
 *
 * Two runtimes, because of what runs beside student code:
 *  - `agent` (child/main.ts): runs a submission's agent and heuristic roles. It must not contain
 *    the reference searches: a student's agent could reuse or print them. The build checks that it
 *    takes nothing from outside framework/ (which holds no reference solution; its one heuristic,
 *    `basic`, is given code).
 *  - `player` (registered by the agents plugin, framework/plugins/player-runtime.ts): the reference
 *    alpha-beta playing with a submission's HEURISTIC role, for playoffs that grade a heuristic
 *    ("your heuristic under our alpha-beta", seed 001). The heuristic must not read the search;
 *    the build checks that the bundle takes nothing outside framework/ but the registered files.
 *
 * Neither runtime's bundle is ever written where a child can read it (the build cache that keeps
 * them between processes is a folder only the grader's user may enter, which no jail mounts:
 * build-cache.ts). What the child runs from disk is a small
 * bootstrap (child/bootstrap.ts: node built-ins and the channel, no grader logic, nothing of
 * agents/); the runtime, bundled as CommonJS, is held here in memory and sent to the child in the
 * boot message (protocol.ts) with a fresh token, and the bootstrap compiles it from memory under a
 * neutral name (`mancala-player-runtime`). So a readable folder holds nothing worth reading, and
 * stack traces name no file and carry no source.
 *
 * Each bootstrap is stored under its content hash in a folder of the user's own in the temp dir
 * (mode 0755: the jail's unprivileged user reads it), one folder per runtime, neither a prefix of
 * the other. Their names are new with the bootstrap: the older folders held whole bundles.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version } from 'esbuild';
import { recordBuild, reusableBuild } from '../build-cache.ts';
import { writeAtomically } from '../write-file.ts';
import { playerRuntime } from '../plugins/player-runtime.ts';
import { FRAMEWORK_DIR, isInside, isPackageFile, PROJECT_ROOT } from './paths.ts';

export type RuntimeKind = 'agent' | 'player';

export interface ChildRuntime {
  kind: RuntimeKind;
  /** the bootstrap: the file the child runs */
  file: string;
  /** the bootstrap's folder (the child may read it; nothing else of the runtime is on disk) */
  dir: string;
  /** what the runtime's code is compiled as in the child: the file name its stack frames show */
  name: string;
  /** the runtime, bundled as CommonJS, sent in the boot message */
  code: string;
}

interface RuntimeRecipe {
  /** the entry module, an absolute path */
  entry: string;
  /** the folder name under the temp dir (the user's uid is appended) */
  folder: string;
  /** the only project files outside framework/ this runtime may contain (relative to the project root) */
  outsideFramework: ReadonlySet<string>;
}

const FOLDERS: Record<RuntimeKind, string> = { agent: 'mancala-sandbox-boot-agent', player: 'mancala-sandbox-boot-player' };

/** Read when a runtime is built, not at import: the player runtime is a plugin's. */
function recipe(kind: RuntimeKind): RuntimeRecipe {
  if (kind === 'agent') return { entry: childModule('main.ts'), folder: FOLDERS.agent, outsideFramework: new Set() };
  const player = playerRuntime();
  return { entry: player.entry, folder: FOLDERS.player, outsideFramework: new Set(player.files) };
}

function childModule(name: string): string {
  return join(FRAMEWORK_DIR, 'sandbox', 'child', name);
}

const cached = new Map<RuntimeKind, Promise<ChildRuntime>>();

export function childRuntime(kind: RuntimeKind = 'agent'): Promise<ChildRuntime> {
  let runtime = cached.get(kind);
  if (runtime === undefined) {
    runtime = buildRuntime(kind).catch((e) => {
      cached.delete(kind);
      throw e;
    });
    cached.set(kind, runtime);
  }
  return runtime;
}

/** The folder a runtime's bootstrap is kept in. */
export function runtimeFolder(kind: RuntimeKind): string {
  return join(tmpdir(), `${FOLDERS[kind]}-${userInfo().uid}`);
}

async function buildRuntime(kind: RuntimeKind): Promise<ChildRuntime> {
  const { runtime, bootstrap } = await runtimeTexts(kind);
  const dir = ownFolder(runtimeFolder(kind), 0o755);
  const file = join(dir, `boot-${createHash('sha256').update(bootstrap).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) writeAtomically(file, bootstrap, 0o644);
  const built = { kind, file, dir, name: `mancala-${kind}-runtime`, code: runtime };
  return built;
}

/**
 * The runtime and its bootstrap as text: from the build cache (build-cache.ts: a folder the jail
 * never sees) while none of their sources changed, else built (and checked) now. Every grading
 * process and every thread of its pool needs them: built each time, they cost 100-300 ms of a core.
 */
async function runtimeTexts(kind: RuntimeKind): Promise<{ runtime: string; bootstrap: string }> {
  const { entry, outsideFramework } = recipe(kind);
  const key = `sandbox runtime\n${kind}\n${entry}\n${[...outsideFramework].join(',')}\n${version}`;
  const reused = reusableBuild(key);
  if (reused !== undefined) return { runtime: readFileSync(reused.runtime!, 'utf8'), bootstrap: readFileSync(reused.bootstrap!, 'utf8') };
  // CommonJS: the bootstrap compiles it as a function body (vm.Script), which cannot hold imports.
  const runtime = await bundle(entry, 'cjs', outsideFramework, `the ${kind} sandbox runtime`);
  const bootstrap = await bundle(childModule('bootstrap.ts'), 'esm', new Set(), 'the sandbox bootstrap');
  // This file is a source too: it says how they are built and checked.
  const sources = [fileURLToPath(import.meta.url), ...runtime.inputs, ...bootstrap.inputs];
  recordBuild(key, { runtime: { text: runtime.text, extension: '.cjs' }, bootstrap: { text: bootstrap.text, extension: '.mjs' } }, sources);
  return { runtime: runtime.text, bootstrap: bootstrap.text };
}

/**
 * One entry module bundled for Node, as text with the files it read. Throws if it takes a project file outside
 * framework/ that `outsideFramework` does not list; `what` names the bundle in that message.
 */
async function bundle(entry: string, format: 'cjs' | 'esm', outsideFramework: ReadonlySet<string>, what: string): Promise<{ text: string; inputs: string[] }> {
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
    .map((path) => relative(PROJECT_ROOT, path))
    .filter((input) => !outsideFramework.has(input));
  if (leaked.length > 0) {
    const allowed = outsideFramework.size === 0 ? 'nothing outside framework/' : `nothing outside framework/ beyond ${[...outsideFramework].join(', ')}`;
    throw new Error(`${what} must contain ${allowed}, but it bundles ${leaked.join(', ')}`);
  }
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
