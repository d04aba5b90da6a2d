import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { checkOutputFile, checkOutputFolder } from './output-paths.ts';

const work = mkdtempSync(join(tmpdir(), 'output-paths-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function refusal(check: () => void): string {
  try {
    check();
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('checkOutputFile', () => {
  it('creates the missing folders of the file, and leaves no probe behind', () => {
    const file = join(work, 'new', 'deeper', 'report.json');
    checkOutputFile('--json', file);
    expect(statSync(join(work, 'new', 'deeper')).isDirectory()).toBe(true);
    expect(readdirSync(join(work, 'new', 'deeper'))).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('accepts an existing file (it will be replaced) and leaves it as it was', () => {
    const file = join(work, 'old.csv');
    writeFileSync(file, 'kept');
    checkOutputFile('--csv', file);
    expect(readdirSync(work)).toContain('old.csv');
  });

  it('refuses a path under a regular file, naming the flag, the path and the file in the way', () => {
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, '');
    const file = join(blocker, 'sub', 'report.json');
    expect(refusal(() => checkOutputFile('--json', file))).toBe(`--json ${file}: cannot create the folder ${join(blocker, 'sub')}: ${blocker} is a file, not a folder`);
    expect(refusal(() => checkOutputFile('--junit', join(blocker, 'junit.xml')))).toBe(
      `--junit ${join(blocker, 'junit.xml')}: cannot create the folder ${blocker}: ${blocker} is a file, not a folder`,
    );
  });

  it('refuses an existing folder where a file is expected', () => {
    const dir = join(work, 'results.json');
    mkdirSync(dir);
    expect(refusal(() => checkOutputFile('--gradescope', dir))).toBe(`--gradescope ${dir}: is a folder; expected the name of a file to write`);
  });

  // Root writes into read-only folders anyway: there the probe rightly succeeds.
  it.skipIf(process.getuid?.() === 0)('refuses a folder it cannot write into', () => {
    const dir = join(work, 'read-only');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    try {
      expect(refusal(() => checkOutputFile('--csv', join(dir, 'grades.csv')))).toBe(`--csv ${join(dir, 'grades.csv')}: cannot write in the folder ${dir}: permission denied`);
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe('checkOutputFolder', () => {
  it('creates a missing folder and accepts an existing one', () => {
    const dir = join(work, 'replays', 'run-1');
    checkOutputFolder('--replays', dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    checkOutputFolder('--replays', dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a regular file where the folder should be', () => {
    const file = join(work, 'out-file');
    writeFileSync(file, '');
    expect(refusal(() => checkOutputFolder('--out', file))).toBe(`--out ${file}: cannot create the folder ${file}: ${file} is a file, not a folder`);
  });
});
