/**
 * One jail for a submission's cases (jail-session.ts, jail-files.ts): each case must find nothing
 * of the case before it — no process, no file (even in a folder it made unreadable), no System V
 * IPC object, no message queue — and must not reach the supervisor, the grader's disk through a
 * link, or the next case's output. Runs where the grader is root with bubblewrap, as the sessions do.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findExecutable, mechanisms } from '../jail/mechanisms.ts';
import { runInSandbox, settleCleanups, stageFiles, type ProgramLimits, type StagedFiles } from './run.ts';
import { sessionsStarted } from './jail-session.ts';

const m = await mechanisms();
const supervised = m.bwrap !== undefined && m.privileged;
const python = findExecutable('python3') !== undefined;
const ipcmk = findExecutable('ipcmk') !== undefined;

const work = mkdtempSync(join(tmpdir(), 'jail-session-test-'));
const staged: StagedFiles[] = [];
afterAll(async () => {
  await settleCleanups();
  for (const s of staged) await s.dispose();
  rmSync(work, { recursive: true, force: true });
});
let made = 0;

async function files(contents: Record<string, string> = {}): Promise<StagedFiles> {
  const dir = join(work, `submission-${++made}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  const s = await stageFiles(dir);
  staged.push(s);
  return s;
}

const limits: ProgramLimits = { cpuMs: 2000, memoryBytes: 256 * 1024 * 1024 };

/** `n` cases of the same `script` (sh), one after the other as a class's cases run: the jails started for them, and each case's out.txt. */
async function cases(n: number, script: string, s?: StagedFiles, perCase: Partial<ProgramLimits> = {}) {
  const submission = s ?? (await files({ 'run.sh': script }));
  const results = [];
  let before = 0;
  for (let k = 0; k < n; k++) {
    const r = await runInSandbox({ files: submission, argv: ['/bin/sh', 'run.sh'], inputs: { 'input.txt': `case ${k}\n` }, outputs: ['out.txt'], limits: { ...limits, ...perCase }, next: k < n - 1 });
    // The start-up measured before the first case has jails of its own: counted from the first case's end.
    if (k === 0) before = sessionsStarted();
    results.push(r);
  }
  await settleCleanups();
  return { results, outs: results.map((r) => r.files['out.txt']?.toString()), jailsAfterFirst: sessionsStarted() - before };
}

describe.runIf(supervised)("a submission's cases in one jail", () => {
  it('each case finds nothing of the one before: no process, no file (an unreadable folder too), the submission afresh; the jail is kept', async () => {
    const { outs, results, jailsAfterFirst } = await cases(
      4,
      `seen=$(ls -A . /tmp | grep -c left); sleeps=$(cat /proc/[0-9]*/cmdline | tr "\\0" " " | grep -o "sleep 29[.]5" | wc -l)
      mine=$(cat run.sh | wc -c); input=$(cat input.txt)
      echo "$seen $sleeps $mine $input" > out.txt
      echo x > /tmp/left-t; echo x > left-f; mkdir left-d; echo x > left-d/f; chmod 000 left-d; echo changed >> run.sh
      s=29; (sleep $s.5 &); exit 0
`,
    );
    expect(results.map((r) => `${r.status} ${r.message}`)).toEqual(Array(4).fill("ok "));
    const size = outs[0]!.split(' ')[2];
    expect(outs).toEqual([0, 1, 2, 3].map((k) => `0 0 ${size} case ${k}\n`));
    expect(jailsAfterFirst).toBe(0);
  });

  it.runIf(ipcmk)('a System V IPC object left by a case ends its jail: the next case has a new one, and none sees it', async () => {
    const { outs, jailsAfterFirst } = await cases(3, `n=$(sed 1d /proc/sysvipc/shm | wc -l); echo "$n" > out.txt; ipcmk -M 4096 >/dev/null; exit 0`);
    expect(outs).toEqual(['0\n', '0\n', '0\n']);
    expect(jailsAfterFirst).toBe(2);
  });

  it.runIf(python)('a POSIX message queue, which would outlive its process in the jail, cannot be made', async () => {
    const s = await files({
      'mq.py': `import ctypes, os\nlibc = ctypes.CDLL('librt.so.1', use_errno=True)\nfd = libc.mq_open(b'/cache', os.O_CREAT | os.O_RDWR, 0o600, None)\nopen('out.txt', 'w').write('%d %s' % (fd, os.strerror(ctypes.get_errno()) if fd < 0 else ''))\n`,
    });
    const r = await runInSandbox({ files: s, argv: ['python3', 'mq.py'], inputs: {}, outputs: ['out.txt'], limits });
    expect(r.status, r.message).toBe('ok');
    expect(r.files['out.txt']?.toString()).toMatch(/^-1 /);
  });

  it("a link a case leaves to the grader's disk is neither followed when its folder is emptied nor read as an output", async () => {
    const host = join(work, 'host-folder');
    mkdirSync(host);
    writeFileSync(join(host, 'canary'), 'still here');
    // The jail does not show the grader's folder; the link is only a name there, which the grader must not follow.
    const { outs, results } = await cases(2, `ln -s ${host} into-host; ln -s ${host}/canary out.txt; ln -s ${host} /tmp/into-host; exit 0`);
    expect(outs).toEqual([undefined, undefined]);
    for (const r of results) expect(r.notFiles).toEqual(['out.txt']);
    expect(readFileSync(join(host, 'canary'), 'utf8')).toBe('still here');
  });

  it('a case cannot reach the supervisor: kill -9 -1 ends only its own processes, the go lines are not readable, and the case goes on', async () => {
    const { outs, results, jailsAfterFirst } = await cases(
      3,
      `kill -9 -1; got=0
      for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] && continue; if timeout 1 cat $p/fd/0 $p/environ >/dev/null 2>&1; then got=$((got+1)); fi; done
      echo "read $got" > out.txt; exit 0`,
    );
    expect(results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(outs).toEqual(Array(3).fill('read 0\n'));
    expect(jailsAfterFirst).toBe(0);
  });

  it("a case's output is its own: what it prints is not the next case's, and a case stopped at its CPU limit leaves the next one a new jail", async () => {
    const { results, jailsAfterFirst } = await cases(
      3,
      `read line < input.txt; echo "out of $line"; echo "err of $line" >&2; case "$line" in *1) while :; do :; done ;; esac; echo done > out.txt`,
      undefined,
      { cpuMs: 300 },
    );
    expect(results.map((r) => r.status)).toEqual(['ok', 'timeout', 'ok']);
    expect(results.map((r) => r.stdout)).toEqual(['out of case 0\n', 'out of case 1\n', 'out of case 2\n']);
    expect(results.map((r) => r.stderr)).toEqual(['err of case 0\n', 'err of case 1\n', 'err of case 2\n']);
    expect(jailsAfterFirst).toBe(1);
  });
});
