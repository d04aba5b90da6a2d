/** Seed 002's provided score (100 won, 0 lost, 50 otherwise) is given course code, not a reference solution: the framework holds it (the sandbox runs it beside student code). */
export { default } from '../../framework/heuristics/cpsc4610-provided.ts';
