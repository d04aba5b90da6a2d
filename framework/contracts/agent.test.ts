/**
 * toMoveChoice is checked by hand (it runs on every move, and in the sandbox's runtime, without
 * zod): here it is held to the zod schema it replaced, on every kind of value an agent may return.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toMoveChoice } from './agent.ts';

/** The plain specification: what chooseMove may return, as a zod schema. */
const specification = z.object({ move: z.number().int(), value: z.number().optional(), depth: z.number().int().optional() });

function bySpecification(returned: unknown): unknown {
  if (typeof returned === 'number') return { move: returned };
  const parsed = specification.safeParse(returned);
  return parsed.success ? parsed.data : 'refused';
}

function byHand(returned: unknown): unknown {
  try {
    return toMoveChoice(returned);
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toMatch(/^chooseMove must return a move number or \{ move, value \}; got /);
    return 'refused';
  }
}

const numberish = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 1, -0, Infinity, -Infinity, NaN, 2 ** 60),
  fc.string(),
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
);

describe('toMoveChoice', () => {
  it('accepts and refuses what the zod schema does, and gives back the same choice', () => {
    const choice = fc.record({ move: numberish, value: numberish, depth: numberish, extra: fc.anything() }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(choice, fc.anything(), numberish.filter((v) => typeof v !== 'number'), fc.array(fc.integer())), (returned) => {
        expect(byHand(returned)).toStrictEqual(bySpecification(returned));
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('keeps the move of a plain number, and names what was wrong otherwise', () => {
    expect(toMoveChoice(3)).toEqual({ move: 3 });
    expect(toMoveChoice({ move: 2, value: 7, depth: 4, remark: 'x' })).toEqual({ move: 2, value: 7, depth: 4 });
    // A note (the perfect agent's "no value proven") is kept; an empty one or a non-string is dropped.
    expect(toMoveChoice({ move: 2, note: 'not proven' })).toEqual({ move: 2, note: 'not proven' });
    expect(toMoveChoice({ move: 2, note: '' })).toEqual({ move: 2 });
    expect(toMoveChoice({ move: 2, note: 5 })).toEqual({ move: 2 });
    expect(() => toMoveChoice({ move: 'seven' })).toThrow('chooseMove must return a move number or { move, value }; got {"move":"seven"}');
  });
});
