/**
 * `mancala submit --arena URL --token T PATH`: a folder is zipped here (its regular files; links,
 * .git, node_modules and caches left out) and posted to the arena; a zip is posted as it is.
 * With `--wait` it follows the submission until its checks and sanity stage are over.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { UserError } from '../errors.ts';
import { isZipFile } from '../files/archive.ts';
import { readRegularFileSync } from '../files/safe-read.ts';
import { MAX_SUBMISSION_BYTES } from './limits.ts';
import { studentText } from '../student-text.ts';

const LEFT_OUT = new Set(['.git', 'node_modules', '__pycache__', '.venv', '.DS_Store']);
const MTIME = new Date('2020-01-01T00:00:00Z');
/** How long --wait waits for the checks and the sanity stage. */
const WAIT_MS = 30 * 60_000;

/** The folder as a zip, in memory: regular files only, in name order. */
export async function zipFolder(dir: string): Promise<Buffer> {
  const zip = new ZipFile();
  let total = 0;
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      if (LEFT_OUT.has(name)) continue;
      const p = join(d, name);
      const s = lstatSync(p);
      if (s.isDirectory()) walk(p, `${prefix}${name}/`);
      else if (s.isFile()) {
        total += s.size;
        if (total > MAX_SUBMISSION_BYTES) throw new UserError(`${dir}: more than ${MAX_SUBMISSION_BYTES / 1024 / 1024} MB of files, more than the arena takes`);
        const read = readRegularFileSync(p, MAX_SUBMISSION_BYTES);
        if (read.ok) zip.addBuffer(read.bytes, `${prefix}${name}`, { mtime: MTIME, mode: (s.mode & 0o111 ? 0o755 : 0o644) | 0o100000 });
      }
    }
  };
  walk(dir, '');
  zip.end();
  return buffer(zip.outputStream);
}

function apiUrl(base: string, path: string): URL {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new UserError(`--arena ${base}: expected the arena's address, e.g. http://lab-server:8650`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UserError(`--arena ${base}: expected an http:// or https:// address`);
  return new URL(path, `${u.protocol}//${u.host}`);
}

async function call(base: string, token: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = apiUrl(base, path);
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { ...(init.headers ?? {}), authorization: `token ${token}` } });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new UserError(`--arena ${base}: cannot reach it (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/**
 * A word of the arena's answer as one safe line: the answer carries what submissions printed (the
 * checks' text, a verdict's reason), and a server is not ours to trust with the terminal either.
 */
function said(value: unknown): string {
  return studentText(String(value), { multiline: false });
}

export async function submitToArena(path: string, arena: string, token: string, o: { wait: boolean }): Promise<string> {
  let s;
  try {
    s = lstatSync(path);
  } catch {
    throw new UserError(`${path}: no such file or folder`);
  }
  let zip: Buffer;
  if (s.isDirectory()) zip = await zipFolder(path);
  else if (s.isFile() && isZipFile(path)) {
    if (s.size > MAX_SUBMISSION_BYTES) throw new UserError(`${path}: ${Math.round(s.size / 1048576)} MB, more than the ${MAX_SUBMISSION_BYTES / 1048576} MB the arena takes`);
    zip = readFileSync(path);
  } else throw new UserError(`${path}: expected your submission's folder, or a zip of it`);
  const posted = await call(arena, token, '/api/arena/submissions', { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(zip) });
  if (posted.status !== 201) throw new UserError(`the arena refused the upload (${posted.status}): ${said(posted.body['error'] ?? '')}`);
  const id = Number(posted.body['id']);
  const lines = [`submission ${id}: ${said(posted.body['status'])} (content ${said(String(posted.body['contentHash']).slice(0, 12))})`];
  if (!o.wait) return `${lines.join('\n')}\n`;
  const until = Date.now() + WAIT_MS;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    if (Date.now() > until) throw new UserError(`submission ${id}: still not judged after ${WAIT_MS / 60_000} minutes (the arena may be busy); its status is at ${apiUrl(arena, `/api/arena/submissions/${id}`).href}`, 1);
    const got = await call(arena, token, `/api/arena/submissions/${id}`);
    if (got.status !== 200) throw new UserError(`the arena did not answer for submission ${id} (${got.status}): ${said(got.body['error'] ?? '')}`);
    const status = said(got.body['status']);
    if (status === 'checking' || status === 'sanity') continue;
    const feedback = (got.body['feedback'] ?? {}) as { checks?: { summary?: string; text?: string }; verdict?: string };
    if (feedback.checks?.text) lines.push(studentText(String(feedback.checks.text)).trimEnd());
    lines.push(`submission ${id}: ${status}${feedback.verdict !== undefined ? `: ${said(feedback.verdict)}` : ''}`);
    return `${lines.join('\n')}\n`;
  }
}
