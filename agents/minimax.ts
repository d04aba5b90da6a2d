/**
 * Minimax: the reference search with the options' depth limit (none when absent), unit, caching
 * and terminal evaluation; it emits the trace and gives up at the deadline.
 */
import { minimax } from './reference/minimax.ts';
import { searchAgent } from './search-agent.ts';

export default searchAgent('minimax', 'reference minimax (options: depth, unit, caching, terminal)', minimax);
