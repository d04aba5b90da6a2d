/**
 * Many real submissions of the Python courses are Python 2 (print statements, `except X, e`), and
 * Debian no longer ships Python 2. Python 3 rejects them with a SyntaxError a student may not read
 * as "wrong Python": this recognises those errors in a program's stderr and says what to do.
 */

/** What Python 3 says of Python 2's print statement, exec statement and `except X, e:`. */
const PYTHON2_SYNTAX = /SyntaxError: (Missing parentheses in call to '(print|exec)'|multiple exception types must be parenthesized)/;

/** A sentence to add to a failed program's message when its stderr shows Python 2 code run by Python 3; else ''. */
export function python2Hint(stderr: string): string {
  if (!PYTHON2_SYNTAX.test(stderr)) return '';
  return '\nThis looks like Python 2 code, which Python 3 cannot run (print(...) is a function; `except X as e`): port it, or an instructor can run it on a Python 2 interpreter (name it python2.7 in the command, or --python PATH).';
}
