/**
 * Writing a file whole or not at all: the text goes to a temporary file beside the target, which
 * is then renamed over it, so an interrupted run never leaves half a report (or half a
 * next_state.txt) behind. A failure is the user's to fix (a missing folder, no permission): one
 * line naming the file.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { UserError } from './errors.ts';

export function writeFileAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new UserError(`${file}: cannot write the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
