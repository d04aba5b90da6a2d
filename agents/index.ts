/**
 * The reference agents and heuristics by name, with the options each agent reads. The framework
 * reads this table through its registry (framework/plugins/agents.ts; agents/plugin.ts registers
 * it); the lookups exported here are the same catalog's, for code outside framework (graders,
 * tests) that uses agents/ directly and needs no registration for it.
 */
import { agentCatalog, type AgentEntry } from '../framework/plugins/agent-catalog.ts';
import type { Heuristic } from '../framework/contracts/heuristic.ts';
import advancedAgent from './advanced.ts';
import alphabeta from './alphabeta.ts';
import greedy from './greedy.ts';
import advanced from './heuristics/advanced.ts';
import basic from './heuristics/basic.ts';
import cpsc4610Provided from './heuristics/cpsc4610-provided.ts';
import ids from './ids.ts';
import minimax from './minimax.ts';
import perfect from './perfect/agent.ts';
import random from './random.ts';
import simple from './simple.ts';
import strong from './strong.ts';

export type { AgentEntry, AgentOptionName, AgentSpec } from '../framework/plugins/agent-catalog.ts';

export const AGENTS: Readonly<Record<string, AgentEntry>> = {
  random: { agent: random, options: [], valueless: true },
  greedy: { agent: greedy, options: ['unit', 'terminal'], traces: true },
  minimax: { agent: minimax, options: ['depth', 'unit', 'caching', 'terminal', 'freeTurns'], profileDepth: true, traces: true },
  alphabeta: { agent: alphabeta, options: ['depth', 'unit', 'caching', 'terminal', 'freeTurns'], profileDepth: true, traces: true },
  ids: { agent: ids, options: ['ms', 'depth', 'unit', 'caching', 'terminal', 'freeTurns'] },
  strong: { agent: strong, options: ['ms', 'depth'] },
  // perfect play by the solver (agents/perfect/): a reference, never in a process that runs student code or in a kit
  perfect: { agent: perfect, options: ['ms', 'ttMb', 'endgame'] },
  // seed 003's grading opponents (framework/packs/cs540)
  simple: { agent: simple, options: [] },
  advanced: { agent: advancedAgent, options: ['depth'] },
};

export const HEURISTICS: Readonly<Record<string, Heuristic>> = { basic, advanced, 'cpsc4610-provided': cpsc4610Provided };

const catalog = agentCatalog({ agents: AGENTS, heuristics: HEURISTICS });

export const AGENT_NAMES = catalog.agentNames();
export const HEURISTIC_NAMES = catalog.heuristicNames();
export const { findAgent, findHeuristic, requireHeuristic, parseAgentSpec, optionsUnder } = catalog;
