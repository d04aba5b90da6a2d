/**
 * The solver everything uses: the fast one (fast-solve.ts). The plain specification
 * (plain-solve.ts) stays for the tests that hold the fast one to it.
 */
import { fastSolve } from './fast-solve.ts';
import type { Solver } from './solve-types.ts';

export type { SolveOptions, SolveResult, Solver } from './solve-types.ts';
export const solve: Solver = (game, state, options) => fastSolve(game, state, options);
