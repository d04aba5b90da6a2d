/**
 * Writing a file whole or not at all: the text goes to a temporary file beside the target, which
 * is then renamed over it, so an interrupted run never leaves half a report (or half a
 * next_state.txt) behind. A failure is the user's to fix (a missing folder, no permission): one
 * line naming the file.
 */
import { closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { UserError } from './errors.ts';
import { THREAD_TAG } from './thread-tag.ts';

/**
 * The text, written aside (a name of this process and thread) and renamed over `file`: a reader
 * never sees half a file, nor do two writers at once mix theirs. Errors are thrown as they come.
 */
export function writeAtomically(file: string, text: string | Uint8Array, mode = 0o666): void {
  const aside = `${file}.${THREAD_TAG}.partial`;
  try {
    writeFileSync(aside, text, { mode });
    renameSync(aside, file);
  } catch (e) {
    rmSync(aside, { force: true });
    throw e;
  }
}

/** writeAtomically for a file the user named: a failure is one line naming it. */
export function writeFileAtomically(file: string, text: string | Uint8Array): void {
  try {
    writeAtomically(file, text);
  } catch (e) {
    throw new UserError(`${file}: cannot write the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * writeFileAtomically for content too big to hold in one buffer (gigabytes of an endgame
 * database): `write` writes it piece by piece to the open file descriptor it is given.
 */
export function writeFileAtomicallyWith(file: string, write: (fd: number) => void): void {
  const aside = `${file}.${THREAD_TAG}.partial`;
  try {
    const fd = openSync(aside, 'w');
    try {
      write(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(aside, file);
  } catch (e) {
    rmSync(aside, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e; // not the file system's: a bug, with its stack
    throw new UserError(`${file}: cannot write the file: ${code}`);
  }
}
