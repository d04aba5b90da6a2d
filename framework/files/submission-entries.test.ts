/**
 * Every place the trusted grader looks at a submission's names or reads its files, given links
 * and special files where it expects a file: the names are judged without following
 * (submission-entries.ts), and each reader (the manifest, the `command` file, the listing and the
 * sources inference reads, a stdio agent's detection, the csci561 program-folder test, source
 * similarity, the Gradescope run's locating of the submission) refuses in one line naming the file
 * inside the submission, or leaves it out, and never reads through it. The CLI runs of the same
 * hostile folders, beside a plain agent: testcases/hostile-submissions.slow.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { locateSubmission } from '../export/gradescope/run.ts';
import { isProgramFolder } from '../packs/csci561/program-folders.ts';
import { readProgramSubmission } from '../packs/csci561/program.ts';
import { listSubmissionFiles, readManifest } from '../sandbox/programs/build-files.ts';
import { readRunLines } from '../sandbox/programs/run-lines.ts';
import { CSCI561_RUN_LINES } from '../packs/csci561/course-run-lines.ts';
import { findStdioAgent } from '../sandbox/stdio-agents/spec.ts';
import { readSubmissionSource } from '../similarity/source-files.ts';
import { loadSuite } from '../suites/load.ts';
import { PROJECT_ROOT } from '../sandbox/paths.ts';
import { entryKind, hasEntry, isRegularFileIn, notRegularFile, readSubmissionText, unreadableSubmission } from './submission-entries.ts';

const work = mkdtempSync(join(tmpdir(), 'submission-entries-test-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(work, { recursive: true, force: true });
});
let made = 0;

/** A folder holding `files` (name → text). */
function folder(files: Record<string, string> = {}): string {
  const dir = join(work, `f${++made}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Outside every submission: what a link may point at. */
const secrets = folder({ 'expected.json': '{"secret-case-id": {"move": 3}}', 'sub/agent.py': 'print("secret")\n' });

async function listeningSocket(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((ok) => server.listen(path, ok));
}

describe('names judged without following', () => {
  it('a file, a folder, a link (to a file, a folder, nothing), a FIFO, a socket, a name reached through a linked folder', async () => {
    const d = folder({ 'a.txt': 'x', 'sub/b.txt': 'y' });
    symlinkSync(join(secrets, 'expected.json'), join(d, 'to-file'));
    symlinkSync(secrets, join(d, 'to-folder'));
    symlinkSync(join(secrets, 'no-such-guess'), join(d, 'dangling'));
    execFileSync('mkfifo', [join(d, 'fifo')]);
    await listeningSocket(join(d, 'sock'));
    const kinds = Object.fromEntries(['a.txt', 'sub', 'sub/b.txt', 'to-file', 'to-folder', 'dangling', 'fifo', 'sock', 'to-folder/expected.json', 'none', 'a.txt/x'].map((n) => [n, entryKind(d, n)]));
    expect(kinds).toEqual({
      'a.txt': 'file',
      sub: 'folder',
      'sub/b.txt': 'file',
      'to-file': 'link',
      'to-folder': 'link',
      dangling: 'link',
      fifo: 'special',
      sock: 'special',
      'to-folder/expected.json': 'link',
      none: 'missing',
      'a.txt/x': 'missing',
    });
    // A dangling link is there (existsSync says it is not); a link to a file is no regular file (statSync says it is).
    expect(hasEntry(d, 'dangling')).toBe(true);
    expect(isRegularFileIn(d, 'to-file')).toBe(false);
    expect(notRegularFile(d, 'to-file')).toBe('to-file: a symbolic link (refused)');
    expect(notRegularFile(d, 'dangling')).toBe('dangling: a symbolic link (refused)');
    expect(notRegularFile(d, 'fifo')).toBe('fifo: not a regular file (refused)');
    expect(notRegularFile(d, 'a.txt')).toBeUndefined();
  });

  it('readSubmissionText: the text of a regular file; a link (even through a linked folder) refused, naming the file inside the submission only', () => {
    const d = folder({ 'command': 'python3 mancala.py\n' });
    symlinkSync(secrets, join(d, 'lib'));
    expect(readSubmissionText(d, 'command', 100)).toEqual({ ok: true, text: 'python3 mancala.py\n' });
    const through = readSubmissionText(d, 'lib/expected.json', 1000);
    expect(through).toMatchObject({ ok: false, refusal: 'link', message: 'lib/expected.json: a symbolic link (refused)' });
    // The folder as a user types it, with a trailing slash, or relative to the working folder: the same.
    expect(readSubmissionText(`${d}/`, 'lib/expected.json', 1000)).toMatchObject({ ok: false, refusal: 'link' });
    expect(readSubmissionText(relative(process.cwd(), d), 'lib/expected.json', 1000)).toMatchObject({ ok: false, refusal: 'link' });
  });

  it('unreadableSubmission: a file-system error is one line naming its code and no path; anything else is not the submission\'s', () => {
    const e = Object.assign(new Error(`EACCES: permission denied, scandir '${secrets}'`), { code: 'EACCES' });
    expect(unreadableSubmission(e)).toBe("the submission's files could not be read (EACCES)");
    expect(unreadableSubmission(new TypeError('x is undefined'))).toBeUndefined();
  });
});

describe('the manifest, the listing and the sources inference reads', () => {
  it('mancala.yaml linked to /dev/zero, /dev/stdin, a suite\'s answers, or a FIFO or socket: one line, read never', async () => {
    const cases: [string, (p: string) => void | Promise<void>, string][] = [
      ['/dev/zero', (p) => symlinkSync('/dev/zero', p), 'mancala.yaml: a symbolic link (refused)'],
      ['/dev/stdin', (p) => symlinkSync('/dev/stdin', p), 'mancala.yaml: a symbolic link (refused)'],
      ['answers', (p) => symlinkSync(join(secrets, 'expected.json'), p), 'mancala.yaml: a symbolic link (refused)'],
      ['fifo', (p) => execFileSync('mkfifo', [p]), 'mancala.yaml: not a regular file (refused)'],
      ['socket', (p) => listeningSocket(p), 'mancala.yaml: not a regular file (refused)'],
      ['folder', (p) => mkdirSync(p), 'mancala.yaml: a folder, where a file was expected'],
      ['huge', (p) => writeFileSync(p, Buffer.alloc(65 * 1024, 0x61)), 'mancala.yaml: larger than 64 KB (refused)'],
    ];
    for (const [label, make, line] of cases) {
      const d = folder({ 'agent.ts': '' });
      await make(join(d, 'mancala.yaml'));
      expect(readManifest(d), label).toEqual({ problem: line });
      // A stdio agent's detection: the submission's own one-line error, the path as the instructor gave it.
      await expect(findStdioAgent(d), label).rejects.toThrow(new UserError(`${d}: ${line}`));
    }
  });

  it('listSubmissionFiles leaves out links (to files and folders) and special files, and reads no source through one', () => {
    const d = folder({ 'Main.java': 'class Main {}', 'src/util.py': 'x = 1\n' });
    symlinkSync(join(secrets, 'sub', 'agent.py'), join(d, 'agent.py'));
    symlinkSync(join(secrets, 'sub'), join(d, 'lib'));
    execFileSync('mkfifo', [join(d, 'pipe.py')]);
    const files = listSubmissionFiles(d);
    expect(files.map((f) => f.path)).toEqual(['Main.java', 'src/util.py']);
    expect(JSON.stringify(files)).not.toContain('secret');
  });

  it('a link named agent.py, or a course\'s file: refused as the submission\'s error, never taken for an agent', async () => {
    for (const name of ['agent.py', 'utils.py']) {
      const d = folder();
      symlinkSync(join(secrets, 'sub', 'agent.py'), join(d, name));
      await expect(findStdioAgent(d)).rejects.toThrow(`${d}: ${name}: a symbolic link (refused)`);
    }
  });

  it('a CS540 player reached only through a link is no player', async () => {
    const d = folder();
    const outside = folder({ 'MyPlayer.java': 'public class MyPlayer extends Player {}' });
    symlinkSync(join(outside, 'MyPlayer.java'), join(d, 'MyPlayer.java'));
    expect(await findStdioAgent(d)).toBeUndefined();
  });
});

describe('csci561 program folders and their command file', () => {
  it('a `command` linked to /dev/zero makes a program folder, whose command is refused in one line', async () => {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases', 'csci561-public'));
    const lines = readRunLines(CSCI561_RUN_LINES);
    const d = folder({ 'mancala.py': 'print(1)\n' });
    symlinkSync('/dev/zero', join(d, 'command'));
    expect(isProgramFolder(d, suite, lines)).toBe(true);
    expect(() => readProgramSubmission(d)).toThrow(new UserError(`${d}: command: a symbolic link (refused): the command file is a plain file holding the program's command line (e.g. "python3 mancala.py")`));
    // A FIFO there: refused at once, not waited on.
    const f = folder({ 'mancala.py': 'print(1)\n' });
    execFileSync('mkfifo', [join(f, 'command')]);
    expect(() => readProgramSubmission(f)).toThrow(`${f}: command: not a regular file (refused)`);
  });

  it('a role file that is a dangling link still makes the folder an agent\'s (existsSync would not see it)', async () => {
    const suite = await loadSuite(join(PROJECT_ROOT, 'testcases', 'csci561-public'));
    const d = folder({ 'command': 'python3 mancala.py\n' });
    symlinkSync(join(secrets, 'none'), join(d, 'agent.ts'));
    expect(isProgramFolder(d, suite, readRunLines(CSCI561_RUN_LINES))).toBe(false);
  });
});

describe('source similarity', () => {
  it('compares the regular files only: a link to another student\'s source is no source of this one', () => {
    const d = folder({ 'agent.py': 'def move():\n    return 1\n' });
    symlinkSync(join(secrets, 'sub', 'agent.py'), join(d, 'copied.py'));
    const read = readSubmissionSource(d, undefined);
    expect(read.source?.files).toEqual(['agent.py']);
    expect(read.source?.text).not.toContain('secret');
  });
});

describe('the Gradescope run finding the submission', () => {
  it('one folder is looked into; one link to a folder (the autograder\'s own suites) is not', () => {
    const d = folder();
    symlinkSync(secrets, join(d, 'hw2'));
    const found = locateSubmission(d);
    expect(found).toMatchObject({ dir: d, empty: false, notes: [] });
  });
});
