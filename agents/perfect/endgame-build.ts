/**
 * Building an endgame database on several threads, and writing it to a file
 * (`mancala solve --build-endgame S --out FILE [--jobs N]`).
 *
 * Layer by layer (endgame-db.ts): once the layers below are complete, a layer's positions depend
 * only on each other and on them, so its ranges are shared among the jobs of the worker pool
 * (framework/workers/pool.ts: one job in this thread, the others on threads), all filling one
 * SharedArrayBuffer a layer. Two threads that reach the same missing position compute it both and
 * write the same byte: no lock, and the result is the same whatever the number of jobs.
 */
import { statSync } from 'node:fs';
import { UserError } from '../../framework/errors.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';
import type { MancalaRules } from '../../framework/games/mancala/rules.ts';
import { jobKind, type Job } from '../../framework/workers/job.ts';
import { runJobs } from '../../framework/workers/pool.ts';
import { buildEndgameDb, EndgameDb, endgameRules, endgameSizeProblem, LayerFiller, UNKNOWN } from './endgame-db.ts';
import { saveEndgameDb } from './endgame-file.ts';
import { EndgameIndex } from './endgame-index.ts';

/** What a job needs (plain data and shared memory: it crosses to worker threads). */
export interface LayerJobSetup {
  rules: MancalaRules;
  name: string;
  maxStones: number;
  layers: SharedArrayBuffer[];
}

/** Positions numbered from..to-1 of layer `stones`. */
export interface LayerSlice {
  stones: number;
  from: number;
  to: number;
}

export function endgameLayerJob(setup: LayerJobSetup): Job<LayerSlice, number> {
  const game = new MancalaGame(setup.rules, setup.name);
  const filler = new LayerFiller(
    game,
    new EndgameIndex(game.n, setup.maxStones),
    setup.layers.map((buffer) => new Int8Array(buffer)),
  );
  return {
    run: (slice) => {
      filler.fill(slice.stones, slice.from, slice.to);
      return Promise.resolve(slice.to - slice.from);
    },
    close: () => Promise.resolve(),
  };
}

export const ENDGAME_LAYER_JOB = jobKind(import.meta.url, 'endgameLayerJob', endgameLayerJob);

/** Layers smaller than this are filled in this thread (handing them out costs more than it saves). */
const SHARED_LAYER_MIN = 1 << 18;
/** Positions a slice at most (the progress display moves at least this often), and slices a job at least (the last ones even out). */
const SLICE_MAX = 1 << 22;
const SLICES_A_JOB = 16;

/** Builds the database of `game`'s rules for at most `maxStones` stones with `jobs` jobs at once. */
export async function buildEndgameDbInParallel(
  game: MancalaGame,
  maxStones: number,
  jobs: number,
  onProgress?: (done: number, total: number) => void,
  sharedLayerMin = SHARED_LAYER_MIN,
): Promise<EndgameDb> {
  if (jobs <= 1) return buildEndgameDb(game, maxStones, onProgress);
  const problem = endgameSizeProblem(game.n, maxStones);
  if (problem !== undefined) throw new RangeError(problem);
  const index = new EndgameIndex(game.n, maxStones);
  const buffers = index.layerSizes.map((size) => new SharedArrayBuffer(size));
  const layers = buffers.map((buffer) => new Int8Array(buffer).fill(UNKNOWN));
  const here = new LayerFiller(game, index, layers);
  const setup: LayerJobSetup = { rules: { ...game.rules }, name: game.name, maxStones, layers: buffers };
  let done = 0;
  for (let k = 0; k <= maxStones; k++) {
    const size = index.layerSizes[k]!;
    if (size < sharedLayerMin) {
      here.fill(k, 0, size);
      done += size;
      onProgress?.(done, index.count);
      continue;
    }
    const step = Math.min(SLICE_MAX, Math.ceil(size / (jobs * SLICES_A_JOB)));
    const slices: LayerSlice[] = [];
    for (let from = 0; from < size; from += step) slices.push({ stones: k, from, to: Math.min(size, from + step) });
    await runJobs({
      kind: ENDGAME_LAYER_JOB,
      setup,
      items: slices,
      jobs,
      onResult: (positions) => {
        done += positions;
        onProgress?.(done, index.count);
      },
    });
  }
  return new EndgameDb(endgameRules(game.rules), maxStones, layers);
}

/** Builds the database of `game`'s rules for at most `maxStones` stones and writes it to `file` (`mancala solve --build-endgame`). */
export async function writeEndgameDatabase(
  game: MancalaGame,
  maxStones: number,
  file: string,
  options: { jobs?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ positions: number; bytes: number }> {
  const problem = endgameSizeProblem(game.n, maxStones);
  if (problem !== undefined) throw new UserError(`--build-endgame ${maxStones}: ${problem}`);
  const db = await buildEndgameDbInParallel(game, maxStones, options.jobs ?? 1, options.onProgress);
  saveEndgameDb(db, file);
  return { positions: db.positions, bytes: statSync(file).size };
}
