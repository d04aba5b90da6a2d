/**
 * A new instructor's install on a machine with no compiler: the project's committed files (a
 * `git clone` of HEAD into a temp folder) installed with `npm ci`, with a PATH that holds every
 * program of the machine's bin folders but the compilers and build tools (gcc, g++, cc, c++, cpp,
 * clang, make, as, ld, and their target-prefixed names), and npm's nodedir unset, so node-gyp
 * could neither find headers nor build a thing. Then `mancala similarity` compares two sources
 * there, since its parsers were once the native addons every install compiled. The time, the
 * package count and node_modules' size are printed (speed is for the benchmark, not asserted).
 *
 * How strong the proof is: node-gyp and npm find their compilers through the PATH. Where
 * bubblewrap is installed (CI installs it for the sandbox), the install runs in a mount namespace
 * too, where gcc's own folder (/usr/lib/gcc: cc1, cc1plus, collect2) is an empty tmpfs, so not
 * even a compiler reached by an absolute path can compile a thing (the test compiles a C file
 * there by /usr/bin/gcc's absolute path first, and expects that to fail).
 */
import { execFileSync, spawnSync, type SpawnSyncOptionsWithStringEncoding, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'install-no-compiler-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Compilers and build tools, by name (with or without a target prefix such as x86_64-linux-gnu-, or a version suffix). */
const BUILD_TOOL = /^(?:[\w]+-[\w]+-[\w]+-)?(?:gcc|g\+\+|cc|c\+\+|cpp|clang|clang\+\+|make|gmake|as|ld|ld\.\w+|tcc|cc1|collect2)(?:-[\d.]+)?$/;

/** A folder of links to every program in these folders but the build tools. */
function binWithoutCompilers(dirs: readonly string[]): string {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (BUILD_TOOL.test(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  // Node itself wherever it is installed (a version manager's folder is not among the system's).
  if (!existsSync(join(bin, 'node'))) symlinkSync(process.execPath, join(bin, 'node'));
  for (const tool of ['npm', 'npx']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found !== '') {
      rmSync(join(bin, tool), { force: true });
      symlinkSync(found, join(bin, tool));
    }
  }
  return bin;
}

/** Where bubblewrap is on the machine: the command prefix of a mount namespace whose gcc has no compiler passes (see above). */
function withoutGccPasses(): string[] {
  if (spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim() === '') return [];
  const masked = ['/usr/lib/gcc', '/usr/libexec/gcc', '/usr/lib/llvm'].filter((d) => existsSync(d));
  return ['bwrap', '--dev-bind', '/', '/', ...masked.flatMap((d) => ['--tmpfs', d])];
}

/** `command args…` run through `prefix` (a bwrap jail, or nothing). */
function spawnIn(prefix: readonly string[], command: string, args: readonly string[], o: Omit<SpawnSyncOptionsWithStringEncoding, 'encoding'>): SpawnSyncReturns<string> {
  const [first, ...rest] = [...prefix, command, ...args];
  return spawnSync(first!, rest, { ...o, encoding: 'utf8' });
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).filter((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile() === true);
}

describe('npm ci of a fresh clone with no compiler on the PATH', () => {
  it('installs, prints no npm warning, and mancala similarity parses sources there', () => {
    const bin = binWithoutCompilers(['/usr/local/bin', '/usr/bin', '/bin', dirname(process.execPath)]);
    const path = bin;
    for (const tool of ['gcc', 'g++', 'cc', 'c++', 'make', 'as', 'ld']) {
      expect(spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8', env: { PATH: path } }).stdout.trim(), tool).toBe('');
    }
    const jail = withoutGccPasses();
    if (jail.length > 0) {
      // The jail holds: gcc by its absolute path compiles nothing there.
      writeFileSync(join(work, 'probe.c'), 'int main(void) { return 0; }\n');
      const gcc = ['/usr/bin/gcc', '/usr/bin/cc'].find((g) => existsSync(g));
      if (gcc !== undefined) expect(spawnIn(jail, gcc, ['-c', join(work, 'probe.c'), '-o', join(work, 'probe.o')], { env: { PATH: path } }).status).not.toBe(0);
    } else if (process.env.CI === 'true') {
      throw new Error('bubblewrap is missing: .ci/run installs it, and this test needs it to hide gcc\'s compiler passes');
    } else {
      console.log('bubblewrap is not installed: compilers are kept off the PATH only');
    }
    const clone = join(work, 'clone');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], { stdio: 'ignore' });
    // Git's own environment: none of it may carry the project's folder into the clone's npm.
    const env: Record<string, string> = { PATH: path, HOME: process.env.HOME ?? work, npm_config_nodedir: '', npm_config_update_notifier: 'false' };
    const started = Date.now();
    const ci = spawnIn(jail, 'npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, env, timeout: 600_000 });
    const ms = Date.now() - started;
    const modules = filesUnder(join(clone, 'node_modules'));
    const packages = modules.map((f) => f.split(sep).join('/')).filter((f) => /(^|\/node_modules\/)(@[^/]+\/)?[^/@.][^/]*\/package\.json$/.test(f)).length;
    const bytes = modules.reduce((sum, f) => sum + statSync(join(clone, 'node_modules', f)).size, 0);
    console.log(`fresh clone, no compiler: npm ci ${(ms / 1000).toFixed(1)} s, ${packages} packages, node_modules ${(bytes / 1e6).toFixed(0)} MB`);
    expect(ci.status, `${ci.stdout}${ci.stderr}`).toBe(0);
    expect(`${ci.stdout}${ci.stderr}`).not.toMatch(/npm warn/i);
    // No native addon was built: node-gyp leaves a build/ folder with a Makefile behind.
    expect(modules.filter((f) => /(^|[/\\])build[/\\](Makefile|config\.gypi)$/.test(f))).toEqual([]);

    // Similarity's parsers, from the fresh install: two renamed copies of one Java file are one program.
    const build = spawnIn(jail, 'npm', ['run', '-s', 'build'], { cwd: clone, env, timeout: 300_000 });
    expect(build.status, build.stderr).toBe(0);
    const subs = join(work, 'subs');
    const java = (name: string) =>
      [`public class Player {`, `  static int ${name}(int[] pits, int depth) {`, `    int best = -1;`, `    for (int i = 0; i < pits.length; i++) {`, `      if (pits[i] > 0 && (best < 0 || pits[i] > pits[best])) best = i;`, `    }`, `    return depth > 0 ? best : -1;`, `  }`, `}`, ''].join('\n');
    for (const [who, name] of [['ann', 'choose'], ['ben', 'pick'], ['cal', 'select']] as const) {
      mkdirSync(join(subs, who), { recursive: true });
      writeFileSync(join(subs, who, 'Player.java'), java(name));
    }
    const out = join(work, 'similarity.json');
    const r = spawnIn(jail, process.execPath, [join(clone, 'bin', 'mancala.js'), 'similarity', join(subs, 'ann'), join(subs, 'ben'), join(subs, 'cal'), '--no-behaviour', '--json', out], { cwd: clone, env, timeout: 300_000 });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { pairs: { a: string; b: string; source: number | null }[] };
    expect(report.pairs.length).toBe(3);
    for (const p of report.pairs) expect(p.source, `${p.a} ${p.b}`).toBe(1);
  });
});
