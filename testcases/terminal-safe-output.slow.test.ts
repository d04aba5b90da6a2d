/**
 * Student text on the instructor's terminal (docs/security.md): every command that prints what a
 * submission said (its crash, its stderr, its protocol lines, its program's files) or its folder's
 * name, run for real (node bin/mancala.js, built by the test setup) on hostile submissions in
 * folders whose names hold escapes. Neither stdout, stderr, nor any report file written (CSV,
 * JSON, JUnit, Gradescope, HTML, csci561's student reports) may hold ESC, BEL, another C0 control
 * but newline, tab and CRLF's CR, a C1 control or a bidi control: as bytes, nor inside a JSON
 * string once decoded. Each run must also show the escape visibly (`\x1b`), so the test cannot
 * pass by the text having been dropped.
 *
 * Also `submissions` (text, --json), `merge` of two shards, `arena standings` (text, --json) and
 * `arena final` on a student whose roster id holds the escapes, and `mancala worker`'s lines
 * (where redis-server is installed).
 *
 * Submissions run with --weak-sandbox, the same on every machine: this is about what is printed,
 * not about confinement (the sandbox's own tests hold that).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arena } from '../framework/arena/arena.ts';
import { startPrivateRedis } from '../framework/distributed/redis-server.ts';
import { blessSuite, writeExpected } from '../framework/suites/bless.ts';
import { loadSuite } from '../framework/suites/load.ts';
import { describeWithRedis, startWorker } from './fixtures/queue-workers.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin/mancala.js');
const fixtures = join(root, 'testcases/fixtures');
const work = mkdtempSync(join(tmpdir(), 'terminal-safe-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder name a student could pick: a window title (OSC 0 … BEL) and a right-to-left override. Made here, never committed. */
const EVIL_NAME = 'ev\u001b]0;T\u0007il\u202e';
/** C0 but tab, newline and carriage return (CRLF line ends of the CSV), DEL, C1, the bidi controls, lone surrogates. */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;
/** A bare CR that is no CRLF: it would return to the line's start and overwrite it. */
const BARE_CR = /\r(?!\n)/;
/** The intake's snapshot folder (framework/files/temp-folders.ts): no output may name it; each names the submission as given. */
const SNAPSHOT = /mancala-\d+-intake-/;
/** EVIL_NAME as the sanitiser shows it, escapes visible. */
const EVIL_SHOWN = 'ev\\x1b]0;T\\x07il\\u202e';
/** The id the intake gives a submission in the folder EVIL_NAME (safeId: a file name's letters only), which names its per-student files. */
const EVIL_ID = 'ev__0_T_il_';

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

/** `weak`: with --weak-sandbox (the commands that run nothing have no such option). */
function mancala(args: string[], weak = true): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args, ...(weak ? ['--weak-sandbox'] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

/** Where in `bytes` a terminal would obey something: ESC, BEL, a C1 in UTF-8 (C2 80..9F), or the decoded text's unsafe characters. */
function unsafeAt(bytes: Buffer): string | undefined {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x1b || b === 0x07) return `byte 0x${b.toString(16)} at ${i}: ${JSON.stringify(bytes.subarray(Math.max(0, i - 40), i + 40).toString('utf8'))}`;
    if (b === 0xc2 && bytes[i + 1]! >= 0x80 && bytes[i + 1]! <= 0x9f) return `C1 U+00${bytes[i + 1]!.toString(16)} at ${i}`;
  }
  const text = bytes.toString('utf8');
  const m = UNSAFE.exec(text) ?? BARE_CR.exec(text);
  return m === null ? undefined : `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 40))}`;
}

/** Every string in a JSON value, decoded (a "\u001b" in the file is an ESC in the value). */
function* jsonStrings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* jsonStrings(v);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* [k, ...jsonStrings(v)];
}

function expectSafeFile(file: string): void {
  const bytes = readFileSync(file);
  expect(unsafeAt(bytes), file).toBeUndefined();
  expect(bytes.toString('utf8'), file).not.toMatch(SNAPSHOT);
  if (!/\.jsonl?$/.test(file)) return;
  const text = bytes.toString('utf8');
  const values = file.endsWith('.jsonl') ? text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown) : [JSON.parse(text) as unknown];
  for (const s of values.flatMap((v) => [...jsonStrings(v)])) expect(UNSAFE.test(s) || BARE_CR.test(s), `${file}: ${JSON.stringify(s).slice(0, 200)}`).toBe(false);
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The run printed nothing a terminal obeys, wrote no such file, and showed the student's escapes visibly. */
function expectSafe(r: Run, files: readonly string[], shows: readonly string[] = ['\\x1b', '\\u202e']): void {
  expect(unsafeAt(r.stdout), `stdout: ${r.stdout.toString('utf8').slice(0, 400)}`).toBeUndefined();
  expect(unsafeAt(r.stderr), `stderr: ${r.stderr.toString('utf8').slice(0, 400)}`).toBeUndefined();
  for (const f of files) expectSafeFile(f);
  const all = Buffer.concat([r.stdout, r.stderr]).toString('utf8');
  expect(all).not.toMatch(SNAPSHOT);
  for (const s of shows) expect(all, all.slice(0, 2000)).toContain(s);
}

