/**
 * The reference heuristics the submission's process can hand an agent (besides `role:NAME`, a
 * heuristic of the submission's own). Only given code goes there: `advanced` is a solution.
 * Suites accept only these names (suites/resolve-case.ts); the sandboxed child knows each of them
 * (sandbox/child/requests.ts).
 */
export const SANDBOX_HEURISTICS: readonly string[] = ['basic', 'cpsc4610-provided'];
