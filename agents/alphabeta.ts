/**
 * Alpha-beta: the reference search (AIMA fail-soft) with the options' depth limit (none when
 * absent), unit, caching and terminal evaluation; it emits the trace and gives up at the deadline.
 */
import { alphaBeta } from './reference/alphabeta.ts';
import { searchAgent } from './search-agent.ts';

export default searchAgent('alphabeta', 'reference alpha-beta (options: depth, unit, caching, terminal)', alphaBeta);
