import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { duration, plainProgressLine, progressIntervalMs, PROGRESS_INTERVAL_MS, terminalFormat, timeLeftMs } from './progress.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('progress', () => {
  it('off a terminal: the bar\'s format as a plain line, with the time elapsed and left at the rate so far', () => {
    const line = plainProgressLine('grading [{bar}] {value}/{total} cases | {submission} {caseId}', { done: 120, total: 660, payload: { submission: 'alice', caseId: 'minimax-03' } }, 130_000);
    expect(line).toBe('progress: grading 120/660 cases | alice minimax-03; 2 min 10 s elapsed, about 9 min 45 s left');
    expect(plainProgressLine('endgame database [{bar}] {percentage}% of {total} positions', { done: 0, total: 400, payload: {} }, 4_000)).toBe('progress: endgame database 0% of 400 positions; 4 s elapsed');
    expect(duration(3_725_000)).toBe('1 h 02 min');
    expect(timeLeftMs(0, 10, 5_000)).toBeUndefined();
    expect(timeLeftMs(5, 10, 5_000)).toBe(5_000);
  });

  it('on a terminal the bar says the time left; the interval is 30 s unless a test asks for another', () => {
    expect(terminalFormat('grading [{bar}] {value}/{total} cases | {submission} {caseId}')).toBe('grading [{bar}] {value}/{total} cases | {submission} {caseId} | {eta_formatted} left');
    expect(terminalFormat('x {eta_formatted}')).toBe('x {eta_formatted}');
    expect(progressIntervalMs({})).toBe(PROGRESS_INTERVAL_MS);
    expect(PROGRESS_INTERVAL_MS).toBeLessThanOrEqual(30_000);
    expect(progressIntervalMs({ MANCALA_PROGRESS_INTERVAL_MS: '200' })).toBe(200);
    expect(progressIntervalMs({ MANCALA_PROGRESS_INTERVAL_MS: 'soon' })).toBe(PROGRESS_INTERVAL_MS);
  });

  it('a real grading run piped (as under cron, CI or | tee) writes plain progress lines on stderr, none on stdout', async () => {
    const child = spawn(process.execPath, [join(root, 'bin/mancala.js'), 'grade', 'agents/examples/csc384-reference', '--suite', 'testcases/csc384-hidden', '--weak-sandbox', '--jobs', '1'], {
      cwd: root,
      env: { ...process.env, MANCALA_PROGRESS_INTERVAL_MS: '100' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, err).toBe(0);
    const lines = err.split('\n').filter((l) => l.startsWith('progress: '));
    expect(lines.length, err).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^progress: grading \d+\/66 cases \| csc384-reference [\w-]+; \d+ s elapsed(, about \d+ s left)?$/);
    // what is done only grows
    const done = lines.map((l) => Number(/ (\d+)\/66 /.exec(l)![1]));
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(out).not.toContain('progress');
    expect(out).toMatch(/^csc384-reference +100 \/ 100 +all 66 cases passed/m);
  }, 120_000);
});
