/**
 * The engine against its native yardstick, for `mancala bench`: the course materials' compare.sh
 * (beside kalah.c, in the workspace's shared folder next to the project, not in this repository)
 * runs the same alpha-beta search in C and in `mancala search`, checks that move, value and nodes
 * agree, and prints how many times faster C is, each round measured side by side because these
 * machines are shared. Where the script is not there (a fresh clone, an instructor's machine) the
 * bench says so in its line and goes on.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../sandbox/paths.ts';

/** Where compare.sh sits when the workspace's shared folder is beside the project. */
export const COMPARE_SCRIPT = join(PROJECT_ROOT, '..', 'shared', 'bench', 'compare.sh');

export type NativeComparison =
  | {
      depth: number;
      /** C's nodes a second over ours, each round (C the best of 2 runs, ours one fresh process) */
      rounds: number[];
      /** the script's own figure: the best round */
      best: number;
      median: number;
      /** the search both found (compare.sh fails when they differ) */
      move: number;
      value: number;
      nodes: number;
    }
  | { depth: number; skipped: string };

/** Runs compare.sh once (3 rounds) from the project's root; a missing script, gcc or a disagreement is a `skipped` reason. */
export function compareWithC(depth = 14, script = COMPARE_SCRIPT): NativeComparison {
  if (!existsSync(script)) return { depth, skipped: 'no compare.sh beside the project (the course materials\' shared/bench folder)' };
  const r = spawnSync('bash', [script, String(depth)], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 300_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error !== undefined) return { depth, skipped: `compare.sh did not run: ${r.error.message}` };
  const rounds = [...out.matchAll(/C is ([0-9.]+)x faster/g)].map((m) => Number(m[1]));
  const agree = /agree: move=(\d+) value=(-?\d+) nodes=(\d+)/.exec(out);
  if (r.status !== 0 || agree === null || rounds.length === 0) {
    const last = out.trim().split('\n').pop() ?? '';
    return { depth, skipped: `compare.sh failed (exit ${r.status ?? r.signal}): ${last.slice(0, 200)}` };
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { depth, rounds, best: sorted[0]!, median, move: Number(agree[1]), value: Number(agree[2]), nodes: Number(agree[3]) };
}

export function nativeCompareLine(c: NativeComparison): string {
  const head = `native    C baseline (kalah.c) / ours, alphabeta kalah-empty-capture(6,4) depth ${c.depth} unit move, compare.sh:`;
  if ('skipped' in c) return `${head} skipped (${c.skipped})`;
  return (
    `${head} C is ${c.best.toFixed(2)}x faster (best of ${c.rounds.length} rounds; median ${c.median.toFixed(2)}; rounds ${c.rounds.map((x) => x.toFixed(2)).join(', ')}); ` +
    `both move ${c.move}, value ${c.value}, ${c.nodes} nodes`
  );
}
