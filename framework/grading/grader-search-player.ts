/**
 * A heuristic's playoff: "our alpha-beta with your heuristic", for a TypeScript or JavaScript
 * heuristic module (a SandboxSession) and for a program over stdio (a course bridge: CSC384's
 * utils.py, CPSC 4610's MancalaPlayer.score). The reference alpha-beta runs HERE, in the grader's
 * process; the submission's process, which runs the student's code, is asked only for its
 * heuristic's values of positions the grader sends, many in one request (evaluateMany; over stdio
 * evaluate-many, PROTOCOL.md). So no process that runs student code holds the reference search.
 *
 * A move: the positions the search may value (the leaves of the depth-limited tree, found by the
 * reference minimax under the same conventions with a heuristic that only records them, within a
 * time budget) are asked for at once; then the reference alpha-beta searches with those values,
 * exactly as it would search calling the heuristic itself with the same options. A position it values that was not asked yet (a prefetch cut short) is asked in one
 * more request and the search runs again, until it runs on values alone: its answer is always the
 * search with the student's values. The move's time is the program's CPU time over its requests.
 */
import type { AgentOptions } from '../contracts/agent.ts';
import type { Game, Player } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import { boardToState } from '../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import { agentTable, requireAgent } from '../plugins/agents.ts';
import { studentKitCourse } from '../plugins/student-kit.ts';
import { createRandom } from '../random.ts';
import { MAX_BATCH, type Attempt, type HeuristicAsker, type MoveAsker } from '../sandbox/exchange.ts';
import { hardLimitFor } from '../sandbox/hard-limit.ts';
import { runAgent } from '../search/run-agent.ts';
import { gameForBoard } from '../suites/game.ts';
import type { CaseOptions, GameSpec } from '../suites/types.ts';

/** Wall-clock ms the grader spends finding a move's leaves before it asks for them (a deeper search asks the rest as it goes). */
const PREFETCH_MS = 250;
/** Rounds of asking a move may take: every round adds at least one value, so a search of that many leaves needs no more. */
const MAX_ROUNDS = 10_000;

/** The options the reference search sees: the case's search options, as an agent in the sandbox sees them (sandbox/child/requests.ts agentOptions) but without `ms`. */
function searchOptions(o: CaseOptions): AgentOptions {
  const out: AgentOptions = {};
  if (o.depth !== undefined) out.depth = o.depth;
  if (o.unit !== undefined) out.unit = o.unit;
  if (o.caching !== undefined) out.caching = o.caching;
  if (o.terminal !== undefined) out.terminal = o.terminal;
  return out;
}

/**
 * Whether this installation runs the grader's search: a student kit holds no reference alpha-beta,
 * so it leaves heuristic playoffs to the instructor's grading.
 */
export function graderSearchHere(): boolean {
  const table = agentTable();
  return studentKitCourse() === undefined && ['alphabeta', 'minimax'].every((name) => table[name] !== undefined && table[name].withheld !== true);
}

export class GraderSearchPlayer implements MoveAsker {
  /** The student's program (asked for values only) and the suite's game; `prefetchMs` 0 asks only what the search reaches (tests). */
  constructor(
    private readonly program: HeuristicAsker,
    private readonly game: GameSpec,
    private readonly prefetchMs = PREFETCH_MS,
  ) {}

  async chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number): Promise<Attempt> {
    const heuristic = options.heuristic ?? '';
    if (!heuristic.startsWith('role:')) return { status: 'error', message: `internal: the grader's search plays with a heuristic role (role:NAME), not "${heuristic}"`, ms: 0 };
    const role = heuristic.slice('role:'.length);
    const spec = gameForBoard(this.game, board);
    if (spec.kind !== 'mancala') return { status: 'error', message: "internal: the grader's search plays Mancala", ms: 0 };
    const game = new MancalaGame(spec.rules, spec.name);
    const state = boardToState(game, board, player, 'the playoff board');
    const search = searchOptions(options);
    const values = new Map<string, number>();
    let pending = this.prefetchMs > 0 ? await leavesOf(game, state, search, this.prefetchMs) : [];
    let ms = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      for (let k = 0; k < pending.length; k += MAX_BATCH) {
        const batch = pending.slice(k, k + MAX_BATCH);
        const asked = await this.program.evaluateMany(role, spec, player, batch, hardLimitFor(Math.max(1, timeLimitMs - ms)));
        ms += asked.ms;
        if (asked.status !== 'ok') return { ...asked, ms };
        batch.forEach((s, i) => values.set(game.key(s), asked.values[i]!));
      }
      if (ms > timeLimitMs) break;
      const missed = new Map<string, MancalaState>();
      const table: Heuristic<MancalaState> = {
        name: role,
        evaluate(s, _player, g) {
          const key = g.key(s);
          const v = values.get(key);
          if (v !== undefined) return v;
          if (!missed.has(key)) missed.set(key, g.clone(s));
          return 0;
        },
      };
      const outcome = await runAgent(requireAgent('alphabeta'), { game, state, heuristic: table, options: search, random: createRandom(options.seed ?? 0) });
      if (missed.size === 0) {
        const { move, value } = outcome.choice;
        return { status: 'ok', observation: { move, ...(value !== undefined ? { value } : {}), nodes: outcome.nodes, evaluations: outcome.evaluations, ms }, ms };
      }
      pending = [...missed.values()];
    }
    return { status: 'timeout', message: `its heuristic took ${Math.round(ms)} ms of CPU time for this move's positions; the limit is ${timeLimitMs} ms a move`, ms };
  }
}

/**
 * The positions the alpha-beta may value with the heuristic: the leaves the reference minimax
 * values under the same options (no pruning: a superset), each once, found within `prefetchMs`.
 */
async function leavesOf(game: Game<MancalaState>, state: MancalaState, options: AgentOptions, prefetchMs: number): Promise<MancalaState[]> {
  const found = new Map<string, MancalaState>();
  const recorder: Heuristic<MancalaState> = {
    name: 'recorder',
    evaluate(s, _player, g) {
      const key = g.key(s);
      if (!found.has(key)) found.set(key, g.clone(s));
      return 0;
    },
  };
  await runAgent(requireAgent('minimax'), { game, state, heuristic: recorder, options: { ...options, caching: false }, timeLimitMs: prefetchMs, random: createRandom(0) });
  return [...found.values()];
}

