/**
 * The homework's files on disk: input.txt read with a one-line error naming it, and
 * next_state.txt / traverse_log.txt written atomically (aside, then renamed), so a grader that
 * reads the folder at the same moment, or a run that is killed, never leaves half a file.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../write-file.ts';
import { UserError } from '../../errors.ts';

export const INPUT_FILE = 'input.txt';
export const NEXT_STATE_FILE = 'next_state.txt';
export const TRAVERSE_LOG_FILE = 'traverse_log.txt';

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The text of an input file, or a UserError "FILE: cannot read the input file: why". */
export function readInputFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new UserError(`${path}: cannot read the input file: ${READ_FAILURES[code] ?? (e as Error).message}`);
  }
}

/** Makes `dir` (and its parents) unless it exists; a file in the way is the user's mistake. */
export function ensureOutputDir(dir: string): void {
  let isDir: boolean | undefined;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = undefined;
  }
  if (isDir === false) throw new UserError(`${dir}: expected an output folder, but it is a file`);
  if (isDir === undefined) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new UserError(`${dir}: cannot create the output folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
}


/** The homework's outputs as file name → text. */
export type OutputFiles = Record<string, string>;

/** Writes every file into `dir` (created if missing); returns their paths in order. */
export function writeOutputs(dir: string, files: OutputFiles): string[] {
  ensureOutputDir(dir);
  return Object.entries(files).map(([name, text]) => {
    const path = join(dir, name);
    writeFileAtomically(path, text);
    return path;
  });
}
