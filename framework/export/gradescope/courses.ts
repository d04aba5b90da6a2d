/**
 * What a Gradescope autograder needs to know about each course (`mancala export gradescope
 * --course C`): how it is graded (a suite, or seed 003's gauntlet), which suites fit it, what its
 * submissions need installed to run (setup.sh installs what is missing), and its leaderboard.
 *
 * Leaderboards (Gradescope shows one when the assignment enables it):
 *  - cs540: the gauntlet's own figures: its score (with the bonus) and the win rate against the
 *    advanced agent, which separates the players that all beat random and simple;
 *  - cpsc4610: the course ends in a class tournament of the custom players, which one submission
 *    cannot play alone; the autograder plays a short seeded ladder instead, the same games for
 *    every student: the player against the course's provided player (5-ply minimax, free turns
 *    ignored) and against a stronger reference (alpha-beta at depth 7), and ranks by the points
 *    won (a win 1, a draw ½) as a percentage, then the store margin a game;
 *  - the other courses grade searches case by case and have no tournament: no leaderboard.
 */
import { UserError } from '../../errors.ts';

/** A command the course's submissions need, and the Debian/Ubuntu package that provides it. */
export interface Need {
  command: string;
  /** the apt package */
  apt: string;
  why: string;
  /** setup.sh goes on without it (the grader then says what it lacks) */
  optional?: boolean;
}

/** The ladder a leaderboard is read from: seeded games against reference agents. */
export interface LadderSpec {
  opponents: { name: string; spec: string }[];
  rules: string;
  gamesPerOpponent: number;
  timePerMoveMs: number;
  seed: number;
}

export interface CourseSpec {
  name: string;
  title: string;
  /** `suite`: `mancala grade` on the suites (csci561: programs too, as csci561-grade); `gauntlet`: seed 003's gauntlet */
  grading: 'suite' | 'gauntlet';
  /** the Mancala profiles (or tictactoe) its suites may play; undefined: any */
  games?: readonly string[];
  /** what its submissions need beyond Node (bubblewrap and util-linux are every course's) */
  needs: readonly Need[];
  leaderboard?: { kind: 'gauntlet' } | { kind: 'ladder'; ladder: LadderSpec };
  /** what a submission holds, for the message of an empty one */
  forms: string;
}

/** Every course's: the sandbox (bubblewrap; without it the weak one, said in the results) and util-linux's setpriv and prlimit. */
export const COMMON_NEEDS: readonly Need[] = [
  { command: 'bwrap', apt: 'bubblewrap', why: 'the full sandbox (without it: the weak one, and the results say so)', optional: true },
  { command: 'setpriv', apt: 'util-linux', why: 'dropping privileges and tying the submission to the grader' },
  { command: 'prlimit', apt: 'util-linux', why: 'the cap on the size of a file' },
];

const PYTHON: Need = { command: 'python3', apt: 'python3', why: 'Python submissions' };
const JAVA: Need[] = [
  { command: 'javac', apt: 'default-jdk-headless', why: 'compiling Java submissions' },
  { command: 'java', apt: 'default-jdk-headless', why: 'running Java submissions' },
];

export const COURSES: readonly CourseSpec[] = [
  {
    name: 'csci561',
    title: 'CSCI-561: Greedy, MiniMax and Alpha-Beta, file in / file out',
    grading: 'suite',
    games: ['csci561'],
    needs: [PYTHON, ...JAVA, { command: 'g++', apt: 'g++', why: 'C++ submissions' }, { command: 'gcc', apt: 'gcc', why: 'C submissions' }, { command: 'make', apt: 'make', why: 'submissions with a Makefile in their build:' }],
    forms: 'a program in any language that reads input.txt and writes next_state.txt and traverse_log.txt (a `command` file, a mancala.yaml, or sources: Java, C++, C, Python), or TypeScript modules greedy.ts, minimax.ts and agent.ts',
  },
  {
    name: 'csc384',
    title: 'CSC384: minimax and alpha-beta with depth limits and caching, heuristics',
    grading: 'suite',
    games: ['csc384'],
    needs: [PYTHON],
    forms: "the course's utils.py, agent_minimax.py and agent_alphabeta.py, or the TypeScript modules of the starter",
  },
  {
    name: 'cpsc4610',
    title: 'CPSC 4610: a scoring function, alpha-beta and a tournament player',
    grading: 'suite',
    games: ['cpsc4610', 'tictactoe'],
    needs: [PYTHON],
    leaderboard: {
      kind: 'ladder',
      ladder: {
        opponents: [
          { name: 'provided player', spec: 'minimax:depth=5,freeTurns=ignore' },
          { name: 'alpha-beta depth 7', spec: 'alphabeta:depth=7,freeTurns=ignore' },
        ],
        rules: 'cpsc4610',
        gamesPerOpponent: 2,
        timePerMoveMs: 1000,
        seed: 4610,
      },
    },
    forms: "YourPlayer.py in the course's API (class NAME(Player) in NAME.py), or score.ts, alphabeta.ts and <Name>.agent.ts",
  },
  {
    name: 'cs540',
    title: 'CS540: an anytime player, graded by matches (the gauntlet)',
    grading: 'gauntlet',
    needs: JAVA,
    leaderboard: { kind: 'gauntlet' },
    forms: '<name>Player.java extending the course\'s Player, or a TypeScript agent (agent.ts)',
  },
  {
    name: 'kalah',
    title: 'Kalah: an agent and a heuristic on a suite of your own',
    grading: 'suite',
    needs: [],
    forms: 'an agent.ts (and heuristic.ts), or an agent over stdio (agent.py, a mancala.yaml with protocol: 1)',
  },
];

export function courseNames(): string[] {
  return COURSES.map((c) => c.name);
}

export function findCourse(name: string): CourseSpec {
  const course = COURSES.find((c) => c.name === name);
  if (course === undefined) throw new UserError(`--course ${name}: expected one of ${courseNames().join(', ')}`);
  return course;
}
