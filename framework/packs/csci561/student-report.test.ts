/**
 * The parts of the students' reports (student-report.ts) that the command's tests
 * (cli/commands/csci561.test.ts) do not reach one by one: a hidden case's comparison without its
 * expected text, folder names from ids, and the reproduce command run by a real shell on folders
 * whose names need quoting.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCaseFiles } from './compare.ts';
import { folderName, reproduceCommand, withoutExpected } from './student-report.ts';

const work = mkdtempSync(join(tmpdir(), 'student-report-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a hidden case's problems", () => {
  it("keep the line and the student's text, never the expected text", () => {
    const expected = { task: 2 as const, nextState: '0 1 2\n3 4 5\n6\n7\n', traverseLog: 'Node,Depth,Value\nroot,0,-Infinity\nB2,1,5\nroot,0,5\n' };
    const problems = compareCaseFiles(expected, { nextState: '0 1 2\n3 4 5\n6\n7\n8\n', traverseLog: 'Node,Depth,Value\nroot,0,-Infinity\nB2,1,", got "x\n' });
    expect(problems.map(withoutExpected)).toEqual([
      'next_state.txt line 5 (an extra line): got "8" (not what was expected)',
      'traverse_log.txt line 3 (lines differ): got "B2,1,\\", got \\"x" (not what was expected)',
    ]);
    expect(withoutExpected('next_state.txt line 2: expected "3 4 5", got nothing (the file ends)')).toBe('next_state.txt line 2: got nothing (the file ends) (not what was expected)');
    expect(withoutExpected('traverse_log.txt: your program did not write it')).toBe('traverse_log.txt: your program did not write it');
  });
});

describe('folder names', () => {
  it('are the id with anything but letters, digits, dots and dashes replaced; never . or ..', () => {
    expect(folderName('minimax-d2-1')).toBe('minimax-d2-1');
    expect(folderName('my case/1')).toBe('my_case_1');
    expect(folderName('..')).toBe('_..');
  });
});

describe('the reproduce command', () => {
  it("runs the program's fresh copy on the case's input.txt, whatever the folders' names, leaving the submission alone", () => {
    const submission = join(work, "it's a submission");
    mkdirSync(submission);
    writeFileSync(join(submission, 'solve.sh'), 'tr 1 9 < input.txt > next_state.txt\n');
    const caseDir = join(work, 'reports $x', 'case 1');
    mkdirSync(caseDir, { recursive: true });
    writeFileSync(join(caseDir, 'input.txt'), '1 2 1\n');
    for (const build of [undefined, 'cp solve.sh built.sh']) {
      const command = reproduceCommand(caseDir, { path: submission, argv: ['sh', build === undefined ? 'solve.sh' : 'built.sh'], ...(build !== undefined ? { build } : {}) });
      const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', cwd: work });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(readFileSync(join(caseDir, 'run', 'next_state.txt'), 'utf8')).toBe('9 2 9\n');
    }
    expect(spawnSync('ls', [submission], { encoding: 'utf8' }).stdout).toBe('solve.sh\n');
  });
});
