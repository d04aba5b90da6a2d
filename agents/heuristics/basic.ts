/** The basic heuristic is given course code, not a reference solution: the framework holds it (the sandbox runs it beside student code). */
export { default } from '../../framework/heuristics/basic.ts';
