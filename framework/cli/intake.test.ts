/** withSourceNames: a report's snapshot paths put back as the instructor's names, in every form a message writes them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takeInSubmissions } from '../intake/take-in.ts';
import { withSourceNames } from './intake.ts';

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
