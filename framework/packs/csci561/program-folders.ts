/**
 * `mancala grade` and `mancala check` on a csci561 suite meet two kinds of submission: agent
 * modules (agent.ts, minimax.ts, … the suite's roles) and file-in/file-out programs as the course
 * took them (mancala.java, mancala.py, … or a `command` file). A program folder is graded as
 * `csci561-grade` grades it, with the course's run line (course-run-lines.ts), so a student's
 * `mancala check` and the instructor's grading run it the same way.
 */
import { existsSync, statSync } from 'node:fs';
import { hasEntry } from '../../files/submission-entries.ts';
import type { GradeReport } from '../../grading/report.ts';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { listSubmissionFiles, readManifest } from '../../sandbox/programs/build-files.ts';
import { MANIFEST_FILE } from '../../sandbox/programs/build-plan.ts';
import type { RunLines } from '../../sandbox/programs/run-lines.ts';
import { basename } from 'node:path';
import type { Suite } from '../../suites/types.ts';
import { assertBlessed, type VisibilityFilter as VisibilityFilter } from '../../grading/runner.ts';
import type { SuiteCase } from '../../suites/types.ts';
import { UserError } from '../../errors.ts';
import { isCourseSuite } from './course-suite.ts';
import { gradeProgramsWithRuns, type GradedProgram } from './grade-programs.ts';
import type { StopRules } from '../../grading/early-stop.ts';
import type { JournalOpener } from '../../grading/grade-journal.ts';
import { COMMAND_FILE } from './program.ts';

/** Seed 000's suites: the only ones programs are graded on. */
export function isCsci561Suite(suite: Suite): boolean {
  const game = suite.manifest.game;
  return game.kind === 'mancala' && game.profile === 'csci561';
}

/**
 * A folder holding a program rather than agent modules: none of the suite's role files, and a
 * `command` file, a mancala.yaml that is no stdio agent's, or a file the course's run lines name.
 * A name counts as there whatever it is (a link too, never followed): a `command` that is a link
 * makes a program folder whose grading refuses it in one line.
 */
export function isProgramFolder(path: string, suite: Suite, lines: RunLines): boolean {
  // The path itself is the instructor's (or the intake's snapshot); what is inside it is the student's.
  if (!existsSync(path) || !statSync(path).isDirectory()) return false;
  const roleFiles = Object.values(suite.manifest.roles).flatMap((r) => ('files' in r && Array.isArray(r.files) ? (r.files as string[]) : []));
  if (roleFiles.some((f) => hasEntry(path, f))) return false;
  if (hasEntry(path, COMMAND_FILE)) return true;
  if (hasEntry(path, MANIFEST_FILE)) {
    const plan = readManifest(path);
    return plan !== undefined && !('problem' in plan) && plan.protocol === undefined;
  }
  const named = new Set(lines.programs.map((p) => p.file.toLowerCase()));
  try {
    return listSubmissionFiles(path).some((f) => named.has(basename(f.path).toLowerCase()));
  } catch {
    return false;
  }
}

/**
 * A suite's answers are ready for grading: blessed (expected.json), or a folder of the course's own
 * files, which carries them (course-suite.ts) and grades programs only — e.g. a student kit's suite,
 * which holds no reference solution to compute them.
 */
export function assertGradable(suite: Suite, cases: readonly SuiteCase[], submissions: readonly string[], programs: ReadonlySet<string>): void {
  if (!isCourseSuite(suite)) return assertBlessed(suite, cases);
  const agent = submissions.find((s) => !programs.has(s));
  if (agent !== undefined) throw new UserError(`${agent}: ${suite.manifest.dir} is a folder of the course's files, which grades programs only (mancala.java, mancala.py, … or a \`command\` file); found none there`);
}

export interface MixedGradeOptions {
  suite: Suite;
  submissions: readonly string[];
  /** which of them are program folders (isProgramFolder) */
  programs: ReadonlySet<string>;
  visibility: VisibilityFilter;
  jobs: number;
  sandbox: SandboxMode;
  lines: RunLines;
  runArgs?: string;
  /** when to stop a program early (grading/early-stop.ts) */
  stop?: StopRules;
  /** the programs' journal (grading/grade-journal.ts) */
  journal?: JournalOpener<GradedProgram>;
  /** grades the agent submissions the usual way */
  gradeAgents: (submissions: readonly string[]) => Promise<GradeReport>;
}

/** The programs graded as programs, the rest as agents: one report in the submissions' order, and the programs' warnings. */
export async function gradeMixed(o: MixedGradeOptions): Promise<{ report: GradeReport; warnings: string[] }> {
  const programs = o.submissions.filter((s) => o.programs.has(s));
  const agents = o.submissions.filter((s) => !o.programs.has(s));
  const graded =
    programs.length === 0
      ? undefined
      : await gradeProgramsWithRuns({
          suite: o.suite,
          submissions: programs,
          visibility: o.visibility,
          jobs: o.jobs,
          sandbox: o.sandbox,
          runLines: o.lines,
          ...(o.runArgs !== undefined ? { runArgs: o.runArgs } : {}),
          ...(o.stop !== undefined ? { stop: o.stop } : {}),
          ...(o.journal !== undefined ? { journal: o.journal } : {}),
        });
  const agentReport = agents.length === 0 ? undefined : await o.gradeAgents(agents);
  const warnings = graded?.warnings ?? [];
  if (graded === undefined) return { report: agentReport!, warnings };
  if (agentReport === undefined) return { report: graded.report, warnings };
  const bySubmission = new Map<string, GradeReport['submissions'][number]>();
  programs.forEach((s, k) => bySubmission.set(s, graded.report.submissions[k]!));
  agents.forEach((s, k) => bySubmission.set(s, agentReport.submissions[k]!));
  const notes = [...(agentReport.notes ?? []), ...(graded.report.notes ?? [])];
  return {
    report: {
      ...agentReport,
      isolation: {
        network: agentReport.isolation.network && graded.report.isolation.network,
        note: `Agents: ${agentReport.isolation.note ?? ''} Programs: ${graded.report.isolation.note ?? ''}`,
      },
      ...(notes.length > 0 ? { notes } : {}),
      submissions: o.submissions.map((s) => bySubmission.get(s)!),
    },
    warnings,
  };
}
