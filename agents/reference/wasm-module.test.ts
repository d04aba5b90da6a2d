/**
 * The WebAssembly encoder: LEB128 numbers as the format's specification gives them, and a module
 * that the engine compiles and runs (the Mancala search itself is tested by native-search.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { add, call, encodeModule, get, gget, gset, I32, k, ret, sleb, uleb, when } from './wasm-module.ts';

describe('the WebAssembly encoder', () => {
  it('writes LEB128 numbers as the specification does', () => {
    expect(uleb(0)).toEqual([0x00]);
    expect(uleb(127)).toEqual([0x7f]);
    expect(uleb(128)).toEqual([0x80, 0x01]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(0)).toEqual([0x00]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(63)).toEqual([0x3f]);
    expect(sleb(64)).toEqual([0xc0, 0x00]);
    expect(sleb(-64)).toEqual([0x40]);
    expect(sleb(-65)).toEqual([0xbf, 0x7f]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(sleb(2 ** 31 - 1)).toEqual([0xff, 0xff, 0xff, 0xff, 0x07]);
    expect(sleb(-(2 ** 31))).toEqual([0x80, 0x80, 0x80, 0x80, 0x78]);
  });

  it('writes a module the engine compiles: an exported function, a global, an import', () => {
    const bytes = encodeModule({
      imports: [{ name: 'twice', params: [I32], results: [I32] }],
      functions: [
        {
          params: [I32, I32],
          results: [I32],
          locals: [],
          export: 'f',
          body: [gset(0, add(gget(0), k(1))), when(get(1), ret(call(0, get(0)))), add(get(0), k(-1_000_000_000))],
        },
      ],
      globals: [{ name: 'calls', type: I32 }],
      memoryPages: 1,
    });
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { twice: (x: number) => 2 * x } });
    const f = exports.f as (a: number, b: number) => number;
    expect(f(21, 1)).toBe(42);
    expect(f(5, 0)).toBe(5 - 1_000_000_000);
    expect((exports.calls as WebAssembly.Global).value).toBe(2);
    expect((exports.memory as WebAssembly.Memory).buffer.byteLength).toBe(65536);
  });
});
