/**
 * `--jobs`, one option for every command that runs several things at once (grade, csci561-grade,
 * examples, similarity, match, tournament, gauntlet): one default, so a class graded with one
 * command is not graded at another speed by the next. The default is the machine's cores, capped:
 * each job is a sandboxed process with its own memory, and more jobs than cores only slow each.
 */
import { availableParallelism } from 'node:os';
import { Option } from 'commander';
import { wholeNumber } from './options.ts';

/** The most jobs the default gives, whatever the cores. */
export const MAX_DEFAULT_JOBS = 4;
/** The most --jobs accepts. */
export const MAX_JOBS = 64;

/** The cores this machine has, from 1 to MAX_DEFAULT_JOBS. */
export function defaultJobs(): number {
  return Math.max(1, Math.min(MAX_DEFAULT_JOBS, availableParallelism()));
}

/** How the default reads in --help and the command reference (no machine's number in the docs). */
export const DEFAULT_JOBS_WORDS = `the cores this machine has, at most ${MAX_DEFAULT_JOBS}`;

/** `--jobs <n>`: `what` is what runs at once ("submissions graded at once"). */
export function jobsOption(what: string): Option {
  return new Option('--jobs <n>', what).argParser(wholeNumber(1, MAX_JOBS, 'a number of jobs')).default(defaultJobs(), DEFAULT_JOBS_WORDS);
}
