/**
 * Is a submission an agent in another language, spoken to over stdio (agents/clients/PROTOCOL.md)?
 * And if so, how is it built and started?
 *
 *  - A folder whose manifest, `mancala.yaml` (the one every submission folder uses:
 *    programs/build-plan.ts), says `protocol: 1`, with `run:` and optionally `build:`. A manifest
 *    without `protocol:` is a file-in/file-out program's, not an agent's.
 *  - Inferred, without a manifest: a folder with `agent.py` (python3 agent.py), or with `.java`
 *    files that use the client (MancalaAgent), planned as any Java sources are (inferBuildPlan:
 *    javac honouring packages, the one class with `main` run with java).
 *  - A course's own API (the files its students write, run unchanged): seed 003's (CS540) Java
 *    player, a class extending the course's `Player`, compiled with the project's own Player and
 *    GameState (agents/clients/cs540/) and run by its bridge, Cs540Bridge; seed 002's (CPSC 4610)
 *    player file, YourPlayer.py holding the course's Player, MancalaPlayer and `class NAME(Player)`
 *    (or a tournament entry, NAME.py with `class NAME(Player)`), run with the project's own
 *    MancalaBoard and TicTacToe by its bridge (agents/clients/cpsc4610/), which answers evaluate
 *    requests too; seed 001's (CSC384) utils.py,
 *    agent_minimax.py and agent_alphabeta.py, run with the project's mancala_game by its bridge
 *    (agents/clients/csc384/), which answers evaluate requests too.
 * A folder with a TypeScript or JavaScript module (agent.ts, agent_alphabeta.ts …) and no manifest
 * is not a stdio agent: the TypeScript roles are looked for there, as before.
 * The build, if any, runs once in the sandbox as a file program's does (programs/build.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import { hasEntry, notRegularFile } from '../../files/submission-entries.ts';
import { listSubmissionFiles, readManifest } from '../programs/build-files.ts';
import { inferBuildPlan, MANIFEST_FILE } from '../programs/build-plan.ts';
import { CLIENTS_DIR } from '../paths.ts';

export { STDIO_PROTOCOL_VERSIONS } from '../programs/build-plan.ts';

/** The Java client's file: the grader puts its copy in a Java agent's build folder when the submission has none. */
export const JAVA_CLIENT_FILE = 'MancalaAgent.java';

export interface StdioAgentSpec {
  /** the submission folder, as given */
  dir: string;
  /** the program's words (the first one a runtime on the grader's PATH, or a file of the submission) */
  run: string[];
  /** a shell line run once in the sandbox before the program's first start (programs/build.ts) */
  build?: string;
  /** the grader's files (name → absolute path) put in the build's folder before it runs: the Java client, a course's own classes */
  supportFiles?: Readonly<Record<string, string>>;
  /** how it was found, for reports: the manifest, or what was inferred */
  source: string;
  /** it answers evaluate requests too (a heuristic's value: PROTOCOL.md), so it fills a suite's heuristic roles */
  evaluates?: boolean;
}

/** A TypeScript or JavaScript module: a folder holding one is a TypeScript agent unless its manifest says otherwise. */
const SCRIPT_MODULE = /\.(m?[jt]s|c[jt]s|tsx)$/;

/** The stdio agent at `path`, or undefined when it is something else (a TypeScript agent, a file program, a file). */
export async function findStdioAgent(path: string): Promise<StdioAgentSpec | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return undefined;
  const names = await readdir(path);
  // The names that decide what the folder is must be regular files: a link (wherever it points)
  // or a FIFO there is refused in one line naming it, as the submission's own error.
  for (const name of [MANIFEST_FILE, 'agent.py', ...CSC384_FILES]) {
    const refused = names.includes(name) ? notRegularFile(path, name) : undefined;
    if (refused !== undefined) throw new UserError(`${path}: ${refused}`);
  }
  if (hasEntry(path, MANIFEST_FILE)) {
    const plan = readManifest(path);
    if (plan === undefined) return undefined;
    if ('problem' in plan) throw new UserError(`${path}: ${plan.problem}`);
    if (plan.protocol === undefined) return undefined;
    const build = plan.build === undefined ? {} : { build: plan.build, ...(needsJavaClient(path) ? { supportFiles: JAVA_CLIENT } : {}) };
    return { dir: path, run: plan.run, ...build, source: plan.why };
  }
  if (names.some((n) => SCRIPT_MODULE.test(n))) return undefined;
  if (names.includes('agent.py')) return { dir: path, run: ['python3', 'agent.py'], source: 'agent.py, run with python3 (inferred)' };
  if (names.some((n) => n.endsWith('.py'))) {
    if (CSC384_FILES.some((f) => names.includes(f))) return csc384Agent(path, names);
    const player = cpsc4610Player(path);
    if (player !== undefined) return player;
  }
  if (names.some((n) => n.endsWith('.java'))) return cs540Player(path) ?? javaAgent(path);
  return undefined;
}

/** The Java client, put beside Java sources that use it and hold no copy of it. */
const JAVA_CLIENT: Readonly<Record<string, string>> = { [JAVA_CLIENT_FILE]: join(CLIENTS_DIR, 'java', JAVA_CLIENT_FILE) };

/** Seed 003's classes as the project wrote them, the bridge that runs a player over stdio, and the client's JSON reader it uses. */
const CS540_FILES: Readonly<Record<string, string>> = {
  ...JAVA_CLIENT,
  ...Object.fromEntries(['Player.java', 'GameState.java', 'Cs540Bridge.java'].map((f) => [f, join(CLIENTS_DIR, 'cs540', f)])),
};

/** The files seed 001 (CSC384) has its students submit. */
const CSC384_FILES = ['agent_minimax.py', 'agent_alphabeta.py', 'utils.py'];

