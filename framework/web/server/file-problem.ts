/**
 * A malformed file's message as the page sees it: the reader's own line (the file, the line, the
 * field, what was expected) with nothing of the file's text in it. The readers are the CLI's, and
 * there a quoted excerpt helps the file's owner (`not a JSON line: "https://user:tok…"`); the page
 * may be read by others (a projector, a shared server), and a path under --root may name any file,
 * so every quoted excerpt is taken out: each quoted part of the message that is neither a field's
 * name (`field "moves[3]"`) nor the reader's own words of what it expected (`expected "A", "B" or
 * "draw"`, `expected a header line {"type":"tournament",…}`). The file's real path is replaced by
 * the name the page knows it by.
 */
import { UserError } from '../../errors.ts';
import { HttpError } from './http-error.ts';

// A quote cut short (`"https://user:tok…`, a reader's excerpt of 40 characters) runs to its ellipsis or the end.
const QUOTED = /"(?:[^"\\]|\\.)*"|"(?:[^"\\]|\\.)*?(?:…|$)|'[^'\n]{0,200}'/g;
const FIELD_PATH = /^"[\w$.[\]-]{1,100}"$/;

/** Whether the quote at `at` is part of an "expected …" clause, which the reader wrote (not the file). */
function inExpectedClause(message: string, at: number): boolean {
  const before = message.slice(0, at);
  // The word itself: V8's "Unexpected token 'x'" quotes the file; so does anything after a bracket opened or closed since.
  const k = Math.max(-1, ...[...before.matchAll(/\bexpected\b/gi)].map((m) => m.index));
  if (k < 0) return false;
  const clause = before.slice(k);
  return !/\bgot\b|\breceived\b|[()]|;/.test(clause);
}

/** V8's own punctuation in its words: `Expected ',' or '}' after property value`. */
function isV8Punctuation(message: string, quote: string, at: number): boolean {
  return /^'[,:{}[\]]'$/.test(quote) && /\b(?:Expected|or) $/.test(message.slice(0, at));
}

/** `message` with every quoted excerpt of a file taken out. */
export function withoutFileText(message: string): string {
  return message.replace(QUOTED, (quote, at: number) => {
    if (quote.startsWith("'")) return isV8Punctuation(message, quote, at) ? quote : '(text not shown)';
    if (FIELD_PATH.test(quote) && /\bfield\s*$/.test(message.slice(0, at))) return quote;
    if (inExpectedClause(message, at)) return quote;
    return '(text not shown)';
  });
}

/** A reader's refusal of the file `real` (named `shown` to the page) as the 422 the page shows; anything else rethrown. */
export function fileProblem(e: unknown, real: string, shown: string): never {
  if (e instanceof HttpError) throw e;
  if (e instanceof UserError || e instanceof SyntaxError) throw new HttpError(422, withoutFileText(e.message.split(real).join(shown)));
  throw e;
}
