/**
 * The registry of seed 000's reference solution (tasks 1–3: input.txt in, next_state.txt and
 * traverse_log.txt out). It runs the reference searches, so it lives in agents/ and the csci561
 * pack reaches it through here.
 */
import type { TraverseLogOptions } from '../search/traverse-log.ts';
import { pluginSlot } from './slot.ts';

export interface Csci561Output {
  /** next_state.txt: 4 lines, newline-terminated like the official files */
  nextState: string;
  /** traverse_log.txt's lines (tasks 2 and 3) */
  traverseLog?: string[];
}

/** Solves the task `inputText` asks for (1–3); `fileName` names the input in error messages (UserErrors). */
export type Csci561Solver = (inputText: string, fileName: string, logOptions?: Pick<TraverseLogOptions, 'optionalLines'>) => Csci561Output;

const solver = pluginSlot<Csci561Solver>('the csci561 reference solution', 'registerCsci561Solver');

export function registerCsci561Solver(solve: Csci561Solver): void {
  solver.set(solve);
}

export const solveCsci561: Csci561Solver = (inputText, fileName, logOptions) => solver.get()(inputText, fileName, logOptions);
