/** withSourceNames: a report's snapshot paths put back as the instructor's names, in every form a message writes them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takeInSubmissions } from '../intake/take-in.ts';
import { checkShardSet } from '../shards/merge.ts';
import { shardRecord } from '../shards/record.ts';
import { shownSources, withSourceNames } from './intake.ts';

const work = mkdtempSync(join(tmpdir(), 'cli-intake-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('withSourceNames', () => {
  it('replaces folder and file snapshots, with lines, sentences and ids as grading writes them', async () => {
    mkdirSync(join(work, 'class/alice'), { recursive: true });
    writeFileSync(join(work, 'class/alice/agent.ts'), 'a');
    mkdirSync(join(work, 'x'));
    writeFileSync(join(work, 'x/agent.ts'), 'b');
    const intake = await takeInSubmissions([join(work, 'class/alice'), join(work, 'x/agent.ts')]);
    try {
      const [alice, file] = intake.records;
      const report = {
        submissions: [
          { id: 'alice', path: alice!.path, notes: [`role agent: ${alice!.path}/agent.ts`, `${alice!.path}/agent.ts:3:4: error`, `copied from ${alice!.path}.`] },
          { id: 'agent', path: file!.path, notes: [`${file!.path}:2:1: oops`, `in ${join(intake.root, file!.id)}/other.ts`] },
        ],
      };
      expect(withSourceNames(report, intake)).toEqual({
        submissions: [
          { id: 'alice', path: join(work, 'class/alice'), notes: [`role agent: ${join(work, 'class/alice')}/agent.ts`, `${join(work, 'class/alice')}/agent.ts:3:4: error`, `copied from ${join(work, 'class/alice')}.`] },
          { id: file!.id, path: join(work, 'x/agent.ts'), notes: [`${join(work, 'x/agent.ts')}:2:1: oops`, `in ${join(work, 'x')}/other.ts`] },
        ],
      });
      expect(JSON.stringify(withSourceNames(report, intake))).not.toContain(intake.root);
    } finally {
      await intake.dispose();
    }
  });
});

describe('shownSources: what a shard records and names', () => {
  it('is what the report names each submission (sanitised, never the temp snapshot), so a shard of escaped folder names merges, and its JSON holds none of their raw bytes', async () => {
    const evil = 'evil\x1b]0;owned\x07\u202e\u009b';
    for (const name of [evil, 'plain']) {
      mkdirSync(join(work, 'esc', name), { recursive: true });
      writeFileSync(join(work, 'esc', name, 'agent.ts'), 'a');
    }
    const intake = await takeInSubmissions([join(work, 'esc')]);
    try {
      const paths = intake.records.map((r) => r.path);
      // As grade writes a report: each submission's snapshot path, named back by withSourceNames.
      const report = withSourceNames({ version: 1, submissions: intake.records.map((r) => ({ id: r.id, path: r.path })) }, intake);
      const units = shownSources(intake, paths);
      expect(units).toEqual(report.submissions.map((s) => s.path));
      expect(units).toContain(`${join(work, 'esc')}/evil\\x1b]0;owned\\x07\\u202e\\x9b`);
      const record = shardRecord('grade', { index: 1, count: 1 }, { submissions: units }, units);
      const text = JSON.stringify(record);
      expect(text).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      expect(text).not.toContain(intake.root);
      expect(shownSources(intake, paths.slice(1)).join()).toBe(join(work, 'esc/plain'));
      expect(() => checkShardSet([{ kind: 'report', given: 'shard.json', record, report: report as never }], false)).not.toThrow();
    } finally {
      await intake.dispose();
    }
  });
});
