/**
 * The arena's people: the students' tokens file, the instructor's token, pseudonyms. Tokens are
 * stored in the database as digests only (store.ts); the plain tokens are in DIR/tokens.csv and
 * DIR/instructor.token (mode 0600), for the instructor to send out.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { INSTRUCTOR_TOKEN_FILE, TOKENS_FILE, type Anchor } from './settings.ts';
import { hashToken, newToken, type ArenaStore } from './store.ts';

const INSTRUCTOR_HASH_KEY = 'instructor_token_hash';

/** DIR/tokens.csv (0600): the tokens already there, and `added`'s. */
export function writeTokens(dir: string, added: readonly { id: string; token: string }[]): void {
  const file = join(dir, TOKENS_FILE);
  const known = existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '') : [];
  const lines = ['student,token', ...known, ...added.map((a) => `${csvField(a.id)},${a.token}`)];
  writeFileSync(file, lines.join('\n') + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The instructor's token: made once, kept in DIR/instructor.token (0600), its digest in the database. */
export function instructorToken(dir: string, store: ArenaStore): string {
  const file = join(dir, INSTRUCTOR_TOKEN_FILE);
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (store.getMeta(INSTRUCTOR_HASH_KEY) === hashToken(token)) return token;
  }
  const token = newToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  store.setMeta(INSTRUCTOR_HASH_KEY, hashToken(token));
  return token;
}

/** Whether `token` is the instructor's, compared in constant time. */
export function isInstructorToken(store: ArenaStore, token: string): boolean {
  const hash = store.getMeta(INSTRUCTOR_HASH_KEY);
  if (hash === undefined) return false;
  const x = Buffer.from(hashToken(token), 'hex');
  const y = Buffer.from(hash, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A pseudonym nobody has: `player-` and 4 hex digits of the id's digest with the arena's seed (changeable by the student). */
export function freePseudonym(store: ArenaStore, seed: number, id: string): string {
  for (let k = 0; ; k++) {
    const p = `player-${createHash('sha256').update(`${seed}:${k}:${id}`).digest('hex').slice(0, 4)}`;
    if (!store.pseudonymTaken(p)) return p;
  }
}

/** A student's chosen pseudonym, checked: 3 to 32 letters, digits, spaces, `.`, `_` or `-`; nobody else's, no anchor's. */
export function checkedPseudonym(store: ArenaStore, anchors: readonly Anchor[], student: string, pseudonym: string): string {
  const p = pseudonym.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{1,30}[A-Za-z0-9._-]$/.test(p)) throw new UserError('pseudonym: expected 3 to 32 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
  if (anchors.some((a) => a.spec.toLowerCase() === p.toLowerCase() || a.spec.split(':')[0]!.toLowerCase() === p.toLowerCase())) throw new UserError(`pseudonym: ${p} is a reference agent's name`);
  if (store.pseudonymTaken(p, student)) throw new UserError(`pseudonym: ${p} is taken`);
  return p;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