/** `fixture` copied into a folder named `name` under `parent`. */
function copyAs(fixture: string, parent: string, name: string): string {
  const to = join(parent, name);
  cpSync(join(fixtures, fixture), to, { recursive: true });
  return `${to}/`;
}

let hostile: string;
let stdio: string;
let suite: string;

beforeAll(async () => {
  hostile = copyAs('hostile-agents/terminal-escapes', join(work, 'agents'), EVIL_NAME);
  stdio = copyAs('hostile-agents/terminal-escapes-stdio', join(work, 'stdio'), `${EVIL_NAME}-stdio`);
  // A one-case suite: the grade is about what is printed, not about a long run.
  suite = join(work, 'suite');
  mkdirSync(join(suite, 'cases'), { recursive: true });
  writeFileSync(
    join(suite, 'suite.yaml'),
    'name: Terminal escapes\ngame: kalah\nvisibility: visible\nroles:\n  agent: {kind: agent, files: [agent.ts, agent.js], reference: alphabeta}\ncategories:\n  - {name: search, weight: 10}\n',
  );
  writeFileSync(join(suite, 'cases/cases.yaml'), '- id: start-depth-2\n  category: search\n  position: {start: true}\n  options: {depth: 2}\n  checks: {move: true, value: true}\n');
  writeExpected(suite, (await blessSuite(await loadSuite(suite))).expected);
});

