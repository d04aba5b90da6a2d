/**
 * What agents/ gives the framework (framework/plugins/): the catalog of agents and heuristics,
 * seed 000's reference solution, the perfect-play solver, and the player sandbox runtime. Called by the composition root.
 */
import { fileURLToPath } from 'node:url';
import { registerAgents } from '../framework/plugins/agents.ts';
import { registerCsci561Solver } from '../framework/plugins/csci561-solver.ts';
import { registerEndgameBuilder, registerPerfectSolver } from '../framework/plugins/perfect-solver.ts';
import { registerPlayerRuntime } from '../framework/plugins/player-runtime.ts';
import { AGENTS, HEURISTICS } from './index.ts';
import { writeEndgameDatabase } from './perfect/endgame-file.ts';
import { solve } from './perfect/index.ts';
import { solveCsci561 } from './reference/csci561-task.ts';

export function register(): void {
  registerAgents({ agents: AGENTS, heuristics: HEURISTICS });
  registerCsci561Solver(solveCsci561);
  registerPerfectSolver(solve);
  registerEndgameBuilder(writeEndgameDatabase);
  registerPlayerRuntime({
    entry: fileURLToPath(new URL('./player-runtime.ts', import.meta.url)),
    // The reference alpha-beta and what it imports; not the other searches, not `advanced`.
    files: [
      'agents/player-runtime.ts',
      'agents/heuristics/basic.ts',
      'agents/alphabeta.ts',
      'agents/search-agent.ts',
      'agents/agent-options.ts',
      'agents/reference/alphabeta.ts',
      'agents/reference/search-stack.ts',
    ],
  });
}
