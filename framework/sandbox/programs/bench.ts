/**
 * What a case costs a file-in/file-out program in each language csci561's graders meet (C++,
 * Java, Python): a trivial program that reads input.txt and writes next_state.txt, run `n` times
 * through the path `csci561-grade` takes for every case (one `runInSandbox` on the staged folder,
 * with the case's input and outputs, another case following: the jail kept for a submission's
 * cases where the grader is root, jail-session.ts), in the full jail when this machine has it, else the weak
 * mode. For `mancala bench` and the README's figures.
 *
 * Per language: the median wall-clock ms a case takes beyond the CPU time charged to it (jail
 * start, copying in and reading back, and the runtime's start-up, which is not charged), and the
 * runtime's start-up CPU time that is left out of every case's charge (startup.ts).
 * The programs are compiled once, on the host, in a temporary folder (g++, javac); a language
 * whose compiler or runtime is missing is skipped and says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { findExecutable, mechanisms, type SandboxMode } from '../jail/mechanisms.ts';
import { median } from './startup.ts';
import { runInSandbox, settleCleanups, stageFiles } from './run.ts';

const MB = 1024 * 1024;

export const BENCH_LANGUAGES = ['C++', 'Java', 'Python'] as const;
export type BenchLanguage = (typeof BENCH_LANGUAGES)[number];

/** csci561's course limits for a case (framework/packs/csci561/course-suite.ts). */
const CASE_LIMITS = { cpuMs: 5000, memoryBytes: 512 * MB } as const;

/** What each program answers: input.txt's first line, so a run is checked as well as timed. */
const INPUT = 'bench\n2\n';
const EXPECTED = 'bench\n';

interface LanguagePlan {
  /** programs the language needs on the host (compiler, runtime) */
  needs: string[];
  file: string;
  source: string;
  /** the compile command, run in the program's folder (none: nothing to build) */
  build?: string[];
  /** the case's command, as a submission's `command` file would give it */
  argv: string[];
}

const PLANS: Record<BenchLanguage, LanguagePlan> = {
  'C++': {
    needs: ['g++'],
    file: 'main.cpp',
    source: `#include <fstream>
#include <string>
int main() {
    std::ifstream in("input.txt");
    std::string line;
    std::getline(in, line);
    std::ofstream("next_state.txt") << line << "\\n";
}
`,
    build: ['g++', '-O2', '-std=c++17', '-o', 'mancala-bench', 'main.cpp'],
    argv: ['./mancala-bench'],
  },
  Java: {
    needs: ['javac', 'java'],
    file: 'Main.java',
    source: `import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        String line;
        try (BufferedReader in = new BufferedReader(new FileReader("input.txt"))) { line = in.readLine(); }
        try (Writer out = new FileWriter("next_state.txt")) { out.write(line + "\\n"); }
    }
}
`,
    build: ['javac', '-d', '.', 'Main.java'],
    argv: ['java', '-cp', '.', 'Main'],
  },
  Python: {
    needs: ['python3'],
    file: 'main.py',
    source: `with open("input.txt") as f:
    line = f.readline()
with open("next_state.txt", "w") as f:
    f.write(line)
`,
    argv: ['python3', 'main.py'],
  },
};

export type LanguageCosts =
  | {
      language: BenchLanguage;
      mode: SandboxMode;
      /** the case's command */
      command: string;
      runs: number;
      /** median wall-clock ms a case takes beyond the CPU ms charged to it */
      overheadMs: number;
      /** median wall-clock ms of a whole case */
      wallMs: number;
      /** median CPU ms charged to a case (the trivial program's own work) */
      cpuMs: number;
      /** the runtime's start-up CPU ms, measured once and left out of every case's charge */
      startupCpuMs: number;
    }
  | { language: BenchLanguage; mode: SandboxMode; skipped: string };

/** The mode the benchmark runs in: the full jail when this machine has bubblewrap, else the weak mode. */
export async function benchMode(): Promise<SandboxMode> {
  return (await mechanisms()).bwrap !== undefined ? 'full' : 'weak';
}

async function measureLanguage(language: BenchLanguage, n: number, mode: SandboxMode): Promise<LanguageCosts> {
  const plan = PLANS[language];
  const missing = plan.needs.filter((p) => findExecutable(p) === undefined);
  if (missing.length > 0) return { language, mode, skipped: `${missing.join(' and ')} not found on this machine` };
  const root = await mkdtemp(join(tmpdir(), 'mancala-program-bench-'));
  try {
    await writeFile(join(root, plan.file), plan.source);
    if (plan.build !== undefined) {
      const [cmd, ...args] = plan.build;
      const b = await execa(cmd!, args, { cwd: root, reject: false, timeout: 120_000, stdin: 'ignore', all: true });
      if (b.exitCode !== 0) return { language, mode, skipped: `\`${plan.build.join(' ')}\` failed: ${String(b.all ?? '').trim().split('\n').slice(-3).join(' ')}` };
    }
    const files = await stageFiles(root);
    try {
      const overhead: number[] = [];
      const wall: number[] = [];
      const cpu: number[] = [];
      let startupCpuMs = 0;
      // One run more than counted: the first also measures the runtime's start-up and warms the caches.
      for (let k = 0; k <= n; k++) {
        const r = await runInSandbox({ files, argv: plan.argv, inputs: { 'input.txt': INPUT }, outputs: ['next_state.txt', 'traverse_log.txt'], limits: CASE_LIMITS, mode, next: k < n });
        if (r.status !== 'ok') throw new Error(`internal: the ${language} benchmark program failed: ${r.message}`);
        const answer = r.files['next_state.txt']?.toString('utf8');
        if (answer !== EXPECTED) throw new Error(`internal: the ${language} benchmark program wrote ${JSON.stringify(answer)}, not ${JSON.stringify(EXPECTED)}`);
        startupCpuMs = r.startupMs;
        if (k === 0) continue;
        overhead.push(r.wallMs - r.cpuMs);
        wall.push(r.wallMs);
        cpu.push(r.cpuMs);
      }
      await settleCleanups();
      return { language, mode, command: plan.argv.join(' '), runs: n, overheadMs: median(overhead), wallMs: median(wall), cpuMs: median(cpu), startupCpuMs };
    } finally {
      await files.dispose();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * Each language's trivial program, `n` counted runs each (after one warm-up), in `mode` (default:
 * the full jail when available, else the weak mode).
 */
export async function measureLanguageOverheads(n: number, mode?: SandboxMode, languages: readonly BenchLanguage[] = BENCH_LANGUAGES): Promise<LanguageCosts[]> {
  const m = mode ?? (await benchMode());
  const out: LanguageCosts[] = [];
  for (const language of languages) out.push(await measureLanguage(language, n, m));
  return out;
}
