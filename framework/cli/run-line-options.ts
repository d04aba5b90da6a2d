/**
 * `--run-args ARGS` and `--run-lines FILE`: how a run of programs handed in as sources starts them,
 * over their course's run lines (sandbox/programs/run-lines.ts): the same two options on every command that
 * runs csci561 programs (csci561-grade, grade, check).
 */
import { Option } from 'commander';
import { RUN_LINES_FILE } from '../sandbox/programs/run-lines.ts';

export interface RunLineFlags {
  runArgs?: string;
  runLines?: string;
}

export function runArgsOption(): Option {
  return new Option(
    '--run-args <args>',
    "the arguments programs handed in as sources are run with, in place of their course's (CSCI-561: \"-i input.txt\"); --run-args '' runs them with none. A submission's own command file or mancala.yaml is run as it says",
  );
}

export function runLinesOption(): Option {
  return new Option('--run-lines <file>', `how your course ran programs handed in as sources (a ${RUN_LINES_FILE}: file name → language, build and run line; docs/courses/csci561.md shows the format), over the suite folder's own ${RUN_LINES_FILE} and CSCI-561's`);
}
