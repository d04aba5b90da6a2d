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

/** How a student reads a function not written yet, in every course: `not written yet: minimax_max_basic`. */
export const NOT_WRITTEN_PREFIX = 'not written yet: ';

/**
 * The function not written yet that `message` names, if any: after UNFINISHED_MARK (what a bridge
 * or the sandbox runtime says, "… failed: NotImplementedYet: minimax_max_basic is not written yet
 * (it raised NotImplementedError)"), or after NOT_WRITTEN_PREFIX (the wording
 * below, once given, at a line's start or after a colon: "crash at move 4: not written yet: …").
 */
export function unfinishedPart(message: string): string | undefined {
  const at = message.indexOf(UNFINISHED_MARK);
  if (at >= 0) return functionOnly(message.slice(at + UNFINISHED_MARK.length).split('\n', 1)[0]!.trim());
  const worded = new RegExp(`(?:^|\\n|: )${NOT_WRITTEN_PREFIX}([^\\n]+)`).exec(message);
  return worded === null ? undefined : worded[1]!.trim();
}

/** "minimax_max_basic is not written yet (it raised …)" → "minimax_max_basic"; a Java signature stays whole. */
function functionOnly(text: string): string {
  return text.replace(/ is not (?:written|implemented) yet\b.*$/, '').trim();
}

/**
 * A message naming a function not written yet, as the student reads it in every course:
 * "not written yet: minimax_max_basic (agent_minimax.py)", never the crash it was carried by
 * ("the submission's process exited with code 1; its stderr ended with: …"); undefined for any
 * other message.
 */
export function unfinishedWording(message: string): string | undefined {
  const part = unfinishedPart(message);
  if (part === undefined || part === '') return undefined;
  // The file the bridge names before the function ("agent_minimax.py: minimax_max_basic failed: …").
  const file = /([\w.-]+\.(?:py|java|ts|js)): \S+ failed: /.exec(message)?.[1];
  return `${NOT_WRITTEN_PREFIX}${part}${file !== undefined && !part.includes(file) ? ` (${file})` : ''}`;
}

/** Whether `message` says a function is not written yet (either form above). */
export function isUnfinished(message: string): boolean {
  return unfinishedPart(message) !== undefined;
}
