/**
 * Just enough of WebAssembly's binary format to write one module from code: a function's body is
 * built as nested arrays of bytes by the helpers below (written like the text format's folded
 * expressions: `add(get(a), k(1))`), and `encodeModule` lays out the sections. The one user is the
 * Mancala search generated per rule set (mancala-native-search.ts), as sowing.ts generates its
 * JavaScript. Why not a library: wabt (5.5 MB installed) takes about 50 ms to start in each
 * process, plus 10-20 ms to assemble the text; binaryen is 94 MB installed, and AssemblyScript
 * needs it to compile. Encoding these few instructions takes a few ms and no dependency.
 * Only what that search needs is here: i32 and i64 values, locals, globals, one memory, calls,
 * blocks, loops and ifs.
 */

export type Code = number | readonly Code[];

export const I32 = 0x7f;
export const I64 = 0x7e;
export const F64 = 0x7c;
type ValueType = typeof I32 | typeof I64 | typeof F64;

function flatten(c: Code, out: number[]): void {
  if (typeof c === 'number') {
    out.push(c);
    return;
  }
  for (let i = 0; i < c.length; i++) {
    const x = c[i]!;
    if (typeof x === 'number') out.push(x);
    else flatten(x, out);
  }
}

export function bytes(c: Code): number[] {
  const out: number[] = [];
  flatten(c, out);
  return out;
}

export function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

export function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v = Math.floor(v / 128); // an arithmetic shift for any safe integer
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function vec(items: readonly Code[]): number[] {
  return [...uleb(items.length), ...bytes(items)];
}

function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
}

// ---- instructions --------------------------------------------------------------------------

export const k = (v: number): Code => [0x41, sleb(v | 0)];
export const k64 = (v: number): Code => [0x42, sleb(v)];
export const get = (local: number): Code => [0x20, uleb(local)];
export const set = (local: number, v: Code): Code => [v, 0x21, uleb(local)];
export const tee = (local: number, v: Code): Code => [v, 0x22, uleb(local)];
export const gget = (global: number): Code => [0x23, uleb(global)];
export const gset = (global: number, v: Code): Code => [v, 0x24, uleb(global)];
/** i32 at byte address `addr` + `offset` */
export const load = (addr: Code, offset = 0): Code => [addr, 0x28, 2, uleb(offset)];
export const store = (addr: Code, offset: number, v: Code): Code => [addr, v, 0x36, 2, uleb(offset)];
export const load64 = (addr: Code, offset = 0): Code => [addr, 0x29, 3, uleb(offset)];
export const store64 = (addr: Code, offset: number, v: Code): Code => [addr, v, 0x37, 3, uleb(offset)];

const binary = (op: number) => (a: Code, b: Code): Code => [a, b, op];
export const eqz = (a: Code): Code => [a, 0x45];
export const eq = binary(0x46);
export const ne = binary(0x47);
export const lt = binary(0x48);
export const gt = binary(0x4a);
export const le = binary(0x4c);
export const ge = binary(0x4e);
export const add = binary(0x6a);
export const sub = binary(0x6b);
export const mul = binary(0x6c);
export const divU = binary(0x6e);
export const and = binary(0x71);
export const or = binary(0x72);
export const xor = binary(0x73);
export const shl = binary(0x74);
export const shrS = binary(0x75);
export const add64 = binary(0x7c);
export const i64FromU32 = (a: Code): Code => [a, 0xad];

/** a and b as booleans (0 or 1), b evaluated only when a holds */
export const andThen = (a: Code, b: Code): Code => ifValue(a, b, k(0));
/** a or b as booleans (0 or 1), b evaluated only when a does not hold */
export const orElse = (a: Code, b: Code): Code => ifValue(a, k(1), b);
/** cond ? a : b, both i32, only one evaluated */
export const ifValue = (cond: Code, a: Code, b: Code): Code => [cond, 0x04, I32, a, 0x05, b, 0x0b];
export const when = (cond: Code, then: Code, otherwise?: Code): Code => [cond, 0x04, 0x40, then, otherwise === undefined ? [] : [0x05, otherwise], 0x0b];
/** a block that `br(depth)` leaves */
export const block = (...body: Code[]): Code => [0x02, 0x40, body, 0x0b];
/** a block whose value is the i32 a `br(depth)` out of it carries */
export const blockValue = (...body: Code[]): Code => [0x02, I32, body, 0x0b];
/** a loop that `br(depth)` starts again */
export const loop = (...body: Code[]): Code => [0x03, 0x40, body, 0x0b];
export const br = (depth: number): Code => [0x0c, uleb(depth)];
export const brIf = (depth: number, cond: Code): Code => [cond, 0x0d, uleb(depth)];
export const ret = (v?: Code): Code => [v ?? [], 0x0f];
export const call = (fn: number, ...args: Code[]): Code => [args, 0x10, uleb(fn)];
export const drop = (v: Code): Code => [v, 0x1a];

// ---- the module ----------------------------------------------------------------------------

export interface FunctionDef {
  params: ValueType[];
  results: ValueType[];
  /** locals beyond the parameters, numbered after them */
  locals: ValueType[];
  body: Code;
  export?: string;
}

export interface ModuleDef {
  /** imported functions (module "env"), numbered first */
  imports: { name: string; params: ValueType[]; results: ValueType[] }[];
  functions: FunctionDef[];
  /** mutable globals, each exported under its name */
  globals: { name: string; type: ValueType }[];
  /** pages of 64 KiB; exported as "memory" */
  memoryPages: number;
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

export function encodeModule(m: ModuleDef): Uint8Array<ArrayBuffer> {
  const signatures: string[] = [];
  const typeOf = (params: ValueType[], results: ValueType[]): number => {
    const key = `${params.join(',')}:${results.join(',')}`;
    let i = signatures.indexOf(key);
    if (i < 0) i = signatures.push(key) - 1;
    return i;
  };
  const importTypes = m.imports.map((f) => typeOf(f.params, f.results));
  const functionTypes = m.functions.map((f) => typeOf(f.params, f.results));
  const types = signatures.map((s) => {
    const [p, r] = s.split(':').map((x) => (x === '' ? [] : x.split(',').map(Number)));
    return [0x60, vec(p!), vec(r!)];
  });
  const imports = m.imports.map((f, i) => [name('env'), name(f.name), 0x00, uleb(importTypes[i]!)]);
  const globals = m.globals.map((g) => [g.type, 0x01, g.type === I64 ? k64(0) : g.type === F64 ? [0x44, 0, 0, 0, 0, 0, 0, 0, 0] : k(0), 0x0b]);
  const exports: Code[] = [[name('memory'), 0x02, 0]];
  m.functions.forEach((f, i) => {
    if (f.export !== undefined) exports.push([name(f.export), 0x00, uleb(m.imports.length + i)]);
  });
  m.globals.forEach((g, i) => exports.push([name(g.name), 0x03, uleb(i)]));
  const bodies = m.functions.map((f) => {
    const locals = f.locals.map((t) => [1, t]);
    const body = [...vec(locals), ...bytes(f.body), 0x0b];
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(functionTypes.map((t) => uleb(t)))),
    ...section(5, vec([[0x00, uleb(m.memoryPages)]])),
    ...section(6, vec(globals)),
    ...section(7, vec(exports)),
    ...section(10, vec(bodies)),
  ]);
}
