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
  let reported: AgentOutcome['reported'];
  const returned = await agent.chooseMove({
    game,
    state: game.clone(run.state),
    player: game.toMove(run.state),
    options: run.options ?? {},
    heuristic,
    deadline,
    timeLeft: () => deadline - performance.now(),
    report: (move, value) => {
      reported = value === undefined ? { move } : { move, value };
    },
    random: run.random,
    trace: run.trace,
  });
  const ms = performance.now() - start;
  return {
    choice: toMoveChoice(returned),
    nodes: game.counters.nodes,
    evaluations: game.counters.evaluations,
    ms,
    ...(reported ? { reported } : {}),
  };
}
