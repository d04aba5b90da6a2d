/**
 * The solver everything uses. Until the fast solver lands this is the plain specification; the
 * fast one (same signature) replaces it here.
 */
import { plainSolve } from './plain-solve.ts';
import type { Solver } from './solve-types.ts';

export type { SolveOptions, SolveResult, Solver } from './solve-types.ts';
export const solve: Solver = (game, state) => plainSolve(game, state);
