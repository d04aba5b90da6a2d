import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCacheFolder, markUsed, pruneBuildCache, recordBuild, reusableBuild, UNUSED_ENTRY_MS } from './build-cache.ts';

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

describe('pruning', () => {
  it('removes the files no process used for two weeks; a reuse renews an entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-cache-prune-'));
    folders.push(dir);
    const old = new Date(Date.now() - UNUSED_ENTRY_MS - 60_000);
    for (const name of ['stale.mjs', 'renewed.mjs', 'fresh.mjs']) writeFileSync(join(dir, name), name);
    for (const name of ['stale.mjs', 'renewed.mjs']) utimesSync(join(dir, name), old, old);
    markUsed([join(dir, 'renewed.mjs')]);
    expect(pruneBuildCache({ dir, force: true })).toEqual([join(dir, 'stale.mjs')]);
    expect(readdirSync(dir).sort()).toEqual(['fresh.mjs', 'renewed.mjs']);
    // Two weeks on, nothing was used: everything goes.
    expect(pruneBuildCache({ dir, now: Date.now() + UNUSED_ENTRY_MS + 60_000, force: true }).length).toBe(2);
  });

  it('reusing a build renews its record and outputs', () => {
    const { source, key } = pretendBuild();
    const files = recordBuild(key, { bundle: { text: `renew ${key}`, extension: '.mjs' } }, [source]);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(files.bundle!, old, old);
    expect(reusableBuild(key)).toEqual(files);
    expect(Date.now() - statSync(files.bundle!).mtimeMs).toBeLessThan(600_000);
  });
});
