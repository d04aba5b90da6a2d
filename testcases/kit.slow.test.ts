/**
 * Each course's student kit, made by the built command, used as a student would: `npm ci`, then
 * `npm run check -- --json report.json` on the starter as shipped, on a machine where the OS
 * sandbox is unavailable (PATH holds node, npm, sh and ps only: no bubblewrap, as on macOS or
 * Windows) and time and memory are read with ps, as on macOS (MANCALA_POLLING_METER=ps). The starter's unfinished parts must read as failed cases, never as errors. Then the
 * kit is scanned: no file of agents/reference, agents/examples or a hidden suite, and no line of
 * them, anywhere in it — its own files, the framework tarball, or what npm ci installed from it;
 * and no search in any language outside agent/, nor a name the grader runs in playoffs
 * (framework/kit/reference-scan.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanKit } from '../framework/kit/reference-scan.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COURSES = ['csci561', 'csc384', 'cpsc4610', 'cs540', 'kalah'];
const work = mkdtempSync(join(tmpdir(), 'kit-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A PATH with node, npm, sh and ps only: no bubblewrap, no prlimit, no setpriv. */
const bareBin = join(work, 'bin');
beforeAll(() => {
  mkdirSync(bareBin);
  for (const [name, target] of [['node', process.execPath], ['npm', execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()], ['sh', '/bin/sh'], ['ps', execFileSync('sh', ['-c', 'command -v ps'], { encoding: 'utf8' }).trim()]] as const) symlinkSync(target, join(bareBin, name));
});

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).filter((f) => statSync(join(dir, f)).isFile());
}

/** A file's distinctive lines: long, and not an import, a comment or a closing line many files share. */
function distinctiveLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 40 && !/^(import |export \{|\/\/|\*|\/\*)/.test(l));
}

/**
 * What must never reach a student: the files (relative to the project) of the reference, the
 * examples and the hidden suites, and their lines that no other file of the project has (a line
 * an example shares with a starter, or a hidden suite with a public one, tells nothing).
 */
function forbidden(): { paths: string[]; lines: Set<string> } {
  const dirs = ['agents/reference', 'agents/examples', ...readdirSync(join(ROOT, 'testcases')).filter((d) => /hidden/.test(d)).map((d) => `testcases/${d}`)];
  const paths = dirs.flatMap((d) => filesUnder(join(ROOT, d)).map((f) => `${d}/${f.split(sep).join('/')}`));
  const secret = new Set(paths);
  const elsewhere = new Set<string>();
  for (const top of ['framework', 'graders', 'agents', 'testcases', 'bin']) {
    for (const f of filesUnder(join(ROOT, top))) {
      const rel = `${top}/${f.split(sep).join('/')}`;
      if (!secret.has(rel)) for (const l of distinctiveLines(join(ROOT, rel))) elsewhere.add(l);
    }
  }
  const lines = new Set(paths.flatMap((p) => distinctiveLines(join(ROOT, p))).filter((l) => !elsewhere.has(l)));
  return { paths, lines };
}

describe.each(COURSES)('the %s kit', (course) => {
  const kit = join(work, course);
  let made: { code: number | null; out: string; err: string };

  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'kit', course, '--out', kit, '--list'], { encoding: 'utf8', timeout: 300_000 });
    made = { code: r.status, out: r.stdout, err: r.stderr };
    if (made.code === 0) execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: kit, stdio: 'ignore' });
  });

  it('--list names every file of the kit and of its framework package, each with its reason', () => {
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    const listed = new Map(made.out.trim().split('\n').slice(0, -1).map((l) => [l.split(/\s{2,}/)[0]!, l.slice(l.indexOf('  ')).trim()]));
    const own = filesUnder(kit).filter((f) => !f.startsWith(`node_modules${sep}`)).map((f) => f.split(sep).join('/'));
    for (const f of own) expect(listed.get(f), f).toMatch(/\w/);
    const tarball = own.find((f) => f.startsWith('vendor/') && f.endsWith('.tgz'))!;
    const inside = execFileSync('tar', ['tzf', join(kit, tarball)], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, ''));
    for (const f of inside) expect(listed.get(`${tarball}!${f}`), f).toMatch(/\w/);
    expect(made.out).toMatch(new RegExp(`wrote the ${course} kit to .*students run npm ci && npm run check there\\n$`));
  });

  it('npm run check -- --json grades the starter without the OS sandbox: failed cases, never an error', () => {
    const report = join(work, `${course}-report.json`);
    const r = spawnSync('npm', ['run', 'check', '--', '--json', report], { cwd: kit, encoding: 'utf8', env: { ...process.env, PATH: bareBin, MANCALA_POLLING_METER: 'ps' }, timeout: 300_000 });
    expect(r.stderr).toMatch(/sandbox: none on this machine: your own code runs unconfined here[^\n]*CPU time and memory polled with ps/);
    const json = JSON.parse(readFileSync(report, 'utf8')) as { reports?: { submissions: { cases: { id: string; status: string; message: string }[] }[] }[]; submissions?: { cases: { id: string; status: string; message: string }[] }[] };
    const cases = (json.reports ?? [json as { submissions: { cases: { id: string; status: string; message: string }[] }[] }]).flatMap((rep) => rep.submissions.flatMap((s) => s.cases));
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(['passed', 'failed'], `${c.id}: ${c.message}`).toContain(c.status);
  });

  it('holds no file of the reference, the examples or a hidden suite, and no line of them', () => {
    const { paths, lines } = forbidden();
    expect(lines.size).toBeGreaterThan(100);
    const tarball = filesUnder(join(kit, 'vendor'))[0]!;
    const unpacked = join(work, `${course}-unpacked`);
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', join(kit, 'vendor', tarball), '-C', unpacked]);
    const installed = join(kit, 'node_modules', 'mancala-autograder');
    const scanned = [
      ...filesUnder(kit).filter((f) => !f.startsWith(`node_modules${sep}`) && !f.endsWith('.tgz')).map((f) => join(kit, f)),
      ...filesUnder(unpacked).map((f) => join(unpacked, f)),
      ...filesUnder(installed).map((f) => join(installed, f)),
    ];
    // The compiled command names each module it holds on a line of its own: only the package's own files.
    const packaged = new Set(filesUnder(join(unpacked, 'package')).map((f) => f.split(sep).join('/')));
    for (const f of filesUnder(join(unpacked, 'package', 'dist')).filter((f) => f.endsWith('.mjs'))) {
      for (const m of readFileSync(join(unpacked, 'package', 'dist', f), 'utf8').matchAll(/^\/\/ ((?:agents|graders|framework|bin)\/\S+)$/gm)) {
        expect(packaged.has(m[1]!), `dist/${f} holds ${m[1]}, which the package does not`).toBe(true);
      }
    }
    for (const file of scanned) {
      const rel = relative(work, file).split(sep).join('/');
      for (const p of paths) expect(rel.endsWith(p), `${rel} is ${p}`).toBe(false);
      const text = readFileSync(file, 'utf8');
      for (const line of text.split('\n')) expect(lines.has(line.trim()), `${rel} holds a line of the reference: ${line.trim()}`).toBe(false);
    }
  });

  it('holds no search in any language but its starter, and none of the names the grader runs in playoffs (vendor/*.tgz included)', () => {
    const hits = scanKit(kit, ['agent']);
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.kind}: ${h.text}`)).toEqual([]);
  });
});
