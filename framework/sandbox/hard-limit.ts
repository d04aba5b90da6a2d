/**
 * When the sandbox stops a submission that has not answered: its time limit plus a grace to
 * answer (a quarter of the limit, 250 ms to 2 s). A module of its own, importing nothing, so the
 * match loop (the anytime rule) and the `mancala match` header use this very formula without
 * loading the sandbox.
 */

/** The grace beyond `timeLimitMs` before a submission still thinking is stopped. */
export function hardLimitGraceMs(timeLimitMs: number): number {
  return Math.min(2000, Math.max(250, timeLimitMs * 0.25));
}

/** The CPU time an agent given `timeLimitMs` may use before it is stopped: its own deadline plus a grace period to answer. */
export function hardLimitFor(timeLimitMs: number): number {
  return timeLimitMs + hardLimitGraceMs(timeLimitMs);
}
