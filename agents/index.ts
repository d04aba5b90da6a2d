/**
 * The reference agents and heuristics by name, the options each agent reads, and the
 * "name:option=value,…" spec the CLI, matches and tournaments use to name a configured agent.
 */
import type { Agent, AgentOptions } from '../framework/contracts/agent.ts';
import type { Heuristic } from '../framework/contracts/heuristic.ts';
import { UserError } from '../framework/errors.ts';
import type { SearchConventions } from '../framework/search/conventions.ts';
import advancedAgent from './advanced.ts';
import alphabeta from './alphabeta.ts';
import greedy from './greedy.ts';
import advanced from './heuristics/advanced.ts';
import basic from './heuristics/basic.ts';
import ids from './ids.ts';
import minimax from './minimax.ts';
import random from './random.ts';
import simple from './simple.ts';
import strong from './strong.ts';

/** Every option a reference agent reads (AgentOptions), with what a spec may set it to. */
const OPTION_VALUES = {
  depth: 'a whole number ≥ 0, or -1 for no limit',
  unit: 'turn or move',
  caching: 'true or false',
  terminal: 'score or heuristic',
  ms: 'a number of milliseconds > 0',
  freeTurns: 'honour or ignore (ignore: players alternate every move, as seed 002\'s provided minimax)',
} as const;

export type AgentOptionName = keyof typeof OPTION_VALUES;

export interface AgentEntry {
  agent: Agent;
  /** the options this agent reads; a spec may set only these */
  options: readonly AgentOptionName[];
}

export const AGENTS: Readonly<Record<string, AgentEntry>> = {
  random: { agent: random, options: [] },
  greedy: { agent: greedy, options: ['unit', 'terminal'] },
  minimax: { agent: minimax, options: ['depth', 'unit', 'caching', 'terminal', 'freeTurns'] },
  alphabeta: { agent: alphabeta, options: ['depth', 'unit', 'caching', 'terminal', 'freeTurns'] },
  ids: { agent: ids, options: ['ms', 'depth', 'unit', 'caching', 'terminal', 'freeTurns'] },
  strong: { agent: strong, options: ['ms', 'depth'] },
  // seed 003's grading opponents (framework/packs/cs540)
  simple: { agent: simple, options: [] },
  advanced: { agent: advancedAgent, options: ['depth'] },
};

export const HEURISTICS: Readonly<Record<string, Heuristic>> = { basic, advanced };

export const AGENT_NAMES = Object.keys(AGENTS);
export const HEURISTIC_NAMES = Object.keys(HEURISTICS);

export function findAgent(name: string): Agent | undefined {
  return Object.hasOwn(AGENTS, name) ? AGENTS[name]!.agent : undefined;
}

export function findHeuristic(name: string): Heuristic | undefined {
  return Object.hasOwn(HEURISTICS, name) ? HEURISTICS[name] : undefined;
}

/** The heuristic of that name, or a UserError listing the valid names. */
export function requireHeuristic(name: string): Heuristic {
  const h = findHeuristic(name);
  if (h === undefined) throw new UserError(`unknown heuristic "${name}": expected one of ${HEURISTIC_NAMES.join(', ')}`);
  return h;
}

export interface AgentSpec {
  name: string;
  agent: Agent;
  options: AgentOptions;
}

/**
 * Reads "alphabeta:depth=6,caching=true" into the agent and its options. A boolean option may be
 * given bare ("alphabeta:caching"). Unknown agents, unknown or repeated options and bad values
 * throw a UserError that quotes the spec and lists what is valid.
 */
export function parseAgentSpec(spec: string): AgentSpec {
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const fail = (message: string) => new UserError(`agent spec "${spec}": ${message}`);
  if (!Object.hasOwn(AGENTS, name)) {
    throw fail(`unknown agent "${name}": expected one of ${AGENT_NAMES.join(', ')}`);
  }
  const entry = AGENTS[name]!;
  const options: AgentOptions = {};
  const body = colon < 0 ? '' : spec.slice(colon + 1).trim();
  if (body === '') return { name, agent: entry.agent, options };
  if (entry.options.length === 0) throw fail(`agent "${name}" takes no options`);
  for (const part of body.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const text = eq < 0 ? undefined : part.slice(eq + 1).trim();
    if (!(entry.options as readonly string[]).includes(key)) {
      throw fail(`unknown option "${key}" for ${name}: expected one of ${entry.options.join(', ')}`);
    }
    if (Object.hasOwn(options, key)) throw fail(`option "${key}" is given twice`);
    const option = key as AgentOptionName;
    const value = parseOptionValue(option, text);
    if (value === undefined) {
      throw fail(`option "${key}" expects ${OPTION_VALUES[option]}, got ${text === undefined ? 'no value' : `"${text}"`}`);
    }
    options[option] = value as never;
  }
  return { name, agent: entry.agent, options };
}

/** The option's value, or undefined when `text` is not a valid value for it. */
function parseOptionValue(option: AgentOptionName, text: string | undefined): AgentOptions[AgentOptionName] | undefined {
  if (option === 'caching') {
    if (text === undefined || text === 'true') return true;
    return text === 'false' ? false : undefined;
  }
  if (text === undefined || text === '') return undefined;
  switch (option) {
    case 'depth': {
      if (!/^-?\d+$/.test(text)) return undefined;
      const depth = Number(text);
      if (depth === -1) return null;
      return depth >= 0 && Number.isSafeInteger(depth) ? depth : undefined;
    }
    case 'unit':
      return text === 'turn' || text === 'move' ? text : undefined;
    case 'terminal':
      return text === 'score' || text === 'heuristic' ? text : undefined;
    case 'ms': {
      const ms = Number(text);
      return Number.isFinite(ms) && ms > 0 ? ms : undefined;
    }
    case 'freeTurns':
      return text === 'honour' || text === 'ignore' ? text : undefined;
  }
}

/**
 * A reference agent's options under a profile's conventions: the unit and terminal evaluation it
 * reads, and the profile's depth for the fixed-depth searches (minimax, alphabeta) only — the
 * anytime agents (ids, strong) search as deep as their time allows. The spec's own options win.
 */
export function optionsUnder(spec: AgentSpec, conventions: SearchConventions): AgentOptions {
  const reads = new Set<string>(AGENTS[spec.name]!.options);
  const defaults: AgentOptions = {};
  if (reads.has('unit')) defaults.unit = conventions.depthUnit;
  if (reads.has('terminal')) defaults.terminal = conventions.terminal;
  if (reads.has('freeTurns') && conventions.freeTurns !== undefined) defaults.freeTurns = conventions.freeTurns;
  if (spec.name === 'minimax' || spec.name === 'alphabeta') defaults.depth = conventions.defaultDepth;
  return { ...defaults, ...spec.options };
}
