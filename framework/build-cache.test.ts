import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCacheFolder, recordBuild, reusableBuild } from './build-cache.ts';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A source file of a pretend build, and a key no other test uses. */
function pretendBuild(): { source: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'build-cache-test-'));
  folders.push(dir);
  const source = join(dir, 'entry.ts');
  writeFileSync(source, 'export const x = 1;\n');
  return { source, key: `build-cache test ${dir}` };
}

describe('the build cache', () => {
  it('gives back what was recorded while the sources are unchanged', () => {
    const { source, key } = pretendBuild();
    expect(reusableBuild(key)).toBeUndefined();
    const files = recordBuild(key, { bundle: { text: 'built 1', extension: '.mjs' } }, [source]);
    expect(readFileSync(files.bundle!, 'utf8')).toBe('built 1');
    expect(reusableBuild(key)).toEqual(files);
    // Only this user may enter the folder: the sandbox's runtimes are kept there.
    expect(statSync(buildCacheFolder()).mode & 0o777).toBe(0o700);
  });

  it('is stale once a source changes, in size or only in time', () => {
    const { source, key } = pretendBuild();
    recordBuild(key, { bundle: { text: 'built 2', extension: '.mjs' } }, [source]);
    writeFileSync(source, 'export const x = 22;\n');
    expect(reusableBuild(key)).toBeUndefined();

    recordBuild(key, { bundle: { text: 'built 3', extension: '.mjs' } }, [source]);
    expect(reusableBuild(key)).toBeDefined();
    const later = new Date(statSync(source).mtimeMs + 5_000);
    utimesSync(source, later, later);
    expect(reusableBuild(key)).toBeUndefined();
  });

  it('is stale when a source or an output is gone', () => {
    const { source, key } = pretendBuild();
    const files = recordBuild(key, { bundle: { text: 'built 4', extension: '.mjs' } }, [source]);
    rmSync(files.bundle!);
    expect(reusableBuild(key)).toBeUndefined();

    recordBuild(key, { bundle: { text: 'built 5', extension: '.mjs' } }, [source]);
    rmSync(source);
    expect(reusableBuild(key)).toBeUndefined();
  });
});
