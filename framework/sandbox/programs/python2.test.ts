import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { python2Hint } from './python2.ts';

/** What the grader's python3 really prints for `source`. */
function python3Stderr(source: string): string {
  return spawnSync('python3', ['-c', source], { encoding: 'utf8' }).stderr;
}

describe('python2Hint', () => {
  it.each([
    ['a print statement', 'print "hello"'],
    ['except X, e', 'try:\n    pass\nexcept ValueError, e:\n    pass'],
    ['an exec statement', 'exec "x = 1"'],
  ])('recognises what python3 says of %s', (_, source) => {
    expect(python2Hint(python3Stderr(source))).toMatch(/looks like Python 2 code[^]*--python PATH/);
  });

  it('says nothing of other errors, syntax errors included', () => {
    expect(python2Hint(python3Stderr('def f(:\n    pass'))).toBe('');
    expect(python2Hint(python3Stderr('raise ValueError("no")'))).toBe('');
    expect(python2Hint('')).toBe('');
  });
});
