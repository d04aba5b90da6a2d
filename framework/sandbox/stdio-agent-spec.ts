/**
 * Is a submission an agent in another language, spoken to over stdio (agents/clients/PROTOCOL.md)?
 * And if so, how is it built and started?
 *
 *  - A folder whose manifest, `mancala.yaml` (the one every submission folder uses:
 *    program-build-plan.ts), says `protocol: 1`, with `run:` and optionally `build:`. A manifest
 *    without `protocol:` is a file-in/file-out program's, not an agent's.
 *  - Inferred, without a manifest: a folder with `agent.py` (python3 agent.py), or with `.java`
 *    files that use the client (MancalaAgent), planned as any Java sources are (inferBuildPlan:
 *    javac honouring packages, the one class with `main` run with java).
 * A folder with a TypeScript or JavaScript module (agent.ts, agent_alphabeta.ts …) and no manifest
 * is not a stdio agent: the TypeScript roles are looked for there, as before.
 * The build, if any, runs once in the sandbox as a file program's does (program-build.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import { UserError } from '../errors.ts';
import { listSubmissionFiles, readManifest } from './program-build-files.ts';
import { inferBuildPlan, MANIFEST_FILE } from './program-build-plan.ts';

export { STDIO_PROTOCOL_VERSIONS } from './program-build-plan.ts';

/** The Java client's file: the grader puts its copy in a Java agent's build folder when the submission has none. */
export const JAVA_CLIENT_FILE = 'MancalaAgent.java';

export interface StdioAgentSpec {
  /** the submission folder, as given */
  dir: string;
  /** the program's words (the first one a runtime on the grader's PATH, or a file of the submission) */
  run: string[];
  /** a shell line run once in the sandbox before the program's first start (program-build.ts) */
  build?: string;
  /** the build's folder gets the grader's Java client (JAVA_CLIENT_FILE): the submission has Java sources and no copy of its own */
  javaClient?: boolean;
  /** how it was found, for reports: the manifest, or what was inferred */
  source: string;
}

/** A TypeScript or JavaScript module: a folder holding one is a TypeScript agent unless its manifest says otherwise. */
const SCRIPT_MODULE = /\.(m?[jt]s|c[jt]s|tsx)$/;

/** The stdio agent at `path`, or undefined when it is something else (a TypeScript agent, a file program, a file). */
export async function findStdioAgent(path: string): Promise<StdioAgentSpec | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return undefined;
  const names = await readdir(path);
  if (names.includes(MANIFEST_FILE)) {
    const plan = readManifest(path);
    if (plan === undefined) return undefined;
    if ('problem' in plan) throw new UserError(`${path}: ${plan.problem}`);
    if (plan.protocol === undefined) return undefined;
    const build = plan.build === undefined ? {} : { build: plan.build, ...(needsJavaClient(path) ? { javaClient: true } : {}) };
    return { dir: path, run: plan.run, ...build, source: plan.why };
  }
  if (names.some((n) => SCRIPT_MODULE.test(n))) return undefined;
  if (names.includes('agent.py')) return { dir: path, run: ['python3', 'agent.py'], source: 'agent.py, run with python3 (inferred)' };
  if (names.some((n) => n.endsWith('.java'))) return javaAgent(path);
  return undefined;
}

/** Java sources and no copy of the client among them. */
function needsJavaClient(dir: string): boolean {
  const files = listSubmissionFiles(dir);
  return files.some((f) => f.path.endsWith('.java')) && !files.some((f) => f.path === JAVA_CLIENT_FILE || f.path.endsWith(`/${JAVA_CLIENT_FILE}`));
}

/**
 * Java without a manifest: a folder whose code uses the client (MancalaAgent), planned as any Java
 * sources (javac -d ., java -cp . the class with main); the client comes from the grader unless
 * the folder has its own. Java that does not use the client (a file-in/file-out program, say) is
 * not taken for a stdio agent.
 */
function javaAgent(dir: string): StdioAgentSpec | undefined {
  const java = listSubmissionFiles(dir).filter((f) => f.path.endsWith('.java'));
  if (!java.some((f) => /\bMancalaAgent\b/.test(f.text ?? ''))) return undefined;
  const plan = inferBuildPlan(java);
  if ('problem' in plan) throw new UserError(`${dir}: ${plan.problem}, with protocol: 1 for an agent over stdio`);
  return { dir, run: plan.run, ...(plan.build !== undefined ? { build: plan.build } : {}), ...(needsJavaClient(dir) ? { javaClient: true } : {}), source: `${plan.why} (inferred: an agent over stdio using the client)` };
}
