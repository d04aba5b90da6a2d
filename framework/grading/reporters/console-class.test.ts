/**
 * The console of a real class, through the built command: one line a submission, a reason repeated
 * across a submission's cases said once with its count, one line for the class for what several
 * submissions share, and a starter's unwritten function named as such.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'console-class-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('mancala grade on a class with broken submissions', () => {
  it('one line each; "× 7 cases" once for an empty folder; the two empty folders in one class line; --verbose every case', () => {
    for (const name of ['ann', 'ben']) mkdirSync(join(work, name));
    cpSync(join(root, 'agents/examples/csc384-reference'), join(work, 'ref'), { recursive: true });
    const args = [join(root, 'bin/mancala.js'), 'grade', join(work, 'ann'), join(work, 'ben'), 'agents/starters/csc384-typescript', join(work, 'ref'), '--suite', 'testcases/csc384-public', '--weak-sandbox', '--no-progress', '--no-color'];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const of = (id: string) => lines.filter((l) => l.startsWith(`${id}  `));
    expect(of('ann')).toEqual([expect.stringMatching(/^ann {2}0 \/ 95 {2}0 of 7 cases passed {2}\d+\.\d s CPU {2}\S+ann {2}error × 7 cases: no submission here: \S+ann \(the folder is empty\)\. CSC384 students hand in /)]);
    expect(of('csc384-typescript')).toEqual([expect.stringMatching(/ {2}failed \([\w-]+\): not written yet: \w+ {2}\(\+ 6 other reasons in 6 cases\)$/)]);
    expect(of('ref')).toEqual([expect.stringMatching(/^ref {2}95 \/ 95 {2}all 7 cases passed {2}\d+\.\d s CPU {2}\S+ref$/)]);
    expect(lines.filter((l) => l.includes('no submission here'))).toHaveLength(3);
    expect(lines).toContainEqual(expect.stringMatching(/^2 submissions: error: no submission here: <submission> \(the folder is empty\)\. CSC384 students hand in .* {2}\(ann, ben\)$/));
    expect(lines.filter((l) => l.includes('✗'))).toEqual([]);
    // --verbose keeps every case
    const verbose = spawnSync(process.execPath, [...args, '--verbose'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(verbose.stdout.match(/no submission here/g)).toHaveLength(2 * 7);
    expect(verbose.stdout.match(/✗/g)!.length).toBe(3 * 7);
  }, 240_000);
});
