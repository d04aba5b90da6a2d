/**
 * Each sharded command's run identity (framework/shards/identity.ts): what it ran on and every
 * option that changes its results, by flag. Options of speed or output (--jobs, --json, --verbose,
 * --progress, --reports, --replays) are not part of it: shards may differ in those.
 */
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { given, suiteIdentity, type RunIdentity } from '../shards/identity.ts';
import type { Suite } from '../suites/types.ts';

/** The options every command that runs submissions shares. */
export interface CommonRunFlags {
  timeLimit?: number;
  memory?: number;
  /** from --python (added by main.ts) */
  python?: string;
}

function common(flags: CommonRunFlags, sandbox: SandboxMode): RunIdentity {
  return {
    '--time-limit': given(flags.timeLimit),
    '--memory': given(flags.memory),
    '--weak-sandbox': sandbox === 'weak' ? true : null,
    '--python': given(flags.python),
  };
}

export function gradeIdentity(suite: Suite, submissions: readonly string[], flags: CommonRunFlags & { visibility: string; nodeCounts?: string }, sandbox: SandboxMode): RunIdentity {
  return {
    suite: suiteIdentity(suite),
    submissions: [...submissions],
    '--visibility': flags.visibility,
    '--node-counts': given(flags.nodeCounts),
    ...common(flags, sandbox),
  };
}

/** check: `cases` are the run's units (`K:CASE`, K the suite's place in `suites`). */
export function checkIdentity(suites: readonly Suite[], submission: string, cases: readonly string[], flags: CommonRunFlags & { nodeCounts?: string }, sandbox: SandboxMode): RunIdentity {
  return {
    suites: suites.map((s) => suiteIdentity(s)),
    submission,
    cases: [...cases],
    '--node-counts': given(flags.nodeCounts),
    ...common(flags, sandbox),
  };
}

/** csci561-grade: `programs` is what the programs are run on and compared with (each case's input.txt and expected files). */
export function csci561GradeIdentity(
  suite: Suite,
  programs: unknown,
  submissions: readonly string[],
  flags: CommonRunFlags & { visibility: string; case?: string[] },
  sandbox: SandboxMode,
): RunIdentity {
  return {
    suite: suiteIdentity(suite, programs),
    submissions: [...submissions],
    '--visibility': flags.visibility,
    '--case': flags.case === undefined ? null : [...flags.case],
    ...common(flags, sandbox),
  };
}

export interface GauntletIdentityFlags extends CommonRunFlags {
  stones: number[];
  timesPerMoveMs: number[];
  games: number;
  seed: number;
  matchRules: string;
  /** as given, or null: the match rules' own */
  openings: string | null;
  /** a file of start positions: a digest of its content */
  openingsFile: string | null;
  bonus: number;
  opponents: string[];
}

export function gauntletIdentity(submissions: readonly string[], f: GauntletIdentityFlags, sandbox: SandboxMode): RunIdentity {
  return {
    submissions: [...submissions],
    opponents: [...f.opponents],
    '--stones': [...f.stones],
    '--time-per-move': [...f.timesPerMoveMs],
    '--games': f.games,
    '--seed': f.seed,
    '--match-rules': f.matchRules,
    '--openings': f.openings,
    'the --openings file': f.openingsFile,
    '--bonus': f.bonus,
    ...common(f, sandbox),
  };
}