describe('student text never drives the terminal', () => {
  it('grade: the crash, the folder name, the "no submission ran" line, and every report file', async () => {
    const out = join(work, 'grade');
    mkdirSync(out);
    const files = ['report.json', 'grades.csv', 'junit.xml', 'results.json', 'report.html'].map((f) => join(out, f));
    const r = await mancala(['grade', hostile, stdio, '--suite', suite, '--no-progress', '--no-color', '--jobs', '1', '--json', files[0]!, '--csv', files[1]!, '--junit', files[2]!, '--gradescope', files[3]!, '--html', files[4]!]);
    expect(r.code, r.stderr.toString()).toBe(1); // no submission ran
    // The line names each submission by its id, file-name-safe since the intake names its snapshot by it; the crash it quotes shows its escapes.
    expect(r.stderr.toString()).toContain(`mancala: no submission ran: every case of any of the 2 submissions is an error (${EVIL_ID}, start-depth-2: role agent: chooseMove failed: Error: terminal-escapes gave up: \\x1b]0;owned title\\x07`);
    expect(r.stdout.toString()).toContain('terminal-escapes gave up: \\x1b]0;owned title\\x07');
    expectSafe(r, readdirSync(out).map((f) => join(out, f)));
    expect(readdirSync(out).sort()).toEqual(['grades.csv', 'junit.xml', 'report.html', 'report.journal.jsonl', 'report.json', `results.${EVIL_ID}-stdio.json`, `results.${EVIL_ID}.json`].sort());
    // The report names each folder as it was given (not by its snapshot), shown as the sanitiser shows it.
    const paths = (JSON.parse(readFileSync(files[0]!, 'utf8')) as { submissions: { path: string }[] }).submissions.map((s) => s.path.replace(/\/$/, ''));
    expect(paths.sort()).toEqual([join(work, 'agents', EVIL_SHOWN), join(work, 'stdio', `${EVIL_SHOWN}-stdio`)].sort());
    // The stdio agent's protocol line is quoted, escapes shown.
    expect(readFileSync(files[0]!, 'utf8')).toContain('not json \\\\x9b31m \\\\u202eevil\\\\u202c');
  });

  it('check: the crash on the student\'s own console, and its --json', async () => {
    const json = join(work, 'check.json');
    const r = await mancala(['check', hostile, '--suite', suite, '--no-color', '--json', json]);
    expect(r.code, r.stderr.toString()).toBe(1);
    expectSafe(r, [json]);
  });

  it("match: a forfeit's message and the side's name, text and --json", async () => {
    const r = await mancala(['match', hostile, 'random', '--games', '1', '--no-progress']);
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toMatch(/lost by crash at move \d+: role agent: chooseMove failed: Error: terminal-escapes gave up: \\x1b\]0;owned title\\x07/);
    expectSafe(r, []);
    const replays = join(work, 'match-replays');
    const json = await mancala(['match', hostile, 'random', '--games', '1', '--no-progress', '--json', '--replays', replays]);
    expectSafe(json, filesUnder(replays));
  });

  it("play: the seat's name and the forfeit, on the terminal the game is played on", async () => {
    const r = await mancala(['play', '--bottom', hostile, '--top', 'random', '--seed', '1']);
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toContain('forfeits: it crashed: ');
    expectSafe(r, []);
  });

  it('tournament: the standings, the crosstable, the forfeits and --json', async () => {
    const out = join(work, 'tournament');
    const json = join(work, 'standings.json');
    const r = await mancala(['tournament', hostile, 'random', '--games-per-pair', '2', '--time-per-move', '500', '--no-progress', '--out', out, '--json', json]);
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toContain('crash ×2');
    // results.jsonl keys the run by the agents as given (a resume compares them): not checked here; the forfeits in it are.
    expectSafe(r, [json]);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"forfeit":{'));
    expect(results.length).toBe(2);
    for (const line of results) expect(UNSAFE.test(String((JSON.parse(line) as { forfeit: { message: string } }).forfeit.message))).toBe(false);
  });

  it("gauntlet (cs540): each game's forfeit, the submission's name, and its reports", async () => {
    const out = join(work, 'gauntlet');
    mkdirSync(out);
    const files = ['g.json', 'g.csv', 'results.json'].map((f) => join(out, f));
    const r = await mancala(['gauntlet', hostile, '--stones', '4', '--time-per-move', '200', '--games', '2', '--no-progress', '--json', files[0]!, '--csv', files[1]!, '--gradescope', files[2]!]);
    expect(r.code, r.stderr.toString()).toBe(0);
    // The submission as it was given, not its snapshot, escapes shown.
    expect(r.stdout.toString()).toContain(`gauntlet: ${join(work, 'agents', EVIL_SHOWN)}`);
    expectSafe(r, filesUnder(out));
  });

  it("similarity: the pair table's folder names, the behaviour failure, and --json, --csv, --html", async () => {
    const subs = join(work, 'similarity');
    copyAs('hostile-agents/terminal-escapes', subs, EVIL_NAME);
    copyAs('hostile-agents/first-legal', subs, 'plain');
    const out = join(work, 'similarity-out');
    mkdirSync(out);
    const files = ['s.json', 's.csv', 's.html'].map((f) => join(out, f));
    const r = await mancala(['similarity', join(subs, EVIL_NAME), join(subs, 'plain'), '--positions', '4', '--no-progress', '--json', files[0]!, '--csv', files[1]!, '--html', files[2]!]);
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toContain('behaviour not compared');
    expectSafe(r, files);
  });

  it("csci561-grade: a program's stderr and stdout, its files quoted in a failure, and the student reports", async () => {
    const subs = join(work, 'programs');
    const failing = copyAs('hostile-programs/terminal-escapes', subs, EVIL_NAME);
    writeFileSync(join(failing, 'command'), 'python3 escapes.py --fail\n');
    const lying = copyAs('hostile-programs/terminal-escapes', subs, 'liar');
    const out = join(work, 'csci561');
    mkdirSync(out);
    const files = ['p.json', 'p.csv', 'junit.xml'].map((f) => join(out, f));
    const reports = join(work, 'csci561-reports');
    const r = await mancala(['csci561-grade', failing, lying, '--suite', join(root, 'testcases/csci561-public'), '--case', 'alphabeta-d1-1', '--no-progress', '--no-color',
      '--json', files[0]!, '--csv', files[1]!, '--junit', files[2]!, '--reports', reports]);
    expect(r.code, r.stderr.toString()).toBe(0);
    expectSafe(r, files);
    const paths = (JSON.parse(readFileSync(files[0]!, 'utf8')) as { submissions: { path: string }[] }).submissions.map((s) => s.path.replace(/\/$/, ''));
    expect(paths.sort()).toEqual([join(subs, EVIL_SHOWN), join(subs, 'liar')].sort());
    // The student reports quote what the program said and wrote; the program's own files beside them are kept as it wrote them (evidence).
    const written = filesUnder(reports).filter((f) => !/\/(next_state|traverse_log)\.txt$/.test(f));
    expect(written.some((f) => f.endsWith('.diff'))).toBe(true);
    for (const f of written) expectSafeFile(f);
    const report = readFileSync(join(reports, EVIL_ID, 'report.txt'), 'utf8');
    expect(report).toContain('Traceback: \\x1b]0;owned title\\x07');
    // Its reproduce line copies the folder as given, not the intake's snapshot (removed at exit).
    expect(readFileSync(join(reports, 'liar', 'report.txt'), 'utf8')).toContain(`cp -R ${join(subs, 'liar')}/. run/`);
  });
});

