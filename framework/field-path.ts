/**
 * What every reader of a structured file (suites, JSON boards, grade reports, replays) says when
 * a field is wrong: where the field is (`cases[2].checks.nodes`) and what was found there, quoted
 * short, so an error stays one line.
 */

/** A field's place in parsed data: object keys and list indexes. */
export type FieldPath = readonly PropertyKey[];

/** `cases[2].checks.nodes`; "" for the root. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const k of path) {
    if (typeof k === 'number') out += `[${k}]`;
    else out += out === '' ? String(k) : `.${String(k)}`;
  }
  return out;
}

/** The value at `path` in `data`, or undefined when the path leads nowhere. */
export function valueAt(data: unknown, path: FieldPath): unknown {
  let v = data;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A value as a message quotes it: strings in quotes, short; objects and lists by their shape. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
