/**
 * Time is the grader's measurement, not the submission's: an agent that freezes every clock in its
 * process fails a 500 ms time case exactly as its honest twin does, and a quick agent passes it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { blessSuite, writeExpected } from '../suites/bless.ts';
import { loadSuite } from '../suites/load.ts';
import { gradeSubmissions } from './runner.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ZOO = join(ROOT, 'testcases/fixtures/hostile-agents');
const work = mkdtempSync(join(tmpdir(), 'time-measured-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SUITE = {
  'suite.yaml': `name: Time case
game: {profile: kalah, pits: 6, seeds: 4}
visibility: visible
limits: {ms: 3000, memory_mb: 256}
roles:
  agent: {kind: agent, files: [agent.js], reference: random}
categories:
  - {name: time, weight: 1}
`,
  'cases/cases.yaml': `- id: answers-within-500-ms
  category: time
  position: {start: true}
  checks: {time: 500}
`,
};

describe('the time check', () => {
  it('fails a clock-freezing agent as it fails its honest twin; a quick agent passes', async () => {
    const suiteDir = join(work, 'suite');
    for (const [file, text] of Object.entries(SUITE)) {
      mkdirSync(dirname(join(suiteDir, file)), { recursive: true });
      writeFileSync(join(suiteDir, file), text);
    }
    writeExpected(suiteDir, (await blessSuite(await loadSuite(suiteDir))).expected);
    const submissions = ['freezes-clock', 'honest-twin', 'first-legal'].map((name) => {
      cpSync(join(ZOO, name), join(work, name), { recursive: true });
      return join(work, name);
    });
    const report = await gradeSubmissions({ suite: await loadSuite(suiteDir), submissions, visibility: 'all', jobs: 1 });
    const verdict = (id: string) => report.submissions.find((s) => s.id === id)!.cases[0]!;
    for (const id of ['freezes-clock', 'honest-twin']) {
      expect(verdict(id), id).toMatchObject({ status: 'failed', message: expect.stringMatching(/time: expected an answer within 500 ms, took (6[0-9]{2}|[7-9][0-9]{2}|[0-9]{4,})(\.\d)? ms/) });
    }
    expect(verdict('first-legal')).toMatchObject({ status: 'passed' });
  });
});
