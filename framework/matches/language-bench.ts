/**
 * The same alpha-beta in TypeScript, Python and Java (for `mancala bench`): a match of each against
 * random at the same depth on Kalah(6,4), the same seed and so the same openings, run as
 * `mancala match` runs it — the reference agent `alphabeta` in this process; the example folders
 * agents/examples/alice (a TypeScript submission), python-alphabeta and java-alphabeta (agents over
 * stdio, agents/clients/PROTOCOL.md) in the sandbox, one process for the match, started (and for
 * Java, built) inside the timing. The examples search as the reference does
 * (agents/examples/examples-alphabeta.test.ts), so every side plays the same games and the figures
 * compare the languages and the sandbox, not the searches; each line says whether its games were
 * the reference's. A language whose runtime or compiler is missing, or an example folder that is
 * not there (a student kit has none), is skipped and says so.
 *
 * The folders are found by path from this file (a match names an agent by path; framework/ imports
 * nothing from agents/).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable, type SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { benchMode } from '../sandbox/programs/bench.ts';
import { playMatch } from './match.ts';
import { FORFEIT_REASONS, type MatchResult } from './match-results.ts';

const EXAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../agents/examples');

/** Depth and games of the comparison: the Python and Java matches take a few seconds each here. */
export const LANGUAGE_BENCH = { depth: 4, games: 200, seed: 1 } as const;

export interface AlphaBetaContender {
  language: 'TypeScript' | 'Python' | 'Java';
  /** how it runs, for the line */
  how: string;
  /** the agent as `mancala match` takes it, without the depth */
  agent: string;
  /** programs it needs on this machine */
  needs: readonly string[];
  /** run in the sandbox (a path), not in this process */
  sandboxed: boolean;
}

export const ALPHABETA_CONTENDERS: readonly AlphaBetaContender[] = [
  { language: 'TypeScript', how: 'reference agent, in process', agent: 'alphabeta', needs: [], sandboxed: false },
  { language: 'TypeScript', how: 'submission alice', agent: resolve(EXAMPLES, 'alice'), needs: [], sandboxed: true },
  { language: 'Python', how: 'over stdio', agent: resolve(EXAMPLES, 'python-alphabeta'), needs: ['python3'], sandboxed: true },
  { language: 'Java', how: 'over stdio', agent: resolve(EXAMPLES, 'java-alphabeta'), needs: ['javac', 'java'], sandboxed: true },
];

interface SpeedCommon {
  language: AlphaBetaContender['language'];
  how: string;
  /** how a sandboxed side was confined; absent for one in this process */
  mode?: SandboxMode;
  depth: number;
  games: number;
}

export type AlphaBetaSpeed =
  | (SpeedCommon & {
      /** wall-clock ms of the whole match, the program's start (and build) included */
      ms: number;
      gamesPerSecond: number;
      /** games a second over the second half of the games, after the start */
      steadyGamesPerSecond: number;
      /** the alpha-beta side's thinking time a move, as the match measured it (CPU time for a sandboxed side) */
      msPerMove: number;
      winsA: number;
      /** games the alpha-beta side forfeited */
      forfeits: number;
      /** every game's moves were the reference agent's match's (undefined: no reference match to compare with) */
      sameGames?: boolean;
    })
  | (SpeedCommon & { skipped: string });

/** The moves of every game: equal for two matches whose alpha-beta sides chose the same moves. */
function gameMoves(r: MatchResult): string {
  return JSON.stringify(r.games.map((g) => g.moves));
}

/**
 * One match of each contender (default: all) at `depth` against random, `games` games with one job,
 * the sandboxed ones in `mode` (default: the full jail when this machine has it, else the weak mode).
 * The first contender's games are the ones the others' are compared with.
 */
export async function measureAlphaBetaLanguages(
  o: { depth?: number; games?: number; mode?: SandboxMode; contenders?: readonly AlphaBetaContender[]; onResult?: (s: AlphaBetaSpeed) => void } = {},
): Promise<AlphaBetaSpeed[]> {
  const depth = o.depth ?? LANGUAGE_BENCH.depth;
  const games = o.games ?? LANGUAGE_BENCH.games;
  const mode = o.mode ?? (await benchMode());
  const out: AlphaBetaSpeed[] = [];
  let referenceMoves: string | undefined;
  for (const c of o.contenders ?? ALPHABETA_CONTENDERS) {
    const common: SpeedCommon = { language: c.language, how: c.how, ...(c.sandboxed ? { mode } : {}), depth, games };
    const missing = c.needs.filter((p) => findExecutable(p) === undefined);
    let speed: AlphaBetaSpeed;
    if (missing.length > 0) {
      speed = { ...common, skipped: `${missing.join(' and ')} not found on this machine` };
    } else if (c.sandboxed && !existsSync(c.agent)) {
      // A student kit ships the framework without the project's examples.
      speed = { ...common, skipped: `the example ${basename(c.agent)} is not in this installation` };
    } else {
      const start = performance.now();
      let halfMs = 0;
      const half = Math.ceil(games / 2);
      const result = await playMatch({
        A: `${c.agent}:depth=${depth}`,
        B: 'random',
        games,
        jobs: 1,
        seed: LANGUAGE_BENCH.seed,
        sandbox: mode,
        onGame: (_record, done) => {
          if (done === half) halfMs = performance.now() - start;
        },
      });
      const ms = performance.now() - start;
      const moves = gameMoves(result);
      const compared = referenceMoves === undefined ? {} : { sameGames: moves === referenceMoves };
      referenceMoves ??= moves;
      const a = result.stats.A;
      speed = {
        ...common,
        ms,
        gamesPerSecond: (games * 1000) / ms,
        steadyGamesPerSecond: games > 1 && ms > halfMs ? ((games - half) * 1000) / (ms - halfMs) : 0,
        msPerMove: a.decisions > 0 ? a.timeMs / a.decisions : 0,
        winsA: result.summary.A.wins,
        forfeits: FORFEIT_REASONS.reduce((sum, r) => sum + a.forfeits[r], 0),
        ...compared,
      };
    }
    out.push(speed);
    o.onResult?.(speed);
  }
  return out;
}
