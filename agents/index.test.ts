import { describe, expect, it } from 'vitest';
import { UserError } from '../framework/errors.ts';
import alphabeta from './alphabeta.ts';
import advanced from './heuristics/advanced.ts';
import basic from './heuristics/basic.ts';
import cpsc4610Provided from './heuristics/cpsc4610-provided.ts';
import { AGENT_NAMES, findAgent, findHeuristic, HEURISTIC_NAMES, parseAgentSpec, requireHeuristic } from './index.ts';

function userError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as UserError).message;
  }
  throw new Error('expected a UserError');
}

describe('the registry', () => {
  it('names every reference agent and heuristic, each under its own name', () => {
    expect(AGENT_NAMES).toEqual(['random', 'greedy', 'minimax', 'alphabeta', 'ids', 'strong', 'perfect', 'simple', 'advanced']);
    for (const name of AGENT_NAMES) expect(findAgent(name)!.name).toBe(name);
    expect(HEURISTIC_NAMES).toEqual(['basic', 'advanced', 'cpsc4610-provided']);
    for (const name of HEURISTIC_NAMES) expect(findHeuristic(name)!.name).toBe(name);
    expect(findHeuristic('basic')).toBe(basic);
    expect(findHeuristic('advanced')).toBe(advanced);
    expect(findHeuristic('cpsc4610-provided')).toBe(cpsc4610Provided);
  });

  it('finds nothing for unknown names, including Object.prototype keys', () => {
    expect(findAgent('toString')).toBeUndefined();
    expect(findHeuristic('constructor')).toBeUndefined();
    expect(userError(() => requireHeuristic('clever'))).toBe('unknown heuristic "clever": expected one of basic, advanced, cpsc4610-provided');
  });
});

describe('parseAgentSpec', () => {
  it('reads a name alone', () => {
    expect(parseAgentSpec('random')).toEqual({ name: 'random', agent: findAgent('random'), options: {} });
  });

  it('reads options of every kind', () => {
    expect(parseAgentSpec('alphabeta:depth=6,caching=true')).toEqual({ name: 'alphabeta', agent: alphabeta, options: { depth: 6, caching: true } });
    expect(parseAgentSpec('minimax:depth=-1,unit=turn,terminal=heuristic,caching=false').options).toEqual({
      depth: null,
      unit: 'turn',
      terminal: 'heuristic',
      caching: false,
    });
    expect(parseAgentSpec('ids: ms=250 , depth=12').options).toEqual({ ms: 250, depth: 12 });
    expect(parseAgentSpec('alphabeta:caching').options).toEqual({ caching: true });
  });

  it('rejects an unknown agent, listing the valid ones', () => {
    expect(userError(() => parseAgentSpec('alphabet:depth=2'))).toBe(
      'agent spec "alphabet:depth=2": unknown agent "alphabet": expected one of random, greedy, minimax, alphabeta, ids, strong, perfect, simple, advanced',
    );
  });

  it("rejects an option the agent does not read, listing the agent's options", () => {
    expect(userError(() => parseAgentSpec('alphabeta:dept=6'))).toBe(
      'agent spec "alphabeta:dept=6": unknown option "dept" for alphabeta: expected one of depth, unit, caching, terminal, freeTurns',
    );
    expect(userError(() => parseAgentSpec('strong:unit=turn'))).toMatch(/unknown option "unit" for strong: expected one of ms, depth$/);
    expect(userError(() => parseAgentSpec('random:depth=2'))).toBe('agent spec "random:depth=2": agent "random" takes no options');
  });

  it('rejects bad values, saying what each option expects', () => {
    expect(userError(() => parseAgentSpec('alphabeta:depth=deep'))).toBe(
      'agent spec "alphabeta:depth=deep": option "depth" expects a whole number ≥ 0, or -1 for no limit, got "deep"',
    );
    expect(userError(() => parseAgentSpec('alphabeta:depth=-2'))).toMatch(/option "depth" expects/);
    expect(userError(() => parseAgentSpec('alphabeta:depth=2.5'))).toMatch(/option "depth" expects/);
    expect(userError(() => parseAgentSpec('alphabeta:unit=ply'))).toMatch(/option "unit" expects turn or move, got "ply"$/);
    expect(userError(() => parseAgentSpec('alphabeta:terminal=sweep'))).toMatch(/option "terminal" expects score or heuristic/);
    expect(userError(() => parseAgentSpec('alphabeta:caching=yes'))).toMatch(/option "caching" expects true or false, got "yes"$/);
    expect(userError(() => parseAgentSpec('ids:ms=0'))).toMatch(/option "ms" expects a number of milliseconds > 0, got "0"$/);
    expect(userError(() => parseAgentSpec('ids:ms'))).toMatch(/option "ms" expects a number of milliseconds > 0, got no value$/);
  });

  it('rejects an option given twice', () => {
    expect(userError(() => parseAgentSpec('alphabeta:depth=2,depth=3'))).toBe('agent spec "alphabeta:depth=2,depth=3": option "depth" is given twice');
  });
});
