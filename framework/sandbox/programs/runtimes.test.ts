/**
 * The program behind a command's first word (runtimes.ts): the real interpreter past any shim,
 * what the jail must bind for it (pyenv's Python 2.7 too), the submission's own files, a missing runtime, and the JVM's
 * heap under a memory limit.
 */
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../jail/mechanisms.ts';
import { companionRuntimes, javaToolOptions, resolveRuntime } from './runtimes.ts';

const MB = 1024 * 1024;

describe('resolving the first word', () => {
  it.runIf(findExecutable('python3') !== undefined)("python3 is the grader's interpreter itself, never a version manager's shim", async () => {
    const r = await resolveRuntime('python3');
    if ('problem' in r) throw new Error(r.problem);
    expect(r.kind).toBe('python');
    expect(r.executable).toMatch(/^\//);
    expect(r.executable).not.toMatch(/\/shims\//);
    expect(r.startupArgs).toEqual([r.executable, '-c', 'pass']);
    // What lies outside /usr is bound, and the interpreter is inside what is bound.
    const real = realpathSync(r.executable);
    if (!real.startsWith('/usr/')) expect(r.readOnly.some((dir) => real.startsWith(`${dir}/`))).toBe(true);
    expect(r.readOnly.every((p) => !p.startsWith('/usr/'))).toBe(true);
    expect(r.pathDirs[0]).toBe(r.executable.slice(0, r.executable.lastIndexOf('/')));
  });

  // pyenv's python2.7 shim refuses to run unless PYENV_VERSION names a 2.7: its versions folder is looked in instead.
  const shim = findExecutable('python2.7');
  it.runIf(shim !== undefined && shim.includes('/shims/'))("python2.7 is a real Python 2.7, past a pyenv shim that refuses to run it", async () => {
    const r = await resolveRuntime('python2.7');
    if ('problem' in r) throw new Error(r.problem);
    expect(r.kind).toBe('python');
    expect(r.executable).toMatch(/\/versions\/2\.7[.\d]*\/bin\/python2\.7$/);
    expect(r.readOnly.some((dir) => r.executable.startsWith(`${dir}/`))).toBe(true);
  });

  it('a system program needs nothing bound and has no start-up to leave out', async () => {
    const r = await resolveRuntime('sh');
    if ('problem' in r) throw new Error(r.problem);
    expect(r).toMatchObject({ kind: 'native', local: false, readOnly: [] });
    expect(r.startupArgs).toBeUndefined();
  });

  it("the submission's own file stays relative to the work folder; one outside it is refused", async () => {
    expect(await resolveRuntime('./a.out')).toMatchObject({ executable: './a.out', local: true, readOnly: [] });
    expect(await resolveRuntime('bin/run')).toMatchObject({ executable: './bin/run', local: true });
    expect(await resolveRuntime('../x')).toEqual({ problem: '../x: a program of the submission must be inside its folder' });
  });

  it('a runtime the grader lacks is one line naming it', async () => {
    expect(await resolveRuntime('no-such-runtime-561')).toEqual({ problem: 'no-such-runtime-561: no such program on the grader (is the runtime installed?)' });
  });

  it('companions are the interpreters a script may call by name, those present only', async () => {
    const words = (await companionRuntimes()).map((r) => r.word);
    for (const w of ['python3', 'java', 'node']) expect(words.includes(w)).toBe(findExecutable(w) !== undefined);
  });
});

describe("the JVM's options under a memory limit", () => {
  it('leave room for the rest of the JVM, never under 16 MB of heap', () => {
    expect(javaToolOptions(512 * MB)).toBe('-Xmx384m -XX:+UseSerialGC -XX:-UsePerfData');
    expect(javaToolOptions(256 * MB)).toBe('-Xmx144m -XX:+UseSerialGC -XX:-UsePerfData');
    expect(javaToolOptions(64 * MB)).toBe('-Xmx16m -XX:+UseSerialGC -XX:-UsePerfData');
  });
});
