/**
 * What an error line calls a submission: the name the instructor gave, never the intake's snapshot
 * of it. The intake (intake.ts) registers how it renames; main.ts's one-line errors ask here. A
 * module of its own so that every command's start does not load the intake for it.
 */
const renamers: ((text: string) => string)[] = [];

export function registerRenamer(rename: (text: string) => string): void {
  renamers.push(rename);
}

/** `text` with each registered renaming applied. */
export function namedForUser(text: string): string {
  return renamers.reduce((t, rename) => rename(t), text);
}
