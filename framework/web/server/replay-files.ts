/**
 * The Replays page's files: replays written by `mancala match --replays` and `mancala gauntlet
 * --replays` (framework/matches/replay.ts, read and checked by its reader), and the games of a
 * tournament's results file (`mancala tournament --out DIR`: DIR/results.jsonl, read by
 * framework/tournaments/results.ts), each turned into the boards the page steps through.
 *
 * Files are read only under the server's root folder (`mancala serve --root`, default the folder
 * it was started in): a path is resolved there, symbolic links followed, and refused when it leads
 * outside. A malformed file is a 422 whose message is the reader's own: the file, the line, the field.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../../errors.ts';
import { boardToState, stateToBoard } from '../../games/mancala/board-io/board.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { readStartPositions } from '../../matches/openings.ts';
import { parseReplay, REPLAY_VERSION, replayEnd, replayText, type Replay } from '../../matches/replay.ts';
import { sideToMove, type ReplayLine } from '../../matches/types.ts';
import { isInside } from '../../sandbox/paths.ts';
import { readResults, readResultsHeader, RESULTS_FILE, type PlayedGame } from '../../tournaments/results.ts';
import { buildSchedule } from '../../tournaments/schedule.ts';
import type { FolderListing, ReplayView, TournamentGames } from '../shared/api.ts';
import { boardView, traceMove } from './board-view.ts';
import { HttpError } from './http-error.ts';
import { fileHead, isGradeJournal, jsonReportKind } from './report-kind.ts';
import { boundedResultsHeader } from './results-header.ts';
import { fileProblem, withoutFileText } from './file-problem.ts';

/** Folders a listing leaves out: never replays, often huge. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist']);
/** Entries a listing shows at most. */
const MAX_ENTRIES = 2000;
/** The largest file the page may open. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** `rel` (relative to `root`, or absolute inside it) as a real absolute path inside the root; 403/404 otherwise. */
export function resolveUnder(root: string, rel: string): string {
  if (rel.includes('\0')) throw new HttpError(400, 'path: expected a path, got a NUL character');
  const realRoot = realpathSync(root);
  const absolute = isAbsolute(rel) ? rel : resolve(realRoot, rel);
  if (!isInside(realRoot, absolute) && !isInside(root, absolute)) throw new HttpError(403, `${rel}: outside the folder this server reads (${root})`);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new HttpError(404, `${rel}: no such file or folder under ${root}`);
  }
  if (!isInside(realRoot, real)) throw new HttpError(403, `${rel}: leads outside the folder this server reads (${root})`);
  // Hidden files and folders (.git, .env, .git-credentials, .ssh) are never replays, results or reports: none is read.
  if (hiddenUnder(realRoot, absolute) || hiddenUnder(realRoot, real)) throw new HttpError(403, `${rel}: a hidden file or folder (its name starts with a dot): this server reads none`);
  return real;
}

/** Whether a part of `path` below `root` is hidden (its name starts with a dot). */
export function hiddenUnder(root: string, path: string): boolean {
  if (!isInside(root, path)) return false;
  return relative(root, path)
    .split(sep)
    .some((part) => part.startsWith('.') && part !== '.' && part !== '..');
}

/** How a path is named to the page: relative to the root, with forward slashes. */
export function shownPath(root: string, real: string): string {
  return relative(realpathSync(root), real).split(sep).join('/');
}

