import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTerminalSafe, STUDENT_LINE_CHARS, STUDENT_NAME_CHARS, STUDENT_TEXT_CHARS, studentJson, studentName, studentText } from './student-text.ts';

const ESC = '\u001b';

/** What must never come out: C0 but newline and tab, DEL, C1, bidi controls, lone surrogates. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

/** Characters a hostile student reaches for, mixed with any UTF-16 code unit and any code point. */
const hostileChar = fc.oneof(
  fc.constantFrom(ESC, '\u0007', '\u009b', '\u0085', '\u202e', '\u2066', '\u200f', '\u061c', '\r', '\n', '\t', '\u007f', '\u0000', '\ud800', '\udfff', '[', ']', '\\', 'x'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const hostileText = fc.string({ unit: hostileChar, maxLength: 300 });
/** Printable text: letters, digits, punctuation, unicode beyond Latin (astral too), spaces, newlines and tabs. */
const printableChar = fc.oneof(
  fc.constantFrom(' ', '\n', '\t', '\\', 'é', 'ü', '中', '😀', 'ℵ', 'ש', 'ع'),
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
);
const printableText = fc.string({ unit: printableChar, maxLength: 300 });

describe('studentText', () => {
  it('never lets out ESC, BEL, another C0 but newline and tab, C1, a bidi control or a lone surrogate', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const out = studentText(text);
        expect(out).not.toMatch(FORBIDDEN);
        expect(isTerminalSafe(out)).toBe(true);
        expect(studentName(text)).not.toMatch(/[\n\t]/);
        expect(studentName(text)).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 500, seed: 34 },
    );
  });

  it('passes printable text unchanged', () => {
    fc.assert(
      fc.property(printableText, (text) => {
        expect(studentText(text)).toBe(text);
        expect(isTerminalSafe(text)).toBe(true);
      }),
      { numRuns: 500, seed: 35 },
    );
  });

  it('is idempotent, bounds included', () => {
    const long = fc.string({ unit: hostileChar, minLength: 0, maxLength: 3000 });
    fc.assert(
      fc.property(long, fc.integer({ min: 40, max: 400 }), fc.integer({ min: 40, max: 2000 }), fc.boolean(), (text, line, total, multiline) => {
        const o = { maxLineChars: line, maxChars: total, multiline };
        const once = studentText(text, o);
        expect(studentText(once, o)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(total);
        for (const l of once.split('\n')) expect(l.length).toBeLessThanOrEqual(line);
        expect(studentName(studentName(text))).toBe(studentName(text));
      }),
      { numRuns: 300, seed: 36 },
    );
  });

  it('shows each control visibly, as JavaScript spells it', () => {
    const title = `${ESC}]0;owned\u0007`;
    expect(studentText(`a${title}b`)).toBe('a\\x1b]0;owned\\x07b');
    expect(studentText(`${ESC}]52;c;cGF5bG9hZA==\u0007`)).toBe('\\x1b]52;c;cGF5bG9hZA==\\x07');
    expect(studentText('one-byte CSI \u009b2J')).toBe('one-byte CSI \\x9b2J');
    expect(studentText('abc\u202efed')).toBe('abc\\u202efed');
    expect(studentText('x\u2066y\u2069\u200f\u061c')).toBe('x\\u2066y\\u2069\\u200f\\u061c');
    expect(studentText('lone \ud800 half, whole 😀')).toBe('lone \\ud800 half, whole 😀');
  });

  it('keeps newlines and tabs in a message, reads CRLF as a newline, shows a bare CR (it would overwrite the line)', () => {
    expect(studentText('a\r\nb\tc')).toBe('a\nb\tc');
    expect(studentText('done 100%\rfaked line')).toBe('done 100%\\x0dfaked line');
    expect(studentText('a\nb\tc', { multiline: false })).toBe('a\\x0ab\\x09c');
  });

  it('cuts a long line and a long text, saying how much it left out, within the bound', () => {
    const line = studentText('x'.repeat(STUDENT_LINE_CHARS + 500));
    expect(line.length).toBe(STUDENT_LINE_CHARS);
    expect(line).toMatch(/^x+… \(\d+ more characters\)$/);
    expect(Number(/\((\d+) more/.exec(line)![1]) + line.indexOf('…')).toBe(STUDENT_LINE_CHARS + 500);
    const text = studentText('y'.repeat(100).concat('\n').repeat(200));
    expect(text.length).toBe(STUDENT_TEXT_CHARS);
    expect(text.endsWith(' more characters)')).toBe(true);
    expect(studentName('n'.repeat(1000)).length).toBe(STUDENT_NAME_CHARS);
  });

  it('never splits a surrogate pair at a cut', () => {
    const cut = studentText('😀'.repeat(100), { maxChars: 51 });
    expect(cut).not.toMatch(/\p{Cs}/u);
    expect(cut.length).toBeLessThanOrEqual(51);
  });
});

describe('studentJson', () => {
  it('cleans every string of a JSON value, keys too, and leaves numbers, booleans and null', () => {
    const value = { 'k\u202e': ['a\u009bb', { n: 1, t: true, z: null, s: 'x\u2028y' }] };
    expect(studentJson(value)).toEqual({ 'k\\u202e': ['a\\x9bb', { n: 1, t: true, z: null, s: 'x\\u2028y' }] });
    expect(isTerminalSafe(JSON.stringify(studentJson(value)))).toBe(true);
  });
});