/**
 * Seed 001's (CSC384) submission: utils.py, agent_minimax.py and agent_alphabeta.py written against
 * the course's mancala_game (the project's own, agents/clients/csc384/, which takes the place of a
 * copy in the folder). Its bridge answers move requests with the student's search functions and
 * evaluate requests with its heuristics, so it fills a suite's heuristic roles too.
 */
function csc384Agent(dir: string, names: string[]): StdioAgentSpec {
  const present = CSC384_FILES.filter((f) => names.includes(f));
  return {
    dir,
    run: ['python3', join(CLIENTS_DIR, 'csc384', 'csc384_bridge.py')],
    evaluates: true,
    source: `${present.join(', ')}: CSC384's files, run with the project's mancala_game`,
  };
}

/**
 * Seed 002's (CPSC 4610) own API: the course's submission, YourPlayer.py (its Player.py renamed
 * after the student's player), holding the course's Player class (Problem 2's alphaBetaMove in
 * it), `class MancalaPlayer(Player)` (Problem 1's score) and the custom player `class NAME(Player)`
 * named after the file, as the course's tournament creates it, NAME.NAME(1, NAME.Player.CUSTOM).
 * A file with only the custom player (a tournament entry) is one too. Run by the bridge with the
 * project's MancalaBoard and TicTacToe (agents/clients/cpsc4610/, which take the place of copies in
 * the folder); it fills every role of the cpsc4610 and tictactoe suites, the scoring function's
 * (evaluate requests, and its playoff with the reference alpha-beta in the bridge) included.
 *
 * Which file: the one holding `class NAME(Player)` after its own name; else the one holding both
 * the course's `class Player` and `class MancalaPlayer(Player)` (a Player.py not renamed yet: its
 * custom player's cases then say to rename it).
 */
function cpsc4610Player(dir: string): StdioAgentSpec | undefined {
  const python = listSubmissionFiles(dir)
    .filter((f) => f.path.endsWith('.py') && !f.path.includes('/'))
    .map((f) => ({ name: f.path.slice(0, -'.py'.length), text: f.text ?? '' }))
    .filter(({ name }) => /^\w+$/.test(name));
  const classOf = (text: string, name: string, base?: string) =>
    new RegExp(base === undefined ? `^class\\s+${name}\\s*[(:]` : `^class\\s+${name}\\s*\\(\\s*${base}\\s*\\)\\s*:`, 'm').test(text);
  const named = python.filter(({ name, text }) => name !== 'Player' && classOf(text, name, 'Player'));
  if (named.length > 1) throw new UserError(`${dir}: ${named.map((p) => `${p.name}.py`).join(', ')} each hold a player class of their name: a CPSC 4610 submission is one player, NAME.py; keep one`);
  let chosen = named[0];
  if (chosen === undefined) {
    const course = python.filter(({ text }) => classOf(text, 'Player') && classOf(text, 'MancalaPlayer', 'Player'));
    if (course.length > 1) throw new UserError(`${dir}: ${course.map((p) => `${p.name}.py`).join(', ')} each hold the course's Player and MancalaPlayer classes: a CPSC 4610 submission is one file, YourPlayer.py; keep one`);
    chosen = course[0];
  }
  if (chosen === undefined) return undefined;
  const { name, text } = chosen;
  const parts = [classOf(text, 'Player') ? 'Player' : undefined, classOf(text, 'MancalaPlayer', 'Player') ? 'MancalaPlayer(Player)' : undefined, name !== 'Player' ? `${name}(Player)` : undefined];
  return {
    dir,
    run: ['python3', join(CLIENTS_DIR, 'cpsc4610', 'cpsc4610_bridge.py'), name],
    evaluates: true,
    source: `${name}.py: class ${parts.filter((p) => p !== undefined).join(', class ')}, CPSC 4610's player file, run with the project's MancalaBoard and TicTacToe`,
  };
}

const EXTENDS_PLAYER = /\bclass\s+(\w+)\s+extends\s+Player\b/g;

/**
 * Seed 003's (CS540) own API: a class extending the course's Player (`<name>Player.java`), written
 * against its GameState. Compiled with the project's Player and GameState (which replace copies of
 * the course's the folder may hold) and run by the bridge; the folder's top-level sources only, as
 * the course's framework compiles them.
 */
function cs540Player(dir: string): StdioAgentSpec | undefined {
  const java = listSubmissionFiles(dir).filter((f) => f.path.endsWith('.java') && !f.path.includes('/') && !Object.hasOwn(CS540_FILES, f.path));
  const players = java.flatMap((f) => [...(f.text ?? '').matchAll(EXTENDS_PLAYER)].map((m) => ({ name: m[1]!, file: f.path })));
  if (players.length === 0) return undefined;
  if (players.length > 1) {
    throw new UserError(`${dir}: ${players.map((p) => `${p.name} (${p.file})`).join(', ')} all extend Player: a CS540 submission is one player, <name>Player.java; keep one`);
  }
  const { name, file } = players[0]!;
  return {
    dir,
    run: ['java', '-XX:+UseSerialGC', '-cp', '.', 'Cs540Bridge', name],
    build: 'javac -encoding UTF-8 -nowarn -d . *.java',
    supportFiles: CS540_FILES,
    source: `${file}: ${name} extends the course's Player (CS540's API), compiled with the project's Player and GameState`,
  };
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
  return { dir, run: plan.run, ...(plan.build !== undefined ? { build: plan.build } : {}), ...(needsJavaClient(dir) ? { supportFiles: JAVA_CLIENT } : {}), source: `${plan.why} (inferred: an agent over stdio using the client)` };
}
