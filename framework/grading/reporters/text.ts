/**
 * Number rounding and string hygiene shared by the reporters.
 *
 * Messages carry what a student's agent printed or threw, so any of them may hold ANSI escapes,
 * control characters, lone surrogates or bidi overrides. They are made terminal-safe where they
 * enter the report (grading/score.ts, with student-text.ts); the text writers pass everything they
 * print through the same sanitiser once more (a report read back from an older file). XML 1.0
 * cannot hold some characters at all: junit.ts drops those.
 */
import { studentText } from '../../student-text.ts';


/** 0 rather than -0, so "-0" never prints. */
function unsigned(x: number): number {
  return x === 0 ? 0 : x;
}

/** Scores to 1e-6: hides float noise (0.1 + 0.2) and keeps every real fraction of a point. */
export function roundScore(x: number): number {
  return unsigned(Math.round(x * 1e6) / 1e6);
}

/** Milliseconds to 0.1. */
export function roundMs(x: number): number {
  return unsigned(Math.round(x * 10) / 10);
}

/** Points for people: at most two decimals, no trailing zeros ("7.5", "3.33", "10"). */
export function formatPoints(x: number): string {
  return String(unsigned(Math.round(x * 100) / 100));
}

/** A lateness for people: "26 h 5 min", "3 days 2 h", "40 min" (minutes rounded up, two units at most). */
export function formatDuration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  const d = Math.floor(minutes / (24 * 60));
  const h = Math.floor((minutes % (24 * 60)) / 60);
  const m = minutes % 60;
  const parts = [d > 0 ? `${d} day${d === 1 ? '' : 's'}` : '', h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : ''].filter((x) => x !== '');
  return parts.length === 0 ? '0 min' : parts.slice(0, 2).join(' ');
}

/** A late verdict in a few words, after the adjusted score: "raw 80; 26 h 5 min late, 1 grace day, −8". */
export function lateBrief(l: { minutesLate: number; graceDaysSpent: number; penalty: number; rawScore: number; latenessUnknown?: true }): string {
  const parts = [`raw ${formatPoints(l.rawScore)}`];
  parts.push(l.minutesLate === 0 ? 'on time' : l.latenessUnknown === true ? 'marked late, time unknown' : `${formatDuration(l.minutesLate * 60_000)} late`);
  if (l.graceDaysSpent > 0) parts.push(`${l.graceDaysSpent} grace day${l.graceDaysSpent === 1 ? '' : 's'}`);
  if (l.penalty > 0) parts.push(`\u2212${formatPoints(l.penalty)}`);
  return parts.join(', ');
}

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and the two-byte escapes (ESC + one of @..Z \ ] ^ _ etc.).
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/** Removes ANSI escape sequences (colours, cursor moves, terminal titles). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '');
}

/**
 * Text safe to show as plain text (a terminal, Gradescope's "text" format): control characters
 * but newline and tab, and bidi controls, shown as visible escapes (`\x1b`); line ends as "\n".
 */
export function plainText(text: string): string {
  return studentText(text, { maxChars: Infinity, maxLineChars: Infinity });
}

/** `plainText` on one line: newlines and tabs become spaces (names, ids, paths in a header). */
export function oneLine(text: string): string {
  return plainText(text).replace(/[\n\t]+/g, ' ');
}

/** The first non-empty line of a message, trimmed. */
export function firstLine(text: string): string {
  for (const line of plainText(text).split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}
