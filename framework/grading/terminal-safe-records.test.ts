/**
 * The boundaries where student text enters the grader's records make it terminal-safe
 * (student-text.ts), in process and fast; testcases/terminal-safe-output.slow.test.ts runs the commands.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../sandbox/outcome-wording.ts';
import { excerpt } from '../sandbox/watched-tree.ts';
import { loadSuite } from '../suites/load.ts';
import { renderForfeits, renderStandings } from '../tournaments/crosstable.ts';
import { submissionId } from './grade-submission.ts';
import { scoreSubmission } from './score.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EVIL = 'a\u001b]0;title\u0007\u001b[2J \u009b31m \u202eevil\u202c';
const SHOWN = 'a\\x1b]0;title\\x07\\x1b[2J \\x9b31m \\u202eevil\\u202c';
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const wording = { memoryMb: 512, submissionDir: '/tmp/sub', runtimeDir: '/tmp/runtime' };

describe('student text enters the records terminal-safe', () => {
  it("the sandbox's wording of a failure, an exit's stderr and a broken channel", () => {
    const failed = describeOutcome({ outcome: { kind: 'reply', message: { type: 'failed', status: 'error', message: EVIL } as never }, cpuMs: 1, wallMs: 1 }, 1000, '', wording);
    expect(failed.status === 'ok' ? '' : failed.message).toBe(SHOWN);
    const exit = describeOutcome({ outcome: { kind: 'exit', code: 1, signal: null, outOfMemory: false, peakMemoryBytes: 0, stderr: EVIL }, cpuMs: 1, wallMs: 1 }, 1000, '', wording);
    expect(exit.status === 'ok' ? '' : exit.message).toBe(`the submission's process exited with code 1; its stderr ended with: ${SHOWN}`);
    const broken = describeOutcome({ outcome: { kind: 'malformed', problem: EVIL }, cpuMs: 1, wallMs: 1 }, 1000, '', wording);
    expect(broken.status === 'ok' ? '' : broken.message).not.toMatch(UNSAFE);
    expect(excerpt(EVIL)).toBe(`; its stderr ended with: ${SHOWN}`);
  });

  it("a submission's id, path, notes and case messages in its report", async () => {
    const suite = await loadSuite(join(root, 'testcases/kalah-basics'));
    const c = suite.cases[0]!;
    const report = scoreSubmission(suite, EVIL, `submissions/${EVIL}\n`, [`role agent: ${EVIL}/agent.js`], [{ c, status: 'error', message: `crash: ${EVIL}\nsecond line`, ms: 1, nodes: null }]);
    expect(report.id).toBe(SHOWN);
    expect(report.path).toBe(`submissions/${SHOWN}\\x0a`);
    expect(report.notes).toEqual([`role agent: ${SHOWN}/agent.js`]);
    expect(report.cases[0]!.message).toBe(`crash: ${SHOWN}\nsecond line`);
    // Idempotent: a report scored again from its own fields (a merge of shards) is the same.
    expect(scoreSubmission(suite, report.id, report.path, report.notes, [{ c, status: 'error', message: report.cases[0]!.message, ms: 1, nodes: null }])).toEqual(report);
    expect(submissionId(`/x/${EVIL}.ts`)).toBe(SHOWN);
  });

  it("a tournament's tables, from a results file that holds the raw bytes", () => {
    const standing = { agent: `subs/${EVIL}`, rating: 25, ci: [20, 30] as [number, number], wins: 0, draws: 0, losses: 1, points: 0, forfeits: 1 };
    expect(renderStandings([standing])).not.toMatch(UNSAFE);
    const game = { index: 1, A: `subs/${EVIL}`, B: 'random', first: 'A', winner: 'B', score: [0, 48], moves: 1, openingPlies: 0, forfeit: { side: 'A', reason: 'crash', message: EVIL }, time: [1, 1] };
    const text = renderForfeits([game as never]);
    expect(text).toContain(SHOWN);
    expect(text).not.toMatch(UNSAFE);
  });
});
