/**
 * The registry of agents and heuristics: what framework code reaches agents/ through. The
 * composition root registers agents/'s tables (registerAgents); the lookups read them and fail
 * with an internal error before that. The names are those agents/index.ts offers code outside
 * framework, so moving a caller here is an import change (its constants become functions).
 */
import type { Agent, AgentOptions } from '../contracts/agent.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { agentCatalog, type AgentCatalog, type AgentEntry, type AgentPlugin, type AgentSpec } from './agent-catalog.ts';
import { pluginSlot } from './slot.ts';

export type { AgentEntry, AgentOptionName, AgentPlugin, AgentSpec } from './agent-catalog.ts';

const catalog = pluginSlot<AgentCatalog>('the agent catalog', 'registerAgents');

export function registerAgents(plugin: AgentPlugin): void {
  catalog.set(agentCatalog(plugin));
}

/** Every agent by name, with the options it reads (agents/index.ts AGENTS). */
export function agentTable(): Readonly<Record<string, AgentEntry>> {
  return catalog.get().agents;
}

export function agentNames(): string[] {
  return catalog.get().agentNames();
}

export function heuristicNames(): string[] {
  return catalog.get().heuristicNames();
}

export function findAgent(name: string): Agent | undefined {
  return catalog.get().findAgent(name);
}

/** The agent of that name; its absence is a wiring bug (framework code names only agents the plugin promises). */
export function requireAgent(name: string): Agent {
  const agent = findAgent(name);
  if (agent === undefined) throw new Error(`internal: no agent "${name}" is registered (registered: ${agentNames().join(', ')})`);
  return agent;
}

export function findHeuristic(name: string): Heuristic | undefined {
  return catalog.get().findHeuristic(name);
}

export function requireHeuristic(name: string): Heuristic {
  return catalog.get().requireHeuristic(name);
}

export function parseAgentSpec(spec: string): AgentSpec {
  return catalog.get().parseAgentSpec(spec);
}

export function optionsUnder(spec: AgentSpec, conventions: SearchConventions): AgentOptions {
  return catalog.get().optionsUnder(spec, conventions);
}
