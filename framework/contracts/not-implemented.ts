/**
 * What a course's starter throws from a function the student has not written yet (seed 001's
 * Python starter raises NotImplementedError the same way). Grading reads it as an unfinished part:
 * the case failed, and its message names the function; never as a crash of the submission.
 */
export const NOT_IMPLEMENTED_YET = 'NotImplementedYet';

export class NotImplementedYet extends Error {
  constructor(what: string) {
    super(`${what} is not implemented yet`);
    // Set by hand: bundles do not keep class names, and the grader reads this one.
    this.name = NOT_IMPLEMENTED_YET;
  }
}

/** How a message tells the grader of a function not written yet (a bridge prints it, then the function). */
export const UNFINISHED_MARK = `failed: ${NOT_IMPLEMENTED_YET}: `;

/** The function not written yet that `message` names after UNFINISHED_MARK (to the line's end), if any. */
export function unfinishedPart(message: string): string | undefined {
  const at = message.indexOf(UNFINISHED_MARK);
  return at < 0 ? undefined : message.slice(at + UNFINISHED_MARK.length).split('\n', 1)[0]!.trim();
}
