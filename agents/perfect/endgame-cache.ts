/**
 * The endgame database a solve uses: the file the caller names (loaded once, checked against the
 * game's rules), or one built in memory for the game's rules and kept for later solves.
 */
import { statSync } from 'node:fs';
import { UserError } from '../../framework/errors.ts';
import type { MancalaGame } from '../../framework/games/mancala/engine.ts';
import type { SolveOptions } from './solve-types.ts';
import { binomial } from './endgame-index.ts';
import { buildEndgameDb, endgameRules, type EndgameDb } from './endgame-db.ts';
import { loadEndgameDb } from './endgame-file.ts';

/** Positions in an automatic database at most (about half a second to build here). */
const AUTO_POSITIONS = 400_000;
/** Below this many stones on the board a solve is quick without a database: none is built. */
const AUTO_MIN_BOARD = 24;

const loaded = new Map<string, { mtimeMs: number; size: number; db: EndgameDb }>();
const built = new Map<string, EndgameDb>();

function describe(r: { pits: number; freeTurn: boolean; capture: string; captureEmptyOpposite: boolean; gameEnd: string }): string {
  return `${r.pits} pits, free turns ${r.freeTurn ? 'on' : 'off'}, capture ${r.capture}${r.captureEmptyOpposite ? ' (also of an empty pit)' : ''}, end ${r.gameEnd}`;
}

export function loadEndgameFile(file: string, game: MancalaGame): EndgameDb {
  let stat;
  try {
    stat = statSync(file);
  } catch (e) {
    throw new UserError(`${file}: cannot read the endgame database: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const cached = loaded.get(file);
  let db: EndgameDb;
  if (cached !== undefined && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
    db = cached.db;
  } else {
    db = loadEndgameDb(file);
    loaded.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, db });
  }
  if (!db.fits(game.rules)) {
    throw new UserError(`${file}: this endgame database is for ${describe(db.rules)}, not for this game's ${describe(endgameRules(game.rules))}`);
  }
  return db;
}

/** The largest database of at most AUTO_POSITIONS positions for `pits` a side. */
export function autoEndgameStones(pits: number): number {
  let s = 0;
  while (binomial(s + 1 + 2 * pits, 2 * pits) <= AUTO_POSITIONS) s++;
  return s;
}

/** The database for a solve of `game` from a position with `board` stones on the board, or undefined for none. */
export function endgameFor(game: MancalaGame, board: number, options: SolveOptions): EndgameDb | undefined {
  if (options.endgameFile !== undefined) return loadEndgameFile(options.endgameFile, game);
  const stones = options.endgameStones ?? (board >= AUTO_MIN_BOARD ? autoEndgameStones(game.n) : 0);
  if (stones <= 0) return undefined;
  const id = `${JSON.stringify(endgameRules(game.rules))}/${stones}`;
  let db = built.get(id);
  if (db === undefined) {
    db = buildEndgameDb(game, stones);
    built.set(id, db);
  }
  return db;
}
