/**
 * What agents/ gives the framework (framework/plugins/): the catalog of agents and heuristics,
 * seed 000's reference solution and the perfect-play solver. Called by the composition root.
 */
import { registerAgents } from '../framework/plugins/agents.ts';
import { registerCsci561Solver } from '../framework/plugins/csci561-solver.ts';
import { registerEndgameBuilder, registerPerfectSolver } from '../framework/plugins/perfect-solver.ts';
import { AGENTS, HEURISTICS } from './index.ts';
import { writeEndgameDatabase } from './perfect/endgame-build.ts';
import { solve } from './perfect/index.ts';
import { solveCsci561 } from './reference/csci561-task.ts';

export function register(): void {
  registerAgents({ agents: AGENTS, heuristics: HEURISTICS });
  registerCsci561Solver(solveCsci561);
  registerPerfectSolver(solve);
  registerEndgameBuilder(writeEndgameDatabase);
}
