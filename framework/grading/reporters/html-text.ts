/**
 * Text into HTML, for the HTML report (html.ts) and the web app's pages: every string a report
 * holds may come from a student (names, paths, messages with their stderr), so each one goes
 * through `escapeHtml` (or `escapeLine`) before it reaches markup. Both clean the text first as
 * the console does (text.ts: no ANSI escapes, no control characters, no bidi overrides, no lone
 * surrogates), then escape the five characters that mean something in HTML, so the result is
 * safe in element content and in a quoted attribute value alike.
 */
import { oneLine, plainText } from './text.ts';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function entities(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text (newlines kept) for element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return entities(plainText(text));
}

/** One line of text (newlines and tabs become spaces): names, ids, paths, attribute values. */
export function escapeLine(text: string): string {
  return entities(oneLine(text));
}
