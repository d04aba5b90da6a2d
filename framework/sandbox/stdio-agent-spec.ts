/**
 * Is a submission an agent in another language, spoken to over stdio (agents/clients/PROTOCOL.md)?
 * And if so, how is it built and started?
 *
 *  - A folder with a manifest, `mancala-agent.json`: `{"protocol": 1, "run": "python3 agent.py",
 *    "build": "javac -d classes *.java"}` (`build` optional; `run` a command line or a list of words).
 *  - Inferred, without a manifest: a folder with `agent.py` (python3 agent.py), or with top-level
 *    `.java` files that use the client (MancalaAgent), one of which has a `main` (compiled with
 *    javac, the client library on the source path; run with java).
 * A folder with a TypeScript or JavaScript module (agent.ts, agent_alphabeta.ts …) and no manifest
 * is not a stdio agent: the TypeScript roles are looked for there, as before.
 *
 * To merge later: program-build.ts (another module, under way) infers builds for file-in/file-out
 * programs; both should end up asking one "how is this folder built and run" module.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.ts';

export const STDIO_MANIFEST = 'mancala-agent.json';
/** The protocol versions this grader speaks. */
export const STDIO_PROTOCOL_VERSIONS: readonly number[] = [1];

export interface StdioAgentSpec {
  /** the submission folder, as given */
  dir: string;
  /** the program's words (the first one a runtime on the grader's PATH, or a file of the submission) */
  run: string[];
  /** a shell command run once in the work folder before the program (its output goes to the log) */
  build?: string;
  /** how it was found, for reports: the manifest, or what was inferred */
  source: string;
}

/** A TypeScript or JavaScript module: a folder holding one is a TypeScript agent unless its manifest says otherwise. */
const SCRIPT_MODULE = /\.(m?[jt]s|c[jt]s|tsx)$/;

const manifestSchema = z.strictObject({
  protocol: z.number().int(),
  run: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  build: z.string().min(1).optional(),
  name: z.string().optional(),
});

/** The stdio agent at `path`, or undefined when it is something else (a TypeScript agent, a file). */
export async function findStdioAgent(path: string): Promise<StdioAgentSpec | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return undefined;
  const names = await readdir(path);
  if (names.includes(STDIO_MANIFEST)) return readManifest(path);
  if (names.some((n) => SCRIPT_MODULE.test(n))) return undefined;
  if (names.includes('agent.py')) return { dir: path, run: ['python3', 'agent.py'], source: 'agent.py, run with python3 (inferred)' };
  const javaFiles = names.filter((n) => n.endsWith('.java')).sort();
  if (javaFiles.length > 0) return javaAgent(path, javaFiles);
  return undefined;
}

async function readManifest(dir: string): Promise<StdioAgentSpec> {
  const file = join(dir, STDIO_MANIFEST);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: expected valid JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
    const expected: Record<string, string> = {
      protocol: `a protocol version (${STDIO_PROTOCOL_VERSIONS.join(', ')})`,
      run: 'a command line such as "python3 agent.py", or a list of words',
      build: 'a shell command such as "javac -d classes *.java"',
      name: 'a string',
    };
    const what = field !== undefined && expected[String(field)] !== undefined ? expected[String(field)] : 'fields protocol, run, build (optional), name (optional)';
    throw new UserError(`${file}: field "${field ?? ''}": expected ${what}${issue.code === 'unrecognized_keys' ? ' (unknown field)' : ''}`);
  }
  const m = parsed.data;
  if (!STDIO_PROTOCOL_VERSIONS.includes(m.protocol)) {
    throw new UserError(`${file}: field "protocol": this grader speaks protocol ${STDIO_PROTOCOL_VERSIONS.join(', ')}, got ${m.protocol}`);
  }
  const run = typeof m.run === 'string' ? m.run.trim().split(/\s+/) : m.run;
  return { dir, run, ...(m.build !== undefined ? { build: m.build } : {}), source: `${STDIO_MANIFEST}: ${run.join(' ')}` };
}

/**
 * Java without a manifest: a folder whose code uses the client (MancalaAgent); the one top-level
 * class with a `main` is run, every top-level file compiled. Java that does not use the client (a
 * file-in/file-out program, say) is not taken for a stdio agent.
 */
async function javaAgent(dir: string, javaFiles: string[]): Promise<StdioAgentSpec | undefined> {
  const withMain: string[] = [];
  let usesClient = false;
  for (const name of javaFiles) {
    const text = await readFile(join(dir, name), 'utf8');
    if (/\bMancalaAgent\b/.test(text)) usesClient = true;
    if (/\bstatic\s+(public\s+)?void\s+main\s*\(/.test(text)) withMain.push(name.slice(0, -'.java'.length));
  }
  if (!usesClient) return undefined;
  if (withMain.length !== 1) {
    const found = withMain.length === 0 ? 'none has' : `${withMain.join(', ')} have`;
    throw new UserError(`${dir}: of its .java files ${found} a main method; expected exactly one (or add ${STDIO_MANIFEST} with "run")`);
  }
  // The client library (MancalaAgent.java) comes from the grader unless the folder has its own: the source path finds it.
  const build = 'javac -encoding UTF-8 -d classes -sourcepath ".:$MANCALA_CLIENTS/java" *.java';
  return { dir, run: ['java', '-cp', 'classes', withMain[0]!], build, source: `${withMain[0]}.java, compiled with javac and run with java (inferred)` };
}
