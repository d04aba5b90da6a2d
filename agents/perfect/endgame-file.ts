/**
 * Endgame database files (`mancala solve --build-endgame S --out FILE`), reused across solves.
 *
 * Format, version 2:
 *   line 1   `mancala-endgame 2`
 *   line 2   one JSON object: {"pits","stones","freeTurn","capture","captureEmptyOpposite","gameEnd",
 *            "positions","sha256"}: the rules the values hold for, the stones S at most on the
 *            board, the number of positions C(S + 2N, 2N), and the SHA-256 of the values (hex)
 *   then     `positions` bytes: each position's future margin for the player to move, a signed
 *            byte, layer by layer (0 stones on the board, then 1, .. S), each layer in the order
 *            of EndgameIndex (the mover's pits then the opponent's, each row in sowing order, all
 *            ways to hold exactly that many stones in lexicographic order).
 * Version 1 held the same values in one numbering of every position up to S; its files are
 * refused with a word to build them again. Files are read and written in pieces: a database of
 * 28 stones on 6 pits is 5.6 GB, more than one buffer holds. Loading checks all of it: a file that
 * is not one, was cut short, or was changed is one line naming it.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { UserError } from '../../framework/errors.ts';
import { writeFileAtomicallyWith } from '../../framework/write-file.ts';
import { EndgameDb, endgameSizeProblem, type EndgameRules } from './endgame-db.ts';
import { binomial, EndgameIndex } from './endgame-index.ts';

const VERSION = 2;
const MAGIC = `mancala-endgame ${VERSION}`;
/** Bytes read, written or hashed at a time (the file system's calls take less than 2 GB). */
const PIECE = 1 << 28;
/** The header's lines are far shorter than this. */
const HEAD_MAX = 4096;

interface Header extends EndgameRules {
  stones: number;
  positions: number;
  sha256: string;
}

/** Calls `each` with successive pieces of `bytes`. */
function inPieces(bytes: Uint8Array, each: (piece: Uint8Array) => void): void {
  for (let at = 0; at < bytes.length; at += PIECE) each(bytes.subarray(at, Math.min(bytes.length, at + PIECE)));
}

function asBytes(values: Int8Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

function sha256(layers: readonly Int8Array[]): string {
  const hash = createHash('sha256');
  for (const layer of layers) inPieces(asBytes(layer), (p) => hash.update(p));
  return hash.digest('hex');
}

export function saveEndgameDb(db: EndgameDb, file: string): void {
  const header: Header = { ...db.rules, stones: db.maxStones, positions: db.positions, sha256: sha256(db.layers) };
  const head = Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`, 'utf8');
  writeFileAtomicallyWith(file, (fd) => {
    const writeAll = (piece: Uint8Array) => {
      for (let at = 0; at < piece.length; ) at += writeSync(fd, piece, at, piece.length - at);
    };
    writeAll(head);
    for (const layer of db.layers) inPieces(asBytes(layer), writeAll);
  });
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

/**
 * Opened without waiting (O_NONBLOCK: a FIFO's open returns at once, and it changes nothing for a
 * regular file), then checked to be a regular file: a folder, a FIFO, a socket or a device is one
 * line, not a read that fails with a stack trace or never returns.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Reads and checks a database file; every problem is a UserError naming the file. */
export function loadEndgameDb(file: string): EndgameDb {
  const notAFile = (what: string) => new UserError(`${file}: ${what}, not an endgame database file (mancala solve --build-endgame writes them)`);
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENXIO: a socket, or a FIFO with no writer; ENODEV: a device with no driver.
    if (code === 'ENXIO' || code === 'ENODEV') throw notAFile('not a regular file');
    throw new UserError(`${file}: cannot read the endgame database: ${code ?? (e as Error).message}`);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw notAFile('a folder');
    if (!info.isFile()) throw notAFile('not a regular file');
    return readEndgameDb(file, fd);
  } finally {
    closeSync(fd);
  }
}

function readEndgameDb(file: string, fd: number): EndgameDb {
  const bad = (why: string) => new UserError(`${file}: not a usable endgame database (mancala solve --build-endgame writes them): ${why}`);
  const size = fstatSync(fd).size;
  const start = Buffer.alloc(Math.min(size, HEAD_MAX));
  readSync(fd, start, 0, start.length, 0);
  const first = start.indexOf(10);
  const magic = first < 0 ? '' : start.subarray(0, first).toString('utf8');
  if (magic !== MAGIC) {
    const older = /^mancala-endgame \d+$/.test(magic) ? ` (this is a version ${magic.split(' ')[1]} file, which this version does not read: build it again)` : '';
    throw bad(`line 1: expected "${MAGIC}"${older}`);
  }
  const second = start.indexOf(10, first + 1);
  if (second < 0) throw bad('line 2: expected the JSON header');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(start.subarray(first + 1, second).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw bad('line 2: the header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw bad('line 2: expected a JSON object');
  const problem = headerProblem(header);
  if (problem !== undefined) throw bad(`line 2: ${problem}`);
  const h = header as unknown as Header;
  const body = size - (second + 1);
  if (body !== h.positions) throw bad(`expected ${h.positions} bytes of values after the header, found ${body} (cut short or padded?)`);

  const index = new EndgameIndex(h.pits, h.stones);
  const hash = createHash('sha256');
  let at = second + 1;
  const layers = index.layerSizes.map((count) => {
    const layer = new Int8Array(count);
    inPieces(asBytes(layer), (piece) => {
      for (let got = 0; got < piece.length; ) {
        const read = readSync(fd, piece, got, piece.length - got, at + got);
        if (read === 0) throw bad('the file ended early (changed while it was read?)');
        got += read;
      }
      hash.update(piece);
      at += piece.length;
    });
    return layer;
  });
  if (hash.digest('hex') !== h.sha256) throw bad("the values do not match the header's sha256 (the file was changed or damaged)");
  // A position with k stones on the board has a future margin within -k..k.
  layers.forEach((layer, k) => {
    for (let r = 0; r < layer.length; r++) {
      if (layer[r]! > k || layer[r]! < -k) throw bad(`layer ${k}, position ${r}: value ${layer[r]} is outside -${k}..${k}`);
    }
  });
  const { pits, freeTurn, capture, captureEmptyOpposite, gameEnd } = h;
  return new EndgameDb({ pits, freeTurn, capture, captureEmptyOpposite, gameEnd }, h.stones, layers);
}
