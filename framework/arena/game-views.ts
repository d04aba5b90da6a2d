/**
 * What the arena's API shows of a submission and of a side's clock in a game (server.ts).
 */
import { parseFeedback } from './arena.ts';
import type { SubmissionRow } from './store.ts';

export function submissionView(s: SubmissionRow) {
  const verdict = parseFeedback(s.feedback)['verdict'];
  return { id: s.id, status: s.status, contentHash: s.content_hash, created: s.created_at, retired: s.retired_at, ...(typeof verdict === 'string' ? { verdict } : {}) };
}

export interface MoveTimes {
  stderr?: [string, string];
  moves: number[];
  openingPlies: number;
  moveMs?: number[];
  moveSides?: string;
  /** with a time bank: the mover's bank left after each move */
  moveBankMs?: number[];
}

/** A side's own moves (after the seeded opening) with the time each took: what the student is shown of their clock. */
export function movesOf(r: MoveTimes, side: 'A' | 'B'): { ply: number; move: number; ms: number; bankLeftMs?: number }[] {
  const out: { ply: number; move: number; ms: number; bankLeftMs?: number }[] = [];
  for (let k = r.openingPlies; k < r.moves.length; k++) {
    if (r.moveSides?.[k] !== side) continue;
    const bank = r.moveBankMs?.[k];
    out.push({ ply: k, move: r.moves[k]!, ms: r.moveMs?.[k] ?? 0, ...(bank !== undefined ? { bankLeftMs: bank } : {}) });
  }
  return out;
}

