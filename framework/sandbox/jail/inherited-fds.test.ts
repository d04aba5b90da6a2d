/**
 * A descriptor the grader inherited from whatever started it (a shell's pipe, a CI runner's log:
 * Node marks only its own close-on-exec) must not reach a submission's processes (command.ts,
 * CLOSE_INHERITED). The grader runs here as a child given an extra open file, as fd 3 and fd 251,
 * and a program in the jail, in each mode, lists its descriptors.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.ts';
import { mechanisms } from './mechanisms.ts';

const m = await mechanisms();
const work = mkdtempSync(join(tmpdir(), 'inherited-fds-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GRADER = `import ${JSON.stringify(join(PROJECT_ROOT, 'bin/plugins.ts'))};
import { runInSandbox, settleCleanups, stageFiles } from ${JSON.stringify(join(PROJECT_ROOT, 'framework/sandbox/programs/run.ts'))};
const files = await stageFiles(process.argv[2]);
for (const mode of process.argv.slice(3)) {
  const r = await runInSandbox({ files, argv: ['/bin/sh', 'run.sh'], inputs: {}, outputs: ['out.txt'], limits: { cpuMs: 5000, memoryBytes: 256 * 1024 * 1024 }, mode });
  process.stdout.write(mode + ': ' + r.status + ' ' + JSON.stringify(r.files['out.txt']?.toString() ?? r.message) + '\\n');
}
await settleCleanups();
await files.dispose();
`;

describe.runIf(m.bwrap !== undefined || m.setpriv !== undefined)("descriptors the grader inherited", () => {
  it("reach no submission's process, in the full jail or the weak mode", () => {
    const submission = join(work, 'submission');
    mkdirSync(submission);
    // Each descriptor's target, one a line: the marker file must be none of them.
    writeFileSync(join(submission, 'run.sh'), 'for f in /proc/self/fd/*; do readlink "$f"; done > out.txt; exit 0\n');
    writeFileSync(join(work, 'grader.mts'), GRADER);
    const marker = join(work, 'inherited-marker');
    writeFileSync(marker, 'the instructor\'s open file');
    const fd = openSync(marker, 'r');
    try {
      const modes = m.bwrap !== undefined ? ['full', 'weak'] : ['weak'];
      const stdio = ['ignore', 'pipe', 'pipe', fd, ...Array(247).fill('ignore'), fd] as ('ignore' | 'pipe' | number)[];
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(work, 'grader.mts'), submission, ...modes], { cwd: PROJECT_ROOT, stdio, encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(modes.map((mode) => `${mode}: ok`));
      expect(r.stdout).toContain('/dev/null');
      expect(r.stdout).not.toContain('inherited-marker');
    } finally {
      closeSync(fd);
    }
  });
});
