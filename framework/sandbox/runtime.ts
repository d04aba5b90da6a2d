/**
 * The child runtimes (framework/sandbox/child/), each bundled by esbuild into one .mjs the first
 * time a session needs it in this process (about 0.1 s). The sandboxed child may read the bundle's
 * folder and nothing of the project, so everything a runtime uses is inside its bundle.
 *
 * Two runtimes, because of what student code in the process can read:
 *  - `agent` (child/main.ts): runs a submission's agent and heuristic roles. It must not contain
 *    the reference searches: a student's agent could read them out of the bundle (or its memory)
 *    and reuse or print them. The build checks that the only file it takes from agents/ is the
 *    basic heuristic (given code).
 *  - `player` (child/player-main.ts): the reference alpha-beta (agents/alphabeta.ts and what it
 *    imports) playing with a submission's HEURISTIC role, for playoffs that grade a heuristic
 *    ("your heuristic under our alpha-beta", seed 001). Student code in that process can read the
 *    reference search, so the process is built to have nowhere to carry it: it cannot write or
 *    reach the network (the same sandbox as every child), it loads heuristic roles only (never
 *    the submission's agent, session.ts refuses), it starts only where the network is cut off,
 *    and what it says back is bounded (session.ts clips its messages). See session.ts.
 *
 * Each bundle is stored under its content hash in a folder of the user's own in the temp dir
 * (mode 0700), so processes share it and nothing needs removing when a grader is killed. The two
 * runtimes live in DIFFERENT folders, neither a prefix of the other: an agent process may read
 * its runtime's folder, and must not find the player runtime (the reference search) there.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { FRAMEWORK_DIR, PROJECT_ROOT } from './paths.ts';

export type RuntimeKind = 'agent' | 'player';

export interface ChildRuntime {
  kind: RuntimeKind;
  /** the bundled entry point */
  file: string;
  /** its folder (the child may read it) */
  dir: string;
}

interface RuntimeRecipe {
  entry: string;
  /** the folder name under the temp dir (the user's uid is appended) */
  folder: string;
  /** the only files of agents/ this runtime may contain */
  fromAgents: ReadonlySet<string>;
}

const RECIPES: Record<RuntimeKind, RuntimeRecipe> = {
  agent: {
    entry: 'main.ts',
    folder: 'mancala-sandbox-runtime',
    // Given code only, never a reference solution.
    fromAgents: new Set(['agents/heuristics/basic.ts']),
  },
  player: {
    entry: 'player-main.ts',
    folder: 'mancala-player-runtime',
    // The reference alpha-beta and what it imports; not the other searches, not `advanced`.
    fromAgents: new Set([
      'agents/heuristics/basic.ts',
      'agents/alphabeta.ts',
      'agents/search-agent.ts',
      'agents/agent-options.ts',
      'agents/reference/alphabeta.ts',
      'agents/reference/search-stack.ts',
    ]),
  },
};

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

/** The folder a runtime is kept in (the agent process may read the agent one only). */
export function runtimeFolder(kind: RuntimeKind): string {
  return join(tmpdir(), `${RECIPES[kind].folder}-${userInfo().uid}`);
}

async function buildRuntime(kind: RuntimeKind): Promise<ChildRuntime> {
  const recipe = RECIPES[kind];
  const result = await build({
    entryPoints: [join(FRAMEWORK_DIR, 'sandbox', 'child', recipe.entry)],
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
    .filter((input) => input.startsWith('agents/') && !recipe.fromAgents.has(input));
  if (leaked.length > 0) {
    throw new Error(`the ${kind} sandbox runtime must not contain reference code beyond ${[...recipe.fromAgents].join(', ')}, but it bundles ${leaked.join(', ')}`);
  }
  const code = result.outputFiles[0]!.contents;
  // The agent runtime holds given code only and is read by the jail's unprivileged user; the
  // player runtime holds the reference search, and only the grader's own user may read it.
  const shared = kind === 'agent';
  const dir = ownFolder(runtimeFolder(kind), shared ? 0o755 : 0o700);
  const file = join(dir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // Written aside and renamed: a grader starting at the same moment never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code, { mode: shared ? 0o644 : 0o600 });
    renameSync(partial, file);
  } else if (shared) {
    chmodSync(file, 0o644); // written by an older grader that kept it private
  }
  return { kind, file, dir };
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
