/**
 * What correct searches choose on the behaviour positions, computed here in the grader (never in a
 * submission's process, and never handed to one): the reference greedy agent and alpha-beta at
 * every depth from 1 to the run's, with each of the project's heuristics, free turns honoured and
 * ignored (referenceSearches), under the profile's conventions. Two correct searches of the
 * same depth agree on every position, so their agreement is expected; where a player departs from
 * the search it most resembles, the move is its own, and two players sharing such moves is the
 * signal worth weighing.
 *
 * Each fingerprint is annotated: `reference`, the search it agrees with most, and each answer's
 * `usual` (that search chooses the same move there). In a student kit the references are withheld:
 * fingerprints are then left as they are, and agreement carries no "expected" note.
 */
import type { FreeTurns, SearchConventions } from '../contracts/search-conventions.ts';
import { UserError } from '../errors.ts';
import { boardToState } from '../games/mancala/board-io/board.ts';
import type { MancalaGame } from '../games/mancala/engine.ts';
import { agentTable, heuristicNames, requireAgent, requireHeuristic } from '../plugins/agents.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import type { BehaviourPosition } from './behaviour-positions.ts';
import type { Fingerprint } from './behaviour-types.ts';

/** One reference search's moves, by name, one a position. */
export interface ReferenceMoves {
  search: string;
  moves: string[];
}

/** One reference search: its spec (as `mancala match` would name it) and how it is run. */
interface ReferenceSearch {
  search: string;
  agent: 'alphabeta' | 'greedy';
  depth: number;
  heuristic: string;
  freeTurns: FreeTurns;
}

/**
 * The correct searches a course's players may be: greedy, and alpha-beta at every depth up to the
 * run's with each of the project's heuristics (the course-given ones among them), free turns
 * honoured and, on rules that have them, ignored (seed 002's provided minimax). The deepest plain
 * alpha-beta comes first: what a correct submission asked for that depth matches.
 */
function referenceSearches(game: MancalaGame, conventions: SearchConventions, depth: number): ReferenceSearch[] {
  const own: FreeTurns = conventions.freeTurns ?? 'honour';
  const freeTurns: FreeTurns[] = game.rules.freeTurn ? [own, own === 'honour' ? 'ignore' : 'honour'] : [own];
  const heuristics = ['basic', ...heuristicNames().filter((h) => h !== 'basic')];
  const out: ReferenceSearch[] = [];
  for (const ft of freeTurns) {
    for (const heuristic of heuristics) {
      for (let d = depth; d >= 1; d--) {
        const options = [`depth=${d}`, ...(heuristic !== 'basic' ? [`heuristic=${heuristic}`] : []), ...(ft !== own ? [`freeTurns=${ft}`] : [])];
        out.push({ search: `alphabeta:${options.join(',')}`, agent: 'alphabeta', depth: d, heuristic, freeTurns: ft });
      }
    }
  }
  if (agentTable()['greedy'] !== undefined) out.push({ search: 'greedy', agent: 'greedy', depth: 1, heuristic: 'basic', freeTurns: own });
  return out;
}

/** The reference searches' moves (referenceSearches' order); undefined without references (a student kit). */
export async function referenceMoves(game: MancalaGame, positions: readonly BehaviourPosition[], conventions: SearchConventions, depth: number): Promise<ReferenceMoves[] | undefined> {
  const table = agentTable();
  if (table['alphabeta'] === undefined || table['alphabeta'].withheld === true || table['greedy']?.withheld === true) return undefined;
  const states = positions.map((p) => boardToState(game, p.board));
  const out: ReferenceMoves[] = [];
  for (const s of referenceSearches(game, conventions, depth)) {
    const agent = requireAgent(s.agent);
    const options = { depth: s.depth, unit: conventions.depthUnit, terminal: conventions.terminal, freeTurns: s.freeTurns };
    const moves: string[] = [];
    try {
      const heuristic = requireHeuristic(s.heuristic);
      for (const state of states) {
        const run = await runAgent(agent, { game, state, heuristic, options, random: createRandom(1) });
        moves.push(game.moveName(state, run.choice.move));
      }
    } catch (e) {
      // A heuristic a student kit withholds: the searches with it are left out, the others stay.
      if (e instanceof UserError) continue;
      throw e;
    }
    out.push({ search: s.search, moves });
  }
  return out;
}

/**
 * Names the reference each fingerprint agrees with most, and marks each answer `usual` when it is
 * that reference's move there (in place): a player's departures from the search it most resembles
 * are its own, and two copies of a player depart in the same places.
 */
export function annotateWithReferences(fingerprints: Fingerprint[], references: readonly ReferenceMoves[] | undefined): void {
  if (references === undefined || references.length === 0) return;
  for (const f of fingerprints) {
    if (f.failure !== undefined) continue;
    const answered = f.answers.filter((a) => a.move !== null).length;
    if (answered === 0) continue;
    const same = references.map((r) => f.answers.filter((a, i) => a.move !== null && a.move === r.moves[i]).length);
    const most = Math.max(...same);
    const [best, ...tied] = references.filter((_, k) => same[k] === most);
    f.reference = { search: best!.search, share: most / answered, ...(tied.length > 0 ? { tied: tied.map((r) => r.search) } : {}) };
    f.answers.forEach((a, i) => {
      if (a.move !== null) a.usual = a.move === best!.moves[i];
    });
  }
}
