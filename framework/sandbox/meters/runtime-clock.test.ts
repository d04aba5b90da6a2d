/**
 * The fair clock's trust (runtime-clock.ts): which threads are the JVM's own, and that a program
 * cannot pass its own work off as theirs by a thread's name, in a JVM or out of one. Real java and
 * gcc, read through /proc; the matches that show the clock fair are fair-clock.slow.test.ts.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PollingMeter } from './polling-meter.ts';
import { ownThreads, RuntimeClockMeter } from './runtime-clock.ts';

const LIMITS = { memoryBytes: 512 * 1024 * 1024, maxProcesses: 64 };
const javac = spawnSync('javac', ['-version']).status === 0;
const gcc = spawnSync('gcc', ['--version']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'runtime-clock-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The JVM binary `java` on PATH runs, as the grader resolves it (programs/runtimes.ts). */
function javaBinary(): string {
  return realpathSync(execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim());
}

/** Runs `argv` under a fair clock of `jvms` until it prints `spun`; the CPU ms the clock charged and the JVM's own ms it left out. */
async function charged(argv: string[], jvms: string[]): Promise<{ cpuMs: number; exemptMs: number; treeMs: number }> {
  const inner = new PollingMeter(LIMITS);
  const meter = new RuntimeClockMeter(inner, jvms);
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    meter.attach(child.pid!);
    let out = '';
    let begun = false;
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // The program is running its own code: its threads exist, the JVM's too.
        if (!begun && out.includes('started')) {
          begun = true;
          meter.beginRequest(10_000);
        }
        if (out.includes('spun')) resolve();
      });
    });
    return { cpuMs: meter.cpuMs(), exemptMs: meter.exemptMs(), treeMs: inner.cpuMs() };
  } finally {
    await meter.dispose();
  }
}

describe("the JVM's own threads", () => {
  const task = (tid: number, name: string, startTicks: number) => ({ tid, name, startTicks, cpuTicks: 0 });

  it('are, per HotSpot name, the thread of that name that started first; other names are never chosen', () => {
    const chosen = ownThreads(
      [task(12, 'C2 CompilerThre', 500), task(40, 'C2 CompilerThre', 530), task(11, 'VM Thread', 500), task(13, 'C1 CompilerThre', 500), task(14, 'player-move', 540), task(10, 'java', 499)],
      new Map(),
    );
    expect([...chosen].sort()).toEqual([
      ['C1 CompilerThre', 13],
      ['C2 CompilerThre', 12],
      ['VM Thread', 11],
    ]);
  });

  it('started in the same tick: the lower thread id; once chosen, a name stays with its thread', () => {
    const chosen = ownThreads([task(21, 'C2 CompilerThre', 500), task(20, 'C2 CompilerThre', 500)], new Map());
    expect(chosen.get('C2 CompilerThre')).toBe(20);
    // The chosen thread has gone and another of that name appears: it is not taken in its place.
    ownThreads([task(30, 'C2 CompilerThre', 400)], chosen);
    expect(chosen.get('C2 CompilerThre')).toBe(20);
  });
});

describe.runIf(javac)('a Java program that names its own thread after the JIT compiler', () => {
  it('is charged for what that thread does; the real compiler threads are left out', async () => {
    writeFileSync(
      join(work, 'Forger.java'),
      `public class Forger {
  public static void main(String[] args) throws Exception {
    java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
    Thread t = new Thread(() -> {
      System.out.println("started");
      long s = bean.getCurrentThreadCpuTime();
      while (bean.getCurrentThreadCpuTime() - s < 600_000_000L) {}
      System.out.println("spun");
    }, "C2 CompilerThread0");
    t.start();
    t.join();
    Thread.sleep(60_000);
  }
}
`,
    );
    execFileSync('javac', ['-d', work, join(work, 'Forger.java')]);
    const r = await charged(['java', '-XX:+UseSerialGC', '-cp', work, 'Forger'], [javaBinary()]);
    // Its 600 ms spin counts (ticks of 10 ms, and a poll of 20 ms: a generous floor).
    expect(r.cpuMs, JSON.stringify(r)).toBeGreaterThanOrEqual(500);
    expect(r.exemptMs, JSON.stringify(r)).toBeLessThan(300);
  }, 60_000);
});

describe.runIf(gcc)('a program that is not the JVM', () => {
  it('is charged for every thread, whatever it calls them', async () => {
    const source = join(work, 'forger.c');
    writeFileSync(
      source,
      `#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(void) {
  prctl(PR_SET_NAME, "C2 CompilerThre");
  printf("started\\n"); fflush(stdout);
  double s = cpu();
  while (cpu() - s < 0.6) {}
  printf("spun\\n"); fflush(stdout);
  sleep(60);
  return 0;
}
`,
    );
    const binary = join(work, 'forger');
    execFileSync('gcc', ['-O1', '-o', binary, source]);
    // The grader's JVM is known to the clock, but this process does not run it: nothing is left out.
    const r = await charged([binary], [javaBinary()]);
    expect(r.exemptMs).toBe(0);
    expect(r.cpuMs, JSON.stringify(r)).toBeGreaterThanOrEqual(500);
  }, 60_000);
});
