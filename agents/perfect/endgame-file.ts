/**
 * Endgame database files (`mancala solve --build-endgame S --out FILE`), reused across solves.
 *
 * Format, version 1:
 *   line 1   `mancala-endgame 1`
 *   line 2   one JSON object: {"pits","stones","freeTurn","capture","captureEmptyOpposite","gameEnd",
 *            "positions","sha256"}: the rules the values hold for, the stones S at most on the
 *            board, the number of positions C(S + 2N, 2N), and the SHA-256 of the values (hex)
 *   then     `positions` bytes: each position's future margin for the player to move, a signed
 *            byte, in the order of EndgameIndex (the mover's pits then the opponent's, each row in
 *            sowing order, all ways to hold at most S stones in lexicographic order).
 * Loading checks all of it: a file that is not one, was cut short, or was changed is one line naming it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { UserError } from '../../framework/errors.ts';
import { writeFileAtomically } from '../../framework/write-file.ts';
import type { MancalaGame } from '../../framework/games/mancala/engine.ts';
import { buildEndgameDb, EndgameDb, endgameSizeProblem, type EndgameRules } from './endgame-db.ts';
import { binomial } from './endgame-index.ts';

const MAGIC = 'mancala-endgame 1';

interface Header extends EndgameRules {
  stones: number;
  positions: number;
  sha256: string;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function saveEndgameDb(db: EndgameDb, file: string): void {
  const body = new Uint8Array(db.values.buffer, db.values.byteOffset, db.values.byteLength);
  const header: Header = { ...db.rules, stones: db.maxStones, positions: db.values.length, sha256: sha256(body) };
  const head = Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`, 'utf8');
  writeFileAtomically(file, Buffer.concat([head, body]));
}

const CAPTURES = ['last-and-opposite', 'opposite-only', 'none'];
const ENDS = ['either-row-empty', 'mover-cannot-move'];

/** The header's problem, or undefined. */
function headerProblem(h: Record<string, unknown>): string | undefined {
  const whole = (k: string, lo: number, hi: number) => Number.isInteger(h[k]) && (h[k] as number) >= lo && (h[k] as number) <= hi;
  if (!whole('pits', 1, 20)) return 'field "pits": expected a whole number from 1 to 20';
  if (!whole('stones', 0, 100)) return 'field "stones": expected a whole number from 0 to 100';
  if (typeof h.freeTurn !== 'boolean') return 'field "freeTurn": expected true or false';
  if (typeof h.captureEmptyOpposite !== 'boolean') return 'field "captureEmptyOpposite": expected true or false';
  if (!CAPTURES.includes(h.capture as string)) return `field "capture": expected one of ${CAPTURES.join(', ')}`;
  if (!ENDS.includes(h.gameEnd as string)) return `field "gameEnd": expected one of ${ENDS.join(', ')}`;
  if (typeof h.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(h.sha256)) return 'field "sha256": expected 64 hex digits';
  const size = endgameSizeProblem(h.pits as number, h.stones as number);
  if (size !== undefined) return size;
  const expected = binomial((h.stones as number) + 2 * (h.pits as number), 2 * (h.pits as number));
  if (h.positions !== expected) return `field "positions": expected ${expected} for ${h.pits as number} pits and ${h.stones as number} stones`;
  return undefined;
}

/** Reads and checks a database file; every problem is a UserError naming the file. */
export function loadEndgameDb(file: string): EndgameDb {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new UserError(`${file}: cannot read the endgame database: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const bad = (why: string) => new UserError(`${file}: not a usable endgame database (mancala solve --build-endgame writes them): ${why}`);
  const first = bytes.indexOf(10);
  if (first < 0 || bytes.subarray(0, first).toString('utf8') !== MAGIC) throw bad(`line 1: expected "${MAGIC}"`);
  const second = bytes.indexOf(10, first + 1);
  if (second < 0) throw bad('line 2: expected the JSON header');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(bytes.subarray(first + 1, second).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw bad('line 2: the header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw bad('line 2: expected a JSON object');
  const problem = headerProblem(header);
  if (problem !== undefined) throw bad(`line 2: ${problem}`);
  const h = header as unknown as Header;
  const body = bytes.subarray(second + 1);
  if (body.length !== h.positions) throw bad(`expected ${h.positions} bytes of values after the header, found ${body.length} (cut short or padded?)`);
  if (sha256(body) !== h.sha256) throw bad('the values do not match the header\'s sha256 (the file was changed or damaged)');
  const values = new Int8Array(body.buffer, body.byteOffset, body.length);
  for (let k = 0; k < values.length; k++) {
    if (values[k]! > h.stones || values[k]! < -h.stones) throw bad(`position ${k}: value ${values[k]} is outside -${h.stones}..${h.stones}`);
  }
  const { pits, freeTurn, capture, captureEmptyOpposite, gameEnd } = h;
  return new EndgameDb({ pits, freeTurn, capture, captureEmptyOpposite, gameEnd }, h.stones, values);
}

/** Builds the database of `game`'s rules for at most `maxStones` stones and writes it to `file` (`mancala solve --build-endgame`). */
export function writeEndgameDatabase(
  game: MancalaGame,
  maxStones: number,
  file: string,
  onProgress?: (done: number, total: number) => void,
): { positions: number; bytes: number } {
  const problem = endgameSizeProblem(game.n, maxStones);
  if (problem !== undefined) throw new UserError(`--build-endgame ${maxStones}: ${problem}`);
  const db = buildEndgameDb(game, maxStones, onProgress);
  saveEndgameDb(db, file);
  return { positions: db.values.length, bytes: statSync(file).size };
}
