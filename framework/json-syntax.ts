/**
 * JSON.parse's complaint in words that quote nothing of the text parsed. V8 quotes the input:
 * `Unexpected token 'p', "pass: hunter2" is not valid JSON` names the bad character and the text
 * around it, and a file's owner is not always its reader (the web app shows a file's problem to
 * whoever has the page). Kept: V8's own words and the punctuation it expected
 * (`Expected ',' or '}' after property value`); the bad character is said to be one, never shown.
 */

/** The reason, one line, no position (the caller gives the line) and nothing of the input quoted. */
export function jsonSyntaxReason(e: SyntaxError): string {
  const reason = e.message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, .* is not valid JSON$/s, '')
    .replace(/^Unexpected token\b.*$/s, 'Unexpected character')
    .replace(/\s+/g, ' ');
  // Any other quote is the input's (a V8 of another wording): the reason is then only that it is not JSON.
  const quotesInput = [...reason.matchAll(/'[^']*'|"[^"]*"/g)].some((m) => !/^'[,:{}[\]]'$/.test(m[0]) || !/\b(?:Expected|or)\s*$/.test(reason.slice(0, m.index)));
  return quotesInput ? 'not JSON' : reason;
}

/** The line (from 1) V8's position points to, when it gives one. */
export function jsonSyntaxLine(text: string, e: SyntaxError): number | undefined {
  const position = /at position (\d+)/.exec(e.message);
  return position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
}
