/**
 * A mistake of the user's (a bad flag, a malformed file, an unknown name): the CLI prints its
 * message on one line and exits with `exitCode`, never a stack trace. Say what was wrong, where
 * (file and line, or flag or field), and what was expected.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** "file:line: message", the form editors and terminals make clickable. */
export function located(file: string, line: number | undefined, message: string): UserError {
  return new UserError(line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
}
