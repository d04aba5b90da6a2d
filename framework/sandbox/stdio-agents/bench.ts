/**
 * What protocol 1 costs: the round trip of one move request to a trivial agent over stdio (a
 * Python program that plays the first legal move), from writing the request to reading the
 * answer, in the full jail or the weak mode. For `mancala bench` and the README's figures.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gameSpec } from '../../suites/game.ts';
import type { SandboxMode } from '../jail/mechanisms.ts';
import { median } from '../programs/startup.ts';
import { StdioAgentSession } from './session.ts';
import { findStdioAgent } from './spec.ts';

const TRIVIAL_AGENT = `from mancala_agent import run\nrun(lambda request: request["legal"][0], "first-legal")\n`;

export interface StdioRoundTrip {
  mode: SandboxMode;
  /** wall-clock ms of one request, median of `requests` */
  medianMs: number;
  requests: number;
  /** ms from spawning the program (jail, interpreter) until it said ready */
  startMs: number;
}

/** `n` requests to the trivial agent on one session (after one warm-up request). */
export async function measureStdioRoundTrip(n: number, mode: SandboxMode): Promise<StdioRoundTrip> {
  const folder = await mkdtemp(join(tmpdir(), 'mancala-stdio-bench-'));
  try {
    await writeFile(join(folder, 'agent.py'), TRIVIAL_AGENT);
    const spec = (await findStdioAgent(folder))!;
    const game = gameSpec('kalah');
    const session = await StdioAgentSession.open(spec, { memoryMb: 256 }, { game, sandbox: mode });
    const board = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };
    try {
      const times: number[] = [];
      for (let k = 0; k <= n; k++) {
        const began = performance.now();
        const a = await session.chooseMove(board, 0, {}, 1000);
        if (a.status !== 'ok') throw new Error(`the stdio benchmark agent failed: ${a.message}`);
        if (k > 0) times.push(performance.now() - began);
      }
      return { mode, medianMs: median(times), requests: n, startMs: session.lastStart?.wallMs ?? NaN };
    } finally {
      await session.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
