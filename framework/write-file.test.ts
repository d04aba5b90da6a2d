import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from './errors.ts';
import { writeFileAtomically } from './write-file.ts';

describe('writeFileAtomically', () => {
  it('replaces the file whole and leaves no temporary file beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-file-test-'));
    const file = join(dir, 'report.json');
    writeFileSync(file, 'old');
    writeFileAtomically(file, 'new text\n');
    expect(readFileSync(file, 'utf8')).toBe('new text\n');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('a folder that does not exist: one line naming the file, nothing written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-file-test-'));
    const file = join(dir, 'missing', 'report.json');
    expect(() => writeFileAtomically(file, 'x')).toThrow(UserError);
    expect(() => writeFileAtomically(file, 'x')).toThrow(`${file}: cannot write the file: ENOENT`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
