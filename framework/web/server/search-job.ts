/**
 * The reference searches the page asks for, as a job of the worker pool (framework/workers/): a
 * reference agent's move in a Play game, a hint, a Search explorer's search, a node's solved
 * values. They run on the pool's threads (searches.ts sends them), never on the server's event
 * loop: `alphabeta:depth=40` at 12 s a move held every other request for those 12 s.
 *
 * Items and results cross threads by structured clone, so they are plain data: the game by its
 * profile and size, the position as a board, a search's trace as its events.
 */
import type { TraceEvent } from '../../contracts/search-trace.ts';
import { UserError } from '../../errors.ts';
import { boardToState, type BoardSpec } from '../../games/mancala/board-io/board.ts';
import type { MancalaGame } from '../../games/mancala/engine.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile, type MancalaProfile } from '../../games/mancala/profiles.ts';
import { openReference } from '../../matches/player.ts';
import type { MoveAttempt } from '../../matches/types.ts';
import { findHeuristic, optionsUnder, parseAgentSpec } from '../../plugins/agents.ts';
import { planSearch, runSearch, type SearchReport } from '../../plugins/reference-search.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';
import { gameSpec } from '../../suites/game.ts';
import { jobKind } from '../../workers/job.ts';
import type { SearchRequestBody, SolvedValues } from '../shared/api.ts';
import { explorerPosition } from './explorer-position.ts';
import { solvedValues } from './solved-values.ts';

/** A position, as it crosses threads. */
export interface PositionItem {
  rules: string;
  pits: number;
  seeds: number;
  board: BoardSpec;
}

export type SearchItem =
  | ({ kind: 'move'; spec: string; timeLimitMs: number; seed: number } & PositionItem)
  | ({ kind: 'hint'; spec: string } & PositionItem)
  | { kind: 'explore'; body: SearchRequestBody; algo: 'minimax' | 'alphabeta'; depth: number; heuristic: string; maxNodes: number }
  | ({ kind: 'solve'; moves: number[]; maximizing: boolean } & PositionItem);

export interface HintResult {
  move: number;
  value: number | null;
  nodes: number;
  ms: number;
}

/** An explorer's search: its trace and report, or past the node budget. */
export type ExploreResult = { events: TraceEvent[]; report: SearchReport } | { tooLarge: true };

export type SearchResult = MoveAttempt | HintResult | ExploreResult | SolvedValues;

function position(p: PositionItem): { profile: MancalaProfile; game: MancalaGame; state: ReturnType<MancalaGame['initial']> } {
  const profile = findProfile(p.rules);
  if (profile === undefined) throw new UserError(`unknown rules ${p.rules}`);
  const game = mancalaGame(profile, p.pits, p.seeds);
  return { profile, game, state: boardToState(game, p.board) };
}

/** Thrown by the trace sink past the node budget. */
class OverBudget extends Error {}

async function run(item: SearchItem): Promise<SearchResult> {
  if (item.kind === 'move') {
    const { profile, game, state } = position(item);
    const player = openReference(item.spec, { game: gameSpec({ profile: profile.name, pits: item.pits, seeds: item.seeds }), conventions: profile.search, memoryMb: 0 });
    return player.chooseMove(game, state, item.timeLimitMs, item.seed);
  }
  if (item.kind === 'hint') {
    const { profile, game, state } = position(item);
    const spec = parseAgentSpec(item.spec);
    const r = await runAgent(spec.agent, { game, state, heuristic: findHeuristic('basic')!, options: optionsUnder(spec, profile.search), random: createRandom(0) });
    return { move: r.choice.move, value: r.choice.value ?? null, nodes: r.nodes, ms: r.ms };
  }
  if (item.kind === 'solve') {
    const { game, state } = position(item);
    return solvedValues(game, state, item.moves, item.maximizing);
  }
  const setup = explorerPosition(item.body);
  let nodes = 0;
  const events: TraceEvent[] = [];
  const sink = (e: TraceEvent): void => {
    if (e.type === 'enter' || e.type === 'leaf' || e.type === 'cached') {
      if (++nodes > item.maxNodes) throw new OverBudget();
    }
    events.push(e);
  };
  try {
    const report = await runSearch(setup, planSearch({ algo: item.algo, depth: item.depth, heuristic: item.heuristic }, setup), sink);
    return { events, report };
  } catch (e) {
    if (e instanceof OverBudget) return { tooLarge: true };
    throw e;
  }
}

/** The job's factory, as the pool's threads find it (by this module's URL and this name). */
export const webSearchJob = (): { run: typeof run; close(): Promise<void> } => ({ run, close: async () => {} });
export const WEB_SEARCH_JOB = jobKind<null, SearchItem, SearchResult>(import.meta.url, 'webSearchJob', webSearchJob);
