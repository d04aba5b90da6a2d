/**
 * Student-controlled text made safe to show: what a submission printed or threw, its folder and
 * file names. Such text reaches the instructor's terminal, a CSV opened in a spreadsheet and JSON
 * read with `cat`, so it must not be able to drive a terminal (ESC and BEL sequences set the
 * window title, clear the screen, move the cursor to fake earlier lines, write the clipboard with
 * OSC 52, plant OSC 8 links; C1 controls are the same in one byte) nor reorder what the reader
 * sees (bidi embeddings, overrides and isolates: "Trojan Source").
 *
 * Nothing is dropped silently: each such character is shown as a visible escape (`\x1b`, `\x9b`,
 * `\u202e`), so the instructor sees that the student tried something. Printable text, unicode
 * included, passes unchanged, and cleaning clean text changes nothing (idempotent), so it is safe
 * to apply at every boundary a text crosses.
 */

/** A message's bounds: a line longer than this is cut (a minified stack trace, a board on one line). */
export const STUDENT_LINE_CHARS = 4000;
/** ... and the whole message (the sandbox keeps 16 KB of each stream; a grader's diff of a long trace stays whole). */
export const STUDENT_TEXT_CHARS = 20_000;
/** A name (a folder, a file, an agent's label): one line, short. */
export const STUDENT_NAME_CHARS = 200;

// C0 controls (tab and newline are decided by the caller), DEL, C1; bidi marks, embeddings,
// overrides and isolates (U+061C, U+200E/F, U+202A-E, U+2066-9); the line and paragraph separators
// (they break lines where a reader expects none); U+FFFE/U+FFFF; lone surrogates (no character at all).
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|\p{Cs}/gu;
const UNSAFE_WITH_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|\p{Cs}/gu;
/** The same classes less lone surrogates, for the quick scan; surrogates (halves of emoji, mostly) are looked at only when present. */
const ANY_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;
const ANY_UNSAFE_WITH_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;
const ANY_SURROGATE = /[\ud800-\udfff]/;

/** `\x1b` for a code below 0x100, `\u202e` above: the JavaScript spelling, lower-case hex. */
function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface StudentTextOptions {
  /** keep newlines and tabs (a message, a stderr tail); otherwise they are shown as `\x0a`, `\x09` */
  multiline?: boolean;
  /** the longest line kept whole; Infinity for no cut */
  maxLineChars?: number;
  /** the longest text kept whole; Infinity for no cut */
  maxChars?: number;
}

/**
 * `text` safe to print: every control character but (with `multiline`) newline and tab, and every
 * bidi control, shown as a visible escape; CRLF read as a newline; a line over `maxLineChars` and
 * the whole over `maxChars` cut, ending in "… (N more characters)" (the cut text, marker included,
 * is no longer than the bound, so a second pass leaves it as it is).
 */
export function studentText(text: string, options: StudentTextOptions = {}): string {
  const multiline = options.multiline ?? true;
  const maxLine = options.maxLineChars ?? STUDENT_LINE_CHARS;
  const max = options.maxChars ?? STUDENT_TEXT_CHARS;
  // Most text is clean: a plain scan (no per-code-point matching) lets it through as it is.
  const clean = !(multiline ? ANY_UNSAFE : ANY_UNSAFE_WITH_LAYOUT).test(text) && !(ANY_SURROGATE.test(text) && /\p{Cs}/u.test(text));
  const shown = clean ? text : multiline ? text.replace(/\r\n/g, '\n').replace(UNSAFE, visible) : text.replace(UNSAFE_WITH_LAYOUT, visible);
  const lines = shown.length > maxLine ? shown.split('\n').map((line) => bounded(line, maxLine)).join('\n') : shown;
  return bounded(lines, max);
}

/** A name taken from the file system or given by a submission: one line, at most STUDENT_NAME_CHARS. */
export function studentName(name: string): string {
  return studentText(name, { multiline: false, maxChars: STUDENT_NAME_CHARS, maxLineChars: STUDENT_NAME_CHARS });
}

/** A path that holds student folder names: one line, bounded only as a message is. */
export function studentPath(path: string): string {
  return studentText(path, { multiline: false, maxChars: STUDENT_TEXT_CHARS, maxLineChars: STUDENT_TEXT_CHARS });
}

/**
 * A JSON-able value with every string in it (keys too) through studentText: JSON.stringify escapes
 * C0 controls but writes C1 controls and bidi overrides as they are, and `cat report.json` obeys them.
 */
export function studentJson<T>(value: T): T {
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return studentText(v);
    if (Array.isArray(v)) return v.map(clean);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [studentText(k), clean(x)]));
  };
  return clean(value) as T;
}

/** The characters studentText shows as escapes, for checks: true when `text` holds none (newline and tab allowed). */
export function isTerminalSafe(text: string): boolean {
  return !new RegExp(UNSAFE.source, 'u').test(text);
}

/** `text` cut to at most `max` characters, the cut said; never a surrogate pair split, never a cut escape left to look whole. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  // The marker's own length depends on the count it names: settle it in two rounds.
  let keep = Math.max(0, max - marker(text.length).length);
  keep = Math.max(0, max - marker(text.length - keep).length);
  if (keep > 0 && /[\ud800-\udbff]/.test(text[keep - 1]!)) keep--;
  return `${text.slice(0, keep)}${marker(text.length - keep)}`;
}

function marker(more: number): string {
  return `… (${more} more characters)`;
}
