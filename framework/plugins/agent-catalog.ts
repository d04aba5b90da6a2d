/**
 * Agents and heuristics by name, and the "name:option=value,…" spec the CLI, suites, matches and
 * tournaments use to name a configured agent (`alphabeta:depth=6,caching`). Generic: the table
 * comes from a plugin (agents/index.ts); the options and their values are the AgentOptions
 * contract's, so reading a spec is the framework's job.
 */
import type { Agent, AgentOptions } from '../contracts/agent.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import { UserError } from '../errors.ts';

/** Every option a spec may set (AgentOptions), with what it may be set to. */
const OPTION_VALUES = {
  depth: 'a whole number ≥ 0, or -1 for no limit',
  unit: 'turn or move',
  caching: 'true or false',
  terminal: 'score or heuristic',
  ms: 'a number of milliseconds > 0',
  freeTurns: 'honour or ignore (ignore: players alternate every move, as CPSC 4610\'s provided minimax)',
  ttMb: 'a whole number of MB > 0 (the perfect-play solver\'s transposition table)',
  endgame: 'an endgame database file (written by mancala solve --build-endgame)',
} as const;

export type AgentOptionName = keyof typeof OPTION_VALUES;

export interface AgentEntry {
  agent: Agent;
  /** the options this agent reads; a spec may set only these */
  options: readonly AgentOptionName[];
  /** a fixed-depth search: it takes the profile's default depth when the spec sets none (anytime agents search as deep as their time allows) */
  profileDepth?: boolean;
  /** its search emits trace events (a suite's trace check compares with it) */
  traces?: boolean;
  /** it returns a move without a value (a suite's value check has nothing to compare with) */
  valueless?: boolean;
  /** held back from a student kit (plugins/student-kit.ts): its name and options parse, running it says why not */
  withheld?: boolean;
}

export interface AgentPlugin {
  agents: Readonly<Record<string, AgentEntry>>;
  heuristics: Readonly<Record<string, Heuristic>>;
}

export interface AgentSpec {
  name: string;
  agent: Agent;
  options: AgentOptions;
}

/** The lookups over one plugin's tables. */
export interface AgentCatalog {
  readonly agents: Readonly<Record<string, AgentEntry>>;
  agentNames(): string[];
  heuristicNames(): string[];
  findAgent(name: string): Agent | undefined;
  findHeuristic(name: string): Heuristic | undefined;
  /** The heuristic of that name, or a UserError listing the valid names. */
  requireHeuristic(name: string): Heuristic;
  /**
   * Reads "alphabeta:depth=6,caching=true" into the agent and its options. A boolean option may
   * be given bare ("alphabeta:caching"). Unknown agents, unknown or repeated options and bad
   * values throw a UserError that quotes the spec and lists what is valid.
   */
  parseAgentSpec(spec: string): AgentSpec;
  /**
   * An agent's options under a profile's conventions: the unit, terminal evaluation and free-turn
   * rule it reads, and the profile's depth for a fixed-depth search (AgentEntry.profileDepth).
   * The spec's own options win.
   */
  optionsUnder(spec: AgentSpec, conventions: SearchConventions): AgentOptions;
}

export function agentCatalog(plugin: AgentPlugin): AgentCatalog {
  const { agents, heuristics } = plugin;
  const agentNames = () => Object.keys(agents);
  const heuristicNames = () => Object.keys(heuristics);
  const findHeuristic = (name: string) => (Object.hasOwn(heuristics, name) ? heuristics[name] : undefined);
  return {
    agents,
    agentNames,
    heuristicNames,
    findAgent: (name) => (Object.hasOwn(agents, name) ? agents[name]!.agent : undefined),
    findHeuristic,
    requireHeuristic(name) {
      const h = findHeuristic(name);
      if (h === undefined) throw new UserError(`unknown heuristic "${name}": expected one of ${heuristicNames().join(', ')}`);
      return h;
    },
    parseAgentSpec(spec) {
      const colon = spec.indexOf(':');
      const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
      const fail = (message: string) => new UserError(`agent spec "${spec}": ${message}`);
      if (!Object.hasOwn(agents, name)) throw fail(`unknown agent "${name}": expected one of ${agentNames().join(', ')}`);
      const entry = agents[name]!;
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
    },
    optionsUnder(spec, conventions) {
      const entry = agents[spec.name]!;
      const reads = new Set<string>(entry.options);
      const defaults: AgentOptions = {};
      if (reads.has('unit')) defaults.unit = conventions.depthUnit;
      if (reads.has('terminal')) defaults.terminal = conventions.terminal;
      if (reads.has('freeTurns') && conventions.freeTurns !== undefined) defaults.freeTurns = conventions.freeTurns;
      if (entry.profileDepth === true) defaults.depth = conventions.defaultDepth;
      return { ...defaults, ...spec.options };
    },
  };
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
    case 'ttMb':
      return /^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
    case 'endgame':
      return text;
  }
}
