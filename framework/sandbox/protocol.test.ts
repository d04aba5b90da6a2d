import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childMessageSchema, decodeLine, encodeBoot, encodeMessage, LineSplitter, parentMessageSchema, type ChildMessage } from './protocol.ts';

function split(chunks: Buffer[], max = 1024): { lines: string[]; overflows: number } {
  const lines: string[] = [];
  let overflows = 0;
  const s = new LineSplitter(max, (l) => lines.push(l), () => overflows++);
  for (const c of chunks) s.push(c);
  return { lines, overflows };
}

describe('LineSplitter', () => {
  it('reassembles lines across chunks, several lines a chunk, and multi-byte characters cut in half', () => {
    const text = Buffer.from('{"a":1}\n{"b":"é€"}\n{"c":3}\npartial');
    const cuts = [3, 8, 14, 15, 16, 30];
    const chunks = cuts.map((end, k) => text.subarray(k === 0 ? 0 : cuts[k - 1], end)).concat(text.subarray(30));
    expect(split(chunks).lines).toEqual(['{"a":1}', '{"b":"é€"}', '{"c":3}']);
  });

  it('gives up on a line longer than the limit, once, and stays broken', () => {
    const long = Buffer.alloc(600, 'x');
    const { lines, overflows } = split([Buffer.from('ok\n'), long, long, Buffer.from('\nlater\n')], 1000);
    expect(lines).toEqual(['ok']);
    expect(overflows).toBe(1);
  });
});

describe('messages', () => {
  it('carry ±Infinity and NaN through JSON', () => {
    const message: ChildMessage = {
      type: 'result',
      id: 3,
      observation: {
        move: 1,
        value: Infinity,
        ms: 1.5,
        trace: [
          { type: 'enter', name: 'root', level: 0, maximizing: true, value: -Infinity, alpha: -Infinity, beta: Infinity },
          { type: 'leaf', name: 'B1', level: 1, maximizing: false, value: NaN, reason: 'depth' },
        ],
      },
    };
    const line = encodeMessage(message);
    expect(line.endsWith('\n')).toBe(true);
    const decoded = decodeLine(line.trimEnd(), childMessageSchema);
    expect(decoded).toEqual({ ok: true, message });
  });

  it('say what was malformed', () => {
    expect(decodeLine('hello', childMessageSchema)).toEqual({ ok: false, problem: 'not JSON: "hello"' });
    expect(decodeLine('{"type":"result","id":1,"observation":{"move":1.5,"ms":0}}', childMessageSchema)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^field "observation\.move" \(type "result"\): .*int/),
    });
    expect(decodeLine('{"type":"loaded","id":1,"extra":true}', childMessageSchema)).toMatchObject({ ok: false, problem: expect.stringContaining('extra') });
    expect(decodeLine('{"type":"shutdown"}', childMessageSchema)).toMatchObject({ ok: false });
    expect(decodeLine('[1,2]', childMessageSchema)).toMatchObject({ ok: false, problem: expect.stringMatching(/^the message: /) });
  });

  it('from the parent are read back as sent', () => {
    const load = { type: 'load' as const, id: 1, role: 'agent', kind: 'agent' as const, file: '/x/agent.mjs' };
    expect(decodeLine(encodeMessage(load), parentMessageSchema)).toEqual({ ok: true, message: load });
  });
});

describe('the boot message', () => {
  it('is byte for byte the JSON line of the message, whatever the token, name and code, its code encoded once and reused', () => {
    const codes = fc.sample(fc.string({ unit: 'binary' }), { numRuns: 5, seed: 7 });
    fc.assert(
      fc.property(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...codes), (token, name, code) => {
        const boot = { type: 'boot' as const, token, name, code };
        expect(encodeBoot(boot).equals(Buffer.from(JSON.stringify(boot) + '\n'))).toBe(true);
      }),
      { seed: 42, numRuns: 100 },
    );
  });
});
