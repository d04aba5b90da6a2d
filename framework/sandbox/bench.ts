/**
 * What the sandbox costs: starting a submission's process, and the round trip of one request
 * beyond the agent's own time, in the full jail and in the weak mode (no bubblewrap) for
 * comparison. Used by `mancala bench` and by the README's figures.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROFILES } from '../games/mancala/profiles.ts';
import type { GameSpec } from '../suites/types.ts';
import type { SandboxMode } from './jail/mechanisms.ts';
import { prepareSubmission } from './submissions/prepare.ts';
import { SandboxSession } from './session.ts';

// The reference `random` agent, as a student would write it (a submission may not import agents/).
const RANDOM_AGENT = `export default {
  name: 'random',
  chooseMove(ctx) {
    const moves = ctx.game.legalMoves(ctx.state);
    return { move: moves.length === 0 ? -1 : moves[Math.floor(ctx.random() * moves.length)] };
  },
};
`;

export interface SandboxCosts {
  mode: SandboxMode;
  /** wall-clock ms per request beyond the agent's own CPU time (round trip − CPU ms the parent measured), mean */
  msPerCase: number;
  /** ms from spawning the process (jail, meter and all) until its runtime was ready */
  spawnMs: number;
  /** ms of the first request's module import (paid once per process) */
  loadMs: number;
}

/** Runs `n` requests of a random agent on one session in `mode` (after one warm-up request). */
export async function measureOverhead(n: number, mode: SandboxMode): Promise<SandboxCosts> {
  const folder = await mkdtemp(join(tmpdir(), 'mancala-sandbox-bench-'));
  await writeFile(join(folder, 'agent.js'), RANDOM_AGENT);
  const sub = await prepareSubmission(folder, { agent: { kind: 'agent', files: ['agent.js'], reference: 'random' } });
  const profile = PROFILES['kalah']!;
  const game: GameSpec = { kind: 'mancala', profile: 'kalah', rules: profile.rules, name: 'kalah(6,4)' };
  const board = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };
  const session = await SandboxSession.open(sub, { memoryMb: 256 }, { game, sandbox: mode });
  try {
    const spawnMs = session.lastStartMs ?? NaN;
    const request = async (seed: number) => {
      const began = performance.now();
      const a = await session.request({ type: 'move', role: 'agent', game, board, player: 0, options: {}, heuristic: 'basic', timeLimitMs: 1000, seed, trace: false }, 5000);
      if (a.status !== 'ok') throw new Error(`the benchmark agent failed: ${a.message}`);
      return performance.now() - began - a.ms;
    };
    const loadMs = await request(0);
    let overhead = 0;
    for (let k = 1; k <= n; k++) overhead += await request(k);
    return { mode, msPerCase: overhead / n, spawnMs, loadMs };
  } finally {
    await session.close();
    await sub.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
