/**
 * Is there a submission at a path at all, and, when there is none, the one line that says so in
 * the words of the course being graded: what its students hand in (a CS540 <name>Player.java,
 * CSC384's agent_*.py and utils.py, a CPSC 4610 NAME.py, a CSCI-561 mancala.*), then the forms the
 * tools accept from anyone (TypeScript, any language over stdio). Every command that takes
 * submissions asks here, so that a folder with nothing in it, or with notes only, is never
 * graded as a row of zeros that exits 0: when no given submission holds anything, the command
 * stops (exit 2) with this line; one empty folder among good ones is graded with it as its error.
 *
 * "Nothing here" is judged cheaply, before any build or sandbox: an agent over stdio in any
 * language (stdio-agents/spec.ts, which knows the courses' own files), or a TypeScript module a
 * role's patterns find. A submission that is there but broken (a build error, a bad manifest)
 * counts as there: its own error says more than this line would.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { globby } from 'globby';
import { UserError } from '../errors.ts';
import { unreadableSubmission } from '../files/submission-entries.ts';
import type { GameSpec, RoleSpec } from '../suites/types.ts';
import { findStdioAgent } from './stdio-agents/spec.ts';

/** What each course's students hand in, by the rule profile (or pack) that grades it. */
const HANDED_IN: Readonly<Record<string, string>> = {
  cs540: "CS540 students hand in <name>Player.java, a class extending the course's Player",
  csc384: 'CSC384 students hand in agent_minimax.py and agent_alphabeta.py (agent_*.py) with their utils.py',
  cpsc4610: "CPSC 4610 students hand in NAME.py holding class NAME(Player) (or the course's YourPlayer.py)",
  csci561:
    'CSCI-561 students hand in one program: mancala.java, mancala.cpp, mancala11.cpp (C++11), mancala.py (Python 2.7) or mancala3.py (Python 3)',
};

/** The forms any submission may take, whatever the course (agents/clients/PROTOCOL.md). */
const ACCEPTED =
  'a TypeScript agent (agent.ts, agent.js, …), or an agent in any language over stdio (agent.py, Java using MancalaAgent, or a mancala.yaml with protocol: 1)';

/** What `profile`'s students hand in (one sentence), when it is a course's. */
export function courseHandIn(profile: string): string | undefined {
  return HANDED_IN[profile];
}

/**
 * One sentence: what `profile`'s students hand in, in their course's files and language (a Python
 * or Java student is never offered a TypeScript file name); for a game no course owns, every form
 * the tools take.
 */
export function whatToHandIn(profile: string | undefined): string {
  const course = profile === undefined ? undefined : HANDED_IN[profile];
  if (course !== undefined) return course;
  return `a submission is a CS540 <name>Player.java (a class extending Player), CSC384's agent_*.py with utils.py, a CPSC 4610 NAME.py, ${ACCEPTED}`;
}

export interface PresenceQuery {
  /** the rule profile of the game being played or graded (cs540, csc384, cpsc4610, csci561, kalah …) */
  profile?: string;
  /** file patterns of the TypeScript roles looked for (a suite's roles, or the agent role) */
  rolePatterns: readonly string[];
}

/** The query for a game (its profile names the course) and the TypeScript roles it needs. */
export function presenceQuery(game: GameSpec, roles: Readonly<Record<string, Pick<RoleSpec, 'files'>>>): PresenceQuery {
  return { ...(game.kind === 'mancala' ? { profile: game.profile } : {}), rolePatterns: Object.values(roles).flatMap((r) => r.files) };
}

/** What a folder holds, for the message: its first few names, or that it is empty. */
function holdings(dir: string): string {
  const names = readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .sort();
  if (names.length === 0) return 'the folder is empty';
  return `found only ${names.slice(0, 4).join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}`;
}

/** What `path` holds instead of a submission ("the folder is empty", "found only notes.txt"), or undefined when it holds one. */
async function absence(path: string, q: PresenceQuery): Promise<string | undefined> {
  // A path that is not there, or a single agent file: the commands' own checks speak of those.
  if (!existsSync(path) || !statSync(path).isDirectory()) return undefined;
  try {
    if ((await findStdioAgent(path)) !== undefined) return undefined;
  } catch (e) {
    // A manifest or course file that is there but wrong (a link, a FIFO, a folder it cannot
    // read): a submission, with an error of its own when it is graded; never the class's.
    if (e instanceof UserError || unreadableSubmission(e) !== undefined) return undefined;
    throw e;
  }
  const patterns = q.rolePatterns.filter((p) => !p.split(/[\\/]/).includes('..') && !p.startsWith('/'));
  if (patterns.length > 0 && (await globby([...patterns], { cwd: path, onlyFiles: true, dot: true, followSymbolicLinks: false })).length > 0) return undefined;
  return holdings(path);
}

/** The line for submissions that hold nothing: each path with what it holds, then what to hand in. */
function noSubmissionLine(absent: ReadonlyMap<string, string>, profile: string | undefined): string {
  const which = [...absent].map(([path, holds]) => `${path} (${holds})`).join(', ');
  return `no submission ${absent.size === 1 ? 'here' : 'in any of them'}: ${which}. ${upperFirst(whatToHandIn(profile))}`;
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Why `path` holds no submission (one line), or undefined when it holds one. */
export async function noSubmissionAt(path: string, q: PresenceQuery): Promise<string | undefined> {
  const holds = await absence(path, q);
  return holds === undefined ? undefined : noSubmissionLine(new Map([[path, holds]]), q.profile);
}

/**
 * The path submissions of a run that hold nothing, each with its line; a UserError (exit 2) when
 * that is every one of them: such a run would grade nothing, and must not look like it did.
 */
export async function requireSomeSubmission(paths: readonly string[], q: PresenceQuery): Promise<Map<string, string>> {
  const absent = new Map<string, string>();
  for (const path of paths) {
    const holds = await absence(path, q);
    if (holds !== undefined) absent.set(path, holds);
  }
  if (paths.length > 0 && absent.size === paths.length) throw new UserError(noSubmissionLine(absent, q.profile));
  return new Map([...absent].map(([path, holds]) => [path, noSubmissionLine(new Map([[path, holds]]), q.profile)]));
}
