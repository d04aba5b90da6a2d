/**
 * Which run lines a grading of programs uses (sandbox/programs/run-lines.ts says their format): those of
 * --run-lines FILE, else the suite folder's own run-lines.yaml (an instructor's course), else
 * CSCI-561's, shipped with this pack (run-lines.yaml beside this file). Read once, in the grader,
 * before anything runs: a mistake in them is one line naming the file and the field.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FRAMEWORK_DIR } from '../../sandbox/paths.ts';
import { readRunLines, RUN_LINES_FILE, type RunLines } from '../../sandbox/programs/run-lines.ts';

/** CSCI-561's run lines, as the pack ships them. */
export const CSCI561_RUN_LINES = join(FRAMEWORK_DIR, 'packs', 'csci561', RUN_LINES_FILE);

/** The run lines for programs graded on the suite in `suiteDir`; `flag`: --run-lines FILE. */
export function programRunLines(suiteDir: string | undefined, flag?: string): RunLines {
  if (flag !== undefined) return readRunLines(flag);
  const own = suiteDir === undefined ? undefined : join(suiteDir, RUN_LINES_FILE);
  return readRunLines(own !== undefined && existsSync(own) ? own : CSCI561_RUN_LINES);
}

/** The run's note on its run lines: whose they are, and the arguments of this run when --run-args replaced the course's. */
export function runLinesNote(lines: RunLines, runArgs: string | undefined): string {
  const files = lines.programs.map((p) => p.file).join(', ');
  const args = runArgs === undefined ? `with ${lines.args.trim() === '' ? 'no arguments' : `\`${lines.args.trim()}\``}` : `with --run-args \`${runArgs.trim()}\` in place of the course's \`${lines.args.trim()}\``;
  return `programs handed in as sources (${files}) run as ${lines.course} ran them (${lines.source.startsWith(FRAMEWORK_DIR) ? `its pack's ${RUN_LINES_FILE}` : lines.source}), ${args}; a submission's own \`command\` file or mancala.yaml overrides them`;
}
