/**
 * A run's identity: what decides its results, recorded in every shard's reports so that
 * `mancala merge` combines only shards of one run. It is an ordered record of named values —
 * the suite (its name and a digest of its cases and expected answers), the submissions or
 * participants as given on the command line, and each option that changes results, by its flag
 * (`--time-limit`: 3000, or null when not given). Options that change only speed or output
 * (--jobs, --json, --verbose, …) are left out. The run's id is a digest of the command and its
 * identity; two shards' differences are said in words, flag by flag:
 * "shard 2/3 was graded with --time-limit 3000, shard 1/3 without".
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../suites/canonical-json.ts';
import type { Suite } from '../suites/types.ts';

/** The commands that take --shard, as `mancala merge` names them. */
export const SHARDED_COMMANDS = ['grade', 'check', 'csci561-grade', 'gauntlet', 'tournament', 'similarity'] as const;
export type ShardedCommand = (typeof SHARDED_COMMANDS)[number];

export type IdentityValue = string | number | boolean | null | readonly (string | number)[];

/** Keys starting with `--` are options (null: not given; true: a flag given); others name what was run on. */
export type RunIdentity = Record<string, IdentityValue>;

/** What a command's shards did, for messages: "graded", "played". */
export function verbOf(command: ShardedCommand): string {
  if (command === 'similarity') return 'compared';
  return command === 'gauntlet' || command === 'tournament' ? 'played' : 'graded';
}

/** The run's id: 12 hex digits of the digest of its command and identity. */
export function runId(command: ShardedCommand, identity: RunIdentity): string {
  return createHash('sha256').update(canonicalJson({ command, identity })).digest('hex').slice(0, 12);
}

/** 12 hex digits of a digest of any JSON-like value. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 12);
}

/**
 * A suite as an identity value: its name and a digest of its manifest (less where its files are on
 * this machine), cases and expected answers, `extra` too (e.g. the input files a program reads).
 */
export function suiteIdentity(suite: Suite, extra?: unknown): string {
  const { file: _file, dir: _dir, ...manifest } = suite.manifest;
  return `${suite.manifest.name} (sha256 ${digestOf({ manifest, cases: suite.cases, expected: suite.expected, extra: extra ?? null })})`;
}

/** An option's value as recorded: null when not given. */
export function given<T extends IdentityValue>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

const isFlag = (key: string) => key.startsWith('--');

function showValue(v: IdentityValue): string {
  if (v === null) return '(none)';
  if (Array.isArray(v)) return v.length === 0 ? '(none)' : v.join(' ');
  return String(v);
}

/** How a value reads after "was graded": "with --time-limit 3000", "without --python" ("without" second), "on submissions a b". */
function phrase(key: string, v: IdentityValue, second: boolean): string {
  if (isFlag(key)) {
    if (v === null || v === false) return second ? 'without' : `without ${key}`;
    return v === true ? `with ${key}` : `with ${key} ${showValue(v)}`;
  }
  return `on ${key} ${showValue(v)}`;
}

/** Two lists that hold different items: which are in one only (a long class list is not shown whole). */
function listDifference(key: string, a: readonly (string | number)[], b: readonly (string | number)[], aName: string, bName: string): string {
  const inB = new Set(b.map(String));
  const inA = new Set(a.map(String));
  const onlyA = a.filter((x) => !inB.has(String(x)));
  const onlyB = b.filter((x) => !inA.has(String(x)));
  const some = (xs: readonly (string | number)[]) => (xs.length > 3 ? `${xs.slice(0, 3).join(', ')} and ${xs.length - 3} more` : xs.join(', '));
  if (onlyA.length === 0 && onlyB.length === 0) return `${aName} lists the ${key} in another order than ${bName} (${a.length === b.length ? 'the same ones' : `${a.length} against ${b.length}`})`;
  const parts = [...(onlyA.length > 0 ? [`${some(onlyA)} only in ${aName}'s`] : []), ...(onlyB.length > 0 ? [`${some(onlyB)} only in ${bName}'s`] : [])];
  return `${aName} and ${bName} have different ${key}: ${parts.join('; ')}`;
}

/**
 * Every difference between two identities, in words, '' when there is none:
 * "shard 2/3 was graded with --time-limit 3000, shard 1/3 without".
 */
export function describeIdentityDifferences(command: ShardedCommand, a: { name: string; identity: RunIdentity }, b: { name: string; identity: RunIdentity }): string {
  const verb = verbOf(command);
  const keys = [...new Set([...Object.keys(a.identity), ...Object.keys(b.identity)])];
  const parts: string[] = [];
  for (const key of keys) {
    const va = a.identity[key] ?? null;
    const vb = b.identity[key] ?? null;
    if (canonicalJson(va) === canonicalJson(vb)) continue;
    if (Array.isArray(va) && Array.isArray(vb) && !isFlag(key) && (va.length > 4 || vb.length > 4)) {
      parts.push(listDifference(key, va, vb, a.name, b.name));
    } else {
      parts.push(`${a.name} was ${verb} ${phrase(key, va, false)}, ${b.name} ${phrase(key, vb, true)}`);
    }
  }
  return parts.join('; ');
}
