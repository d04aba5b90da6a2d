/**
 * No product file past 400 lines (the developers' guide): a module that long holds more than one
 * idea, and is split along them. Product code is every TypeScript or JavaScript module of
 * framework/, agents/, graders/ and bin/ that is not a test; tests may be longer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../framework/sandbox/paths.ts';

const MAX_LINES = 400;
const FOLDERS = ['framework', 'agents', 'graders', 'bin'];
const CODE = /\.(ts|mts|js|mjs|cjs)$/;
const TEST = /\.test\.ts$/;

function productFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) found.push(...productFiles(path));
    } else if (CODE.test(entry.name) && !TEST.test(entry.name)) found.push(path);
  }
  return found;
}

/** The lines of a text: a last line without its newline counts too (wc -l would leave it out). */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? newlines : newlines + 1;
}

describe('product file length', () => {
  const files = FOLDERS.flatMap((f) => productFiles(join(PROJECT_ROOT, f)));

  it('finds the product files (the walk itself works)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.map((f) => relative(PROJECT_ROOT, f))).toContain('framework/sandbox/session.ts');
    expect(files.some((f) => TEST.test(f))).toBe(false);
  });

  it(`keeps every product file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((f) => ({ file: relative(PROJECT_ROOT, f), lines: lineCount(readFileSync(f, 'utf8')) }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.file}: ${x.lines} lines (split it along the ideas inside)`);
    expect(long).toEqual([]);
  });

  it('counts a last line without its newline', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });
});
