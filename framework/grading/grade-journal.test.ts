/**
 * The journal on real files: what finds an entry again (files, setup, interpreters, tool), --only and --fresh,
 * and a last line torn by a kill. The CLI tests (cli/commands/grade-class-runs.slow.test.ts) show it
 * under a real SIGINT.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PYTHON2_OVERRIDE_ENV, PYTHON_OVERRIDE_ENV } from '../sandbox/programs/runtimes.ts';
import { GradeJournal } from './grade-journal.ts';
import { submissionFilesHash } from './submission-hash.ts';

const work = mkdtempSync(join(tmpdir(), 'grade-journal-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function student(name: string, files: Record<string, string>): string {
  const dir = join(work, 'class', name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const setup = { suite: 'a suite', cases: [1, 2, 3] };

async function reusedAfter(file: string, paths: readonly string[], o: { tool?: string; setup?: unknown; only?: string[]; fresh?: boolean } = {}): Promise<string[]> {
  const journal = GradeJournal.open({ file, tool: o.tool ?? 'v1', ...(o.only !== undefined ? { only: new Set(o.only) } : {}), ...(o.fresh === true ? { fresh: true } : {}) });
  const run = await journal.forRun<{ score: string }>('agent', o.setup ?? setup, paths);
  const reused = paths.filter((p) => run.recorded(p) !== undefined);
  for (const p of paths) if (!reused.includes(p)) run.record(p, { score: `graded ${p}` });
  journal.compact();
  journal.close();
  return reused.map((p) => p.split('/').at(-1)!);
}

describe('the grade journal', () => {
  it('reuses an entry while the files, the setup and the tool are the same; a change re-grades only what it touches', async () => {
    const file = join(work, 'j1', 'report.journal.jsonl');
    const paths = [student('ann', { 'agent.ts': 'a' }), student('ben', { 'agent.ts': 'b' })];
    expect(await reusedAfter(file, paths)).toEqual([]);
    expect(await reusedAfter(file, paths)).toEqual(['ann', 'ben']);
    writeFileSync(join(paths[1]!, 'agent.ts'), 'b, resubmitted');
    expect(await reusedAfter(file, paths)).toEqual(['ann']);
    expect(await reusedAfter(file, paths, { setup: { ...setup, cases: [1, 2] } })).toEqual([]);
    expect(await reusedAfter(file, paths, { setup: { ...setup, cases: [1, 2] }, tool: 'v2' })).toEqual([]);
    expect(await reusedAfter(file, paths, { setup: { ...setup, cases: [1, 2] }, tool: 'v2', only: ['ben'] })).toEqual(['ann']);
    expect(await reusedAfter(file, paths, { setup: { ...setup, cases: [1, 2] }, tool: 'v2', fresh: true })).toEqual([]);
    // Compacted: the header and this run's two entries.
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });

  it('an entry graded on another Python (--python, --python2) is graded again: a Python 2 file passes on one and fails on the other', async () => {
    const file = join(work, 'j3', 'report.journal.jsonl');
    const paths = [student('fay', { 'agent_minimax.py': 'print "py2"' })];
    const saved = { python: process.env[PYTHON_OVERRIDE_ENV], python2: process.env[PYTHON2_OVERRIDE_ENV] };
    const set = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
    try {
      set(PYTHON_OVERRIDE_ENV, undefined);
      set(PYTHON2_OVERRIDE_ENV, undefined);
      expect(await reusedAfter(file, paths)).toEqual([]);
      set(PYTHON_OVERRIDE_ENV, '/opt/python2.7/bin/python2.7');
      expect(await reusedAfter(file, paths)).toEqual([]);
      expect(await reusedAfter(file, paths)).toEqual(['fay']);
      set(PYTHON2_OVERRIDE_ENV, '/opt/python2.7/bin/python2.7');
      expect(await reusedAfter(file, paths)).toEqual([]);
      set(PYTHON_OVERRIDE_ENV, undefined);
      set(PYTHON2_OVERRIDE_ENV, undefined);
      expect(await reusedAfter(file, paths)).toEqual([]);
      expect(await reusedAfter(file, paths)).toEqual(['fay']);
    } finally {
      set(PYTHON_OVERRIDE_ENV, saved.python);
      set(PYTHON2_OVERRIDE_ENV, saved.python2);
    }
  });

  it('a last line cut short by a kill is dropped, said, and its submission graded again', async () => {
    const file = join(work, 'j2', 'r.journal.jsonl');
    const paths = [student('cal', { 'agent.ts': 'c' }), student('dee', { 'agent.ts': 'd' })];
    await reusedAfter(file, paths);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${lines[0]}\n${lines[1]}\n${lines[2]!.slice(0, 40)}`);
    const journal = GradeJournal.open({ file, tool: 'v1' });
    expect(journal.notes).toEqual([`${file}:3: dropped a last line cut short (an interrupted run); its submission is graded again`]);
    const run = await journal.forRun('agent', setup, paths);
    expect(paths.map((p) => run.recorded(p) !== undefined)).toEqual([true, false]);
    journal.close();
    // The torn line is cut off the file, so that appending continues it.
    expect(readFileSync(file, 'utf8')).toBe(`${lines[0]}\n${lines[1]}\n`);
    appendFileSync(file, 'not json\n');
    expect(() => GradeJournal.open({ file, tool: 'v1' })).toThrow(`${file}:3: not a JSON line`);
  });

  it('the files hash: content, names and the executable bit count; node_modules does not; a FIFO is never opened', async () => {
    const dir = student('eli', { 'a.py': 'x', 'b.py': 'y' });
    const first = await submissionFilesHash(dir);
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', 'x.js'), 'z');
    expect(await submissionFilesHash(dir)).toBe(first);
    writeFileSync(join(dir, 'b.py'), 'y2');
    const second = await submissionFilesHash(dir);
    expect(second).not.toBe(first);
    chmodSync(join(dir, 'a.py'), 0o755);
    const third = await submissionFilesHash(dir);
    expect(third).not.toBe(second);
    // A FIFO would block a read forever: it is named, never opened.
    expect(spawnSync('mkfifo', [join(dir, 'pipe')]).status).toBe(0);
    const fourth = await submissionFilesHash(dir);
    expect(fourth).toMatch(/^[0-9a-f]{64}$/);
    expect(fourth).not.toBe(third);
    expect(await submissionFilesHash(join(work, 'no-such-folder'))).toBeUndefined();
  });
});