export function listFolder(root: string, dir: string): FolderListing {
  const real = resolveUnder(root, dir === '' ? '.' : dir);
  if (!statSync(real).isDirectory()) throw new HttpError(400, `${dir}: not a folder`);
  const folders: string[] = [];
  const files: FolderListing['files'] = [];
  const reports: FolderListing['reports'] = [];
  let entries;
  try {
    entries = readdirSync(real, { withFileTypes: true });
  } catch (e) {
    throw new HttpError(403, `${dir}: cannot read the folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))) {
    if (folders.length + files.length + reports.length >= MAX_ENTRIES) break;
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory() && !SKIPPED_FOLDERS.has(e.name)) folders.push(e.name);
    else if (e.isFile() && e.name.endsWith('.jsonl')) {
      // A grading run's journal is JSON lines too, but no replay: the page could not open it.
      if (isGradeJournal(fileHead(join(real, e.name)))) continue;
      let bytes = 0;
      try {
        bytes = statSync(join(real, e.name)).size;
      } catch {
        continue;
      }
      files.push({ name: e.name, kind: e.name === RESULTS_FILE ? 'tournament' : 'replay', bytes });
    } else if (e.isFile() && e.name.endsWith('.json')) {
      // The Reports page's: a grade or similarity report, told by its first bytes (report-kind.ts).
      const file = join(real, e.name);
      const found = jsonReportKind(fileHead(file));
      if (found === undefined || found.kind === 'check') continue;
      let bytes = 0;
      try {
        bytes = statSync(file).size;
      } catch {
        continue;
      }
      const suite = found.kind === 'similarity' ? 'similarity' : found.suite;
      reports.push({ name: e.name, bytes, ...(suite !== undefined ? { suite } : {}) });
    }
  }
  return { dir: shownPath(root, real), folders, files, reports };
}

function readText(real: string, shown: string): string {
  let size: number;
  try {
    const info = statSync(real);
    if (info.isDirectory()) throw new HttpError(400, `${shown}: a folder, not a file`);
    size = info.size;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(404, `${shown}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (size > MAX_FILE_BYTES) throw new HttpError(413, `${shown}: ${size} bytes, more than the ${MAX_FILE_BYTES} this page opens`);
  return readFileSync(real, 'utf8');
}

/** A malformed file: the reader's one line, as a 422, with nothing of the file's text (file-problem.ts). */
function unprocessable(e: unknown): never {
  if (e instanceof UserError) throw new HttpError(422, withoutFileText(e.message));
  throw e;
}

const winnerText = (r: Replay): string => {
  const name = (s: 'A' | 'B') => `${s} (${r.header[s]})`;
  const [a, b] = r.end.score;
  if (r.end.forfeit !== null) return `${name(r.end.forfeit.side)} forfeits (${r.end.forfeit.reason}): ${name(r.end.winner as 'A' | 'B')} wins, ${a}–${b}`;
  return r.end.winner === 'draw' ? `a draw, ${a}–${b}` : `${name(r.end.winner)} wins, ${r.end.score[0]}–${r.end.score[1]} (A–B)`;
};

/** The boards and moves of a replay already checked by its reader. */
export function replayView(r: Replay, file: string): ReplayView {
  const profile = findProfile(r.header.rules)!;
  const game = mancalaGame(profile, r.header.pits, r.header.seeds);
  const frames: ReplayView['frames'] = [];
  const moves: ReplayView['moves'] = [];
  let s = game.initial();
  for (const m of r.moves) {
    s = boardToState(game, m.before);
    frames.push(boardView(game, s));
    const after = game.play(s, m.move);
    moves.push({
      ...traceMove(game, s, m.move, after, m.ply, `${m.side} (${r.header[m.side]})`),
      ms: m.ms,
      ...(m.value !== undefined ? { value: m.value } : {}),
      ...(m.note !== undefined ? { note: m.note } : {}),
      ...(m.by !== undefined ? { kind: m.by } : {}),
    });
    s = after;
  }
  frames.push(boardView(game, s));
  const { header, end } = r;
  return {
    file,
    game: header.game,
    rules: header.rules,
    pits: header.pits,
    seeds: header.seeds,
    A: header.A,
    B: header.B,
    first: header.first,
    seed: header.seed,
    frames,
    moves,
    openingPlies: end.openingPlies,
    winner: end.winner,
    score: end.score,
    forfeit: end.forfeit,
    result: winnerText(r),
  };
}

/** A replay file under the root, or a tournament's game when the file is a results file. */
export function openReplay(root: string, path: string, game?: number): ReplayView {
  const real = resolveUnder(root, path);
  const shown = shownPath(root, real);
  const text = readText(real, shown);
  if (isResultsFile(text)) {
    if (game === undefined) throw new HttpError(400, `${shown} is a tournament's results: say which game (game=N)`);
    return replayView(tournamentReplay(root, real, shown, game), `${shown}#${game}`);
  }
  try {
    return replayView(parseReplay(text, shown), shown);
  } catch (e) {
    return unprocessable(e);
  }
}

/** A replay's text the page read from the user's disk. */
export function uploadedReplay(name: string, text: string): ReplayView {
  if (isResultsFile(text)) throw new HttpError(422, `${name}: a tournament's results file; open it from the list of files the server reads (its games are replayed from the tournament's parameters)`);
  try {
    return replayView(parseReplay(text, name), name);
  } catch (e) {
    return unprocessable(e);
  }
}

function isResultsFile(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  return /^\s*\{\s*"type"\s*:\s*"tournament"/.test(first);
}

function readTournament(real: string, shown: string): { params: ReturnType<typeof readResultsHeader>['params']; games: Map<number, PlayedGame> } {
  try {
    const header = boundedResultsHeader(real, shown);
    const schedule = buildSchedule(header.params);
    const games = readResults(real, header.params, schedule, [], { repair: false, ...(header.shard !== undefined ? { shard: header.shard } : {}) });
    return { params: header.params, games };
  } catch (e) {
    return fileProblem(e, real, shown);
  }
}

export function tournamentGames(root: string, path: string): TournamentGames {
  const real = resolveUnder(root, path);
  const shown = shownPath(root, real);
  readText(real, shown); // size and kind checks
  const { params, games } = readTournament(real, shown);
  return {
    file: shown,
    rules: params.rules,
    pits: params.pits,
    seeds: params.seeds,
    games: [...games.values()]
      .sort((a, b) => a.index - b.index)
      .map((g) => ({ index: g.index, A: g.A, B: g.B, first: g.first, winner: g.winner, score: g.score, plies: g.moves.length, forfeit: g.forfeit === null ? null : `${g.forfeit.side}: ${g.forfeit.reason}` })),
  };
}

/** A tournament's game as a replay, played again from its moves, then checked by the replay reader. */
function tournamentReplay(root: string, real: string, shown: string, index: number): Replay {
  const { params, games } = readTournament(real, shown);
  const g = games.get(index);
  if (g === undefined) throw new HttpError(404, `${shown}: no game ${index} (it records ${games.size === 0 ? 'no games yet' : `games ${[...games.keys()].sort((a, b) => a - b).slice(0, 8).join(', ')}${games.size > 8 ? ', …' : ''}`})`);
  const where = `${shown}: game ${index}`;
  const profile = findProfile(params.rules);
  if (profile === undefined) throw new HttpError(422, `${where}: unknown rules "${params.rules}"`);
  const game = mancalaGame(profile, params.pits, params.seeds);
  let s = game.initial();
  if (g.startPosition !== undefined) {
    // The openings file the header names is read under the root too, as every file the page opens.
    const starts = `${where} starts from position ${g.startPosition} of the openings file ${params.openings}`;
    let openings: string;
    try {
      openings = resolveUnder(root, params.openings);
    } catch (e) {
      throw new HttpError(422, `${starts}, which cannot be read here: ${e instanceof Error ? e.message : String(e)}`);
    }
    try {
      const boards = readStartPositions(openings);
      const board = boards[(g.startPosition - 1) % boards.length]!;
      s = boardToState(game, board, undefined, params.openings);
    } catch (e) {
      throw new HttpError(422, `${starts}, which cannot be read here: ${withoutFileText(e instanceof Error ? e.message.split(openings).join(params.openings) : String(e))}`);
    }
  }
  const seed = buildSchedule(params)[index - 1]?.seed ?? params.seed;
  const lines: ReplayLine[] = [];
  g.moves.forEach((move, ply) => {
    if (!game.isLegal(s, move)) throw new HttpError(422, `${where}: field "moves[${ply}]": ${move} is not a legal move in ${game.describe(s)}`);
    lines.push({
      game: index,
      ply,
      side: sideToMove(game.toMove(s), g.first),
      before: stateToBoard(game, s),
      move,
      moveName: game.moveName(s, move),
      ms: 0,
      ...(ply < g.openingPlies ? { by: 'opening' as const } : {}),
    });
    s = game.play(s, move);
  });
  const replay: Replay = {
    header: {
      type: 'game',
      version: REPLAY_VERSION,
      game: index,
      rules: params.rules,
      pits: params.pits,
      seeds: params.seeds,
      A: g.A,
      B: g.B,
      first: g.first,
      seed,
      timePerMoveMs: params.timePerMoveMs,
      forfeitPolicy: params.forfeit,
      ...(g.startPosition !== undefined ? { startPosition: g.startPosition } : {}),
    },
    moves: lines,
    end: replayEnd(g),
  };
  // The replay reader's checks: the score and the winner must follow from the moves.
  try {
    return parseReplay(replayText(replay), where);
  } catch (e) {
    return unprocessable(e);
  }
}
