/** The solve contract lives with its registry (framework/plugins/perfect-solver.ts), which framework's users see. */
export type { SolveOptions, SolveResult, Solver } from '../../framework/plugins/perfect-solver.ts';
