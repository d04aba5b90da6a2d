/**
 * The students' reports' line diff (student-report-diff.ts): the edit script turns one file into
 * the other and is as short as the longest common subsequence allows (checked against dynamic
 * programming on random files); the unified output matches GNU `diff -u` on small cases; the
 * course's rule (trimmed lines, OPTIONAL lines that may be left out) shows only what fails.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editScript, fileLines, unifiedDiff } from './student-report-diff.ts';

/** The length of the longest common subsequence, by dynamic programming. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j]!, row[j - 1]!);
      diag = up;
    }
  }
  return row[b.length]!;
}

const same = (x: string, y: string) => x === y;

describe('the edit script', () => {
  it('turns a into b, keeps equal lines only, and is the shortest (random files over a small alphabet)', () => {
    const file = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 });
    fc.assert(
      fc.property(file, file, (a, b) => {
        const script = editScript(a, b, same);
        const rebuilt: string[] = [];
        let ai = 0;
        let bi = 0;
        for (const e of script) {
          if (e.op === 'same') {
            expect([e.a, e.b]).toEqual([ai++, bi++]);
            expect(a[e.a]).toBe(b[e.b]);
            rebuilt.push(b[e.b]!);
          } else if (e.op === 'del') expect(e.a).toBe(ai++);
          else {
            expect(e.b).toBe(bi++);
            rebuilt.push(b[e.b]!);
          }
        }
        expect([ai, bi]).toEqual([a.length, b.length]);
        expect(rebuilt).toEqual(b);
        expect(script.filter((e) => e.op !== 'same').length).toBe(a.length + b.length - 2 * lcs(a, b));
      }),
      { numRuns: 300, seed: 561 },
    );
  });

  it('past its limit of edits it still turns a into b, the middle replaced whole', () => {
    const a = ['x', '1', '2', '3', 'y'];
    const b = ['x', '4', '5', '6', 'y'];
    expect(editScript(a, b, same, 2).map((e) => e.op)).toEqual(['same', 'del', 'del', 'del', 'add', 'add', 'add', 'same']);
  });
});

describe('the unified diff', () => {
  it('is what GNU diff -u prints', () => {
    const a = 'abcdefghijk'.split('');
    const b = 'abXdefghikl'.split('');
    // diff -u of the two files (headers aside), one hunk: the changes are within 2 × 3 lines of context.
    expect(unifiedDiff(a, b, { from: 'a', to: 'b' })).toBe(['--- a', '+++ b', '@@ -1,11 +1,11 @@', ' a', ' b', '-c', '+X', ' d', ' e', ' f', ' g', ' h', ' i', '-j', ' k', '+l', ''].join('\n'));
    expect(unifiedDiff([], ['a', 'b'], { from: 'a', to: 'b' })).toBe('--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedDiff(['a', 'b'], ['a'], { from: 'a', to: 'b' })).toBe('--- a\n+++ b\n@@ -1,2 +1 @@\n a\n-b\n');
    const long = Array.from({ length: 20 }, (_, i) => String(i));
    const changed = long.map((l, i) => (i === 2 || i === 17 ? `${l}!` : l));
    expect(unifiedDiff(long, changed, { from: 'a', to: 'b' })).toBe(
      ['--- a', '+++ b', '@@ -1,6 +1,6 @@', ' 0', ' 1', '-2', '+2!', ' 3', ' 4', ' 5', '@@ -15,6 +15,6 @@', ' 14', ' 15', ' 16', '-17', '+17!', ' 18', ' 19', ''].join('\n'),
    );
    expect(unifiedDiff(long, long, { from: 'a', to: 'b' })).toBe('');
  });

  it("by the course's rule: white space around a line is no difference; an OPTIONAL line left out is none either", () => {
    const trimmed = (e: string, g: string) => e.trim() === g.trim();
    expect(unifiedDiff(['1 2', '3'], [' 1 2 ', '3\t'], { from: 'a', to: 'b', equal: trimmed })).toBe('');
    const optional = (e: string) => e.endsWith('\tOPTIONAL');
    const equal = (e: string, g: string) => (optional(e) ? g.startsWith('B6,1,') && g.includes('Infinity') : e === g);
    const expected = ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,+/-Infinity\tOPTIONAL', 'B6,1,2', 'root,0,2'];
    expect(unifiedDiff(expected, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,2', 'root,0,2'], { from: 'a', to: 'b', equal, optional })).toBe('');
    expect(unifiedDiff(expected, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,Infinity', 'B6,1,2', 'root,0,2'], { from: 'a', to: 'b', equal, optional })).toBe('');
    // Shown: the line that fails, the file's own text for the optional line it printed.
    expect(unifiedDiff(expected, ['Node,Depth,Value', 'root,0,-Infinity', 'B6,1,Infinity', 'B6,1,3', 'root,0,3'], { from: 'a', to: 'b', equal, optional })).toBe(
      ['--- a', '+++ b', '@@ -1,5 +1,5 @@', ' Node,Depth,Value', ' root,0,-Infinity', ' B6,1,Infinity', '-B6,1,2', '-root,0,2', '+B6,1,3', '+root,0,3', ''].join('\n'),
    );
  });

  it("reads a file's lines as the rule does: \\r\\n or \\n, trailing blank lines dropped", () => {
    expect(fileLines('a\r\nb\n\n \n')).toEqual(['a', 'b']);
    expect(fileLines('')).toEqual([]);
  });
});
