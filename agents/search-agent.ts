/**
 * The minimax and alphabeta agents are the same thin wrapper around a reference search: the
 * options become the search's parameters (agent-options.ts), the result becomes { move, value }.
 */
import type { Agent } from '../framework/contracts/agent.ts';
import { searchParams } from './agent-options.ts';
import type { SearchParams, SearchResult } from './reference/search-stack.ts';

export function searchAgent(name: string, description: string, search: <S>(params: SearchParams<S>, state: S) => SearchResult): Agent {
  return {
    name,
    description,
    chooseMove(ctx) {
      const result = search(searchParams(ctx), ctx.state);
      return { move: result.move, value: result.value };
    },
  };
}
