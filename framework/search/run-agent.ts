/**
 * Runs one agent decision the way the framework always does: a fresh instrumented game, a
 * counted heuristic, a deadline, a seeded random source, and `report()` for anytime agents.
 * The sandbox (grading) and matches build on this; the CLI's `search` uses it directly.
 */
import type { Agent, AgentOptions, MoveChoice } from '../contracts/agent.ts';
import { toMoveChoice } from '../contracts/agent.ts';
import type { Game } from '../contracts/game.ts';
import { countingHeuristic, type Heuristic } from '../contracts/heuristic.ts';
import type { TraceSink } from '../contracts/search-trace.ts';

export interface AgentRun<S> {
  game: Game<S>;
  state: S;
  heuristic: Heuristic<S>;
  options?: AgentOptions;
  /** ms this decision may take; omitted: no deadline */
  timeLimitMs?: number;
  /** a source of numbers in [0, 1) for ctx.random(); seed it (framework/random.ts) */
  random: () => number;
  trace?: TraceSink;
}

export interface AgentOutcome {
  choice: MoveChoice;
  /** positions visited, the root included, as the instrumented game counted them */
  nodes: number;
  evaluations: number;
  ms: number;
  /** the last move the agent published with ctx.report, if any */
  reported?: { move: number; value?: number };
}

export async function runAgent<S>(agent: Agent<S>, run: AgentRun<S>): Promise<AgentOutcome> {
  const game = run.game.fork();
  const heuristic = countingHeuristic(run.heuristic, game);
  const start = performance.now();
  const deadline = run.timeLimitMs === undefined ? Infinity : start + run.timeLimitMs;
  const published: { move?: AgentOutcome['reported'] } = {};
  const returned = await agent.chooseMove({
    game,
    state: game.clone(run.state),
    player: game.toMove(run.state),
    options: run.options ?? {},
    heuristic,
    deadline,
    timeLeft: clockTo(deadline),
    report: reporterInto(published),
    random: run.random,
    trace: run.trace,
  });
  const reported = published.move;
  const ms = performance.now() - start;
  return {
    choice: toMoveChoice(returned),
    nodes: game.counters.nodes,
    evaluations: game.counters.evaluations,
    ms,
    ...(reported ? { reported } : {}),
  };
}

// The two closures an agent gets each decision are made by these functions, not written inline in
// the object: written inline, tsx (which runs the CLI, with esbuild's keepNames) wraps each in a
// call that renames it, giving every decision's closures a shape of their own, and V8 kept
// throwing away the optimised code of the agents that call them (a match ran at half speed).

function clockTo(deadline: number): () => number {
  return () => deadline - performance.now();
}

/** ctx.report: keeps the last move published (and its value) in `slot`. */
function reporterInto(slot: { move?: AgentOutcome['reported'] }): (move: number, value?: number) => void {
  return (move, value) => void (slot.move = value === undefined ? { move } : { move, value });
}
