/**
 * JSON that does not depend on the order fields were set in: keys sorted, `undefined` left out.
 * Case hashes are taken over it, and expected.json is written in its readable form, so that
 * blessing twice gives the same bytes and a diff shows only what changed.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The value with object keys sorted and undefined fields dropped (non-finite numbers are refused). */
function sorted(value: unknown, path: string): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`canonical JSON holds finite numbers only, got ${value} at ${path || 'the root'}`);
    return Object.is(value, -0) ? 0 : value;
  }
  if (Array.isArray(value)) return value.map((v, i) => sorted(v, `${path}[${i}]`));
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sorted(v, path === '' ? key : `${path}.${key}`);
    }
    return out;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value} (at ${path || 'the root'})`);
}

/** Compact canonical JSON, for hashing. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value, ''));
}

/** A value with no objects or lists below its own members: printed on one line. */
function isFlat(v: Json): boolean {
  const members = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : [];
  return members.every((m) => m === null || typeof m !== 'object' || (Array.isArray(m) && m.every((x) => x === null || typeof x !== 'object')));
}

/**
 * Canonical JSON for people: the first `expandLevels` levels one member a line; below that a flat
 * object (a board, a trace event) on one line, and a flat list too when it is short (a long list
 * of strings, like a traverse log, one item a line); and a trailing newline.
 */
export function formatCanonicalJson(value: unknown, expandLevels = 2): string {
  const write = (v: Json, indent: string, level: number): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (level >= expandLevels && isFlat(v)) {
      const oneLine = JSON.stringify(v);
      if (!Array.isArray(v) || oneLine.length <= 100) return oneLine;
    }
    const inner = indent + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[\n${v.map((m) => inner + write(m, inner, level + 1)).join(',\n')}\n${indent}]`;
    }
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${write(v[k]!, inner, level + 1)}`).join(',\n')}\n${indent}}`;
  };
  return write(sorted(value, ''), '', 0) + '\n';
}