describe('student text never drives the terminal: the intake, merge and the arena', () => {
  it('submissions: the folder names and notes, text and --json', async () => {
    const r = await mancala(['submissions', hostile, stdio], false);
    expect(r.code, r.stderr.toString()).toBe(0);
    expectSafe(r, []);
    const json = await mancala(['submissions', hostile, stdio, '--json'], false);
    expect(json.code, json.stderr.toString()).toBe(0);
    expectSafe(json, []);
    for (const v of jsonStrings(JSON.parse(json.stdout.toString()))) expect(UNSAFE.test(v), v).toBe(false);
  });

  it('merge: two shards of a class with the escaped folders, its console and its reports', async () => {
    const out = join(work, 'merge');
    mkdirSync(out);
    for (const i of [1, 2]) {
      const r = await mancala(['grade', hostile, stdio, '--suite', suite, '--no-progress', '--no-color', '--jobs', '1', '--shard', `${i}/2`, '--json', join(out, `shard${i}.json`)]);
      expect([0, 1], r.stderr.toString()).toContain(r.code);
      expectSafe(r, [join(out, `shard${i}.json`)], ['\\x1b']);
    }
    const files = ['merged.json', 'merged.csv', 'merged.xml'].map((f) => join(out, f));
    const r = await mancala(['merge', join(out, 'shard1.json'), join(out, 'shard2.json'), '--json', files[0]!, '--csv', files[1]!, '--junit', files[2]!], false);
    expect([0, 1], r.stderr.toString()).toContain(r.code);
    expectSafe(r, files);
  });

  it("arena standings (text, --json) and arena final: a student's id from the roster", { timeout: 240_000 }, async () => {
    const dir = join(work, 'arena');
    const arena = Arena.open(dir, { course: 'kalah', timePerMoveMs: 200, sanityGames: 2, placementGames: 2, anchors: [{ spec: 'random', mu: 10 }, { spec: 'greedy', mu: 18 }] }, { jobs: 2, ladderAhead: 0 });
    try {
      arena.addStudents([{ id: EVIL_NAME }]);
      arena.start();
      const sub = await arena.submit(EVIL_NAME, { folder: join(fixtures, 'hostile-agents/first-legal') });
      await new Promise((done) => setTimeout(done, 500));
      await arena.idle();
      await arena.stop();
      expect(arena.store.submission(sub.id)!.status).toBe('ladder');
    } finally {
      arena.close();
    }
    for (const args of [['standings', dir], ['standings', dir, '--json']]) {
      const r = await mancala(['arena', ...args], false);
      expect(r.code, r.stderr.toString()).toBe(0);
      expectSafe(r, []);
    }
    expect((await mancala(['arena', 'freeze', dir], false)).code).toBe(0);
    const r = await mancala(['arena', 'final', dir, '--games-per-pair', '2', '--stages', '1', '--jobs', '2']);
    expect(r.code, r.stderr.toString()).toBe(0);
    expectSafe(r, [join(dir, 'final', 'standings.json')]);
  });
});

describeWithRedis('student text never drives the terminal: mancala worker', () => {
  it("worker: its lines on the jobs it plays, a hostile submission's failure among them", { timeout: 180_000 }, async () => {
    const redis = await startPrivateRedis();
    const worker = startWorker(redis.url, 'w1');
    try {
      const json = join(work, 'queued.json');
      const r = await mancala(['grade', hostile, '--suite', suite, '--no-progress', '--no-color', '--queue', redis.url, '--json', json]);
      expect(r.code, r.stderr.toString()).toBe(1);
      expectSafe(r, [json]);
      worker.kill('SIGINT');
      await worker.exited;
      const lines = Buffer.from(`${worker.lines.join('\n')}\n`);
      expect(unsafeAt(lines), lines.toString()).toBeUndefined();
      expect(lines.toString()).not.toMatch(SNAPSHOT);
      // It played the job (its line names the submission by its id: a file name's letters only, no student text to show).
      expect(lines.toString()).toMatch(new RegExp(`grade [0-9a-f]+ submission ${EVIL_ID}: 0/10`));
    } finally {
      worker.kill('SIGKILL');
      await redis.stop();
    }
  });
});
