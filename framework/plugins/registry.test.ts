/**
 * The registries: a slot read before the composition root filled it names the missing
 * registration; the agent catalog reads specs and fills options from the plugin's table alone.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../contracts/agent.ts';
import type { SearchConventions } from '../contracts/search-conventions.ts';
import basic from '../heuristics/basic.ts';
import { agentCatalog } from './agent-catalog.ts';
import { agentNames, findHeuristic, parseAgentSpec } from './agents.ts';
import { compositionRoot } from './composition.ts';
import { pluginSlot } from './slot.ts';

const first: Agent = { name: 'first', chooseMove: () => 0 };
const deep: Agent = { name: 'deep', chooseMove: () => 0 };
const conventions: SearchConventions = { depthUnit: 'turn', terminal: 'heuristic', defaultDepth: 5 };

describe('a plugin slot', () => {
  it('fails with an internal error naming the registration when read before it is filled', () => {
    const slot = pluginSlot<number>('the widgets', 'registerWidgets');
    expect(() => slot.get()).toThrow(/^internal: the widgets used before it was registered: .*calls registerWidgets\(\)/);
    slot.set(3);
    expect(slot.get()).toBe(3);
  });
});

describe('the agent catalog', () => {
  const catalog = agentCatalog({
    agents: { first: { agent: first, options: [] }, deep: { agent: deep, options: ['depth', 'unit', 'terminal'], profileDepth: true } },
    heuristics: { basic },
  });

  it("reads a spec against the plugin's table only", () => {
    expect(catalog.parseAgentSpec('deep:depth=3')).toEqual({ name: 'deep', agent: deep, options: { depth: 3 } });
    expect(() => catalog.parseAgentSpec('alphabeta')).toThrow('unknown agent "alphabeta": expected one of first, deep');
    expect(() => catalog.parseAgentSpec('first:depth=3')).toThrow('agent "first" takes no options');
  });

  it("gives the profile's depth only to a fixed-depth search, and the conventions only where the agent reads them", () => {
    expect(catalog.optionsUnder(catalog.parseAgentSpec('deep'), conventions)).toEqual({ depth: 5, unit: 'turn', terminal: 'heuristic' });
    expect(catalog.optionsUnder(catalog.parseAgentSpec('deep:depth=2'), conventions)).toEqual({ depth: 2, unit: 'turn', terminal: 'heuristic' });
    expect(catalog.optionsUnder(catalog.parseAgentSpec('first'), conventions)).toEqual({});
  });
});

describe('the registries as the composition root fills them (vitest setupFiles: bin/plugins.ts)', () => {
  it('hold the reference agents and heuristics, and the root names itself for worker threads', () => {
    expect(agentNames()).toContain('alphabeta');
    expect(findHeuristic('basic')).toBe(basic);
    expect(parseAgentSpec('alphabeta:depth=2').options).toEqual({ depth: 2 });
    expect(compositionRoot()).toMatch(/\/bin\/plugins\.ts$/);
  });
});
