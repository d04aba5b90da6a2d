/**
 * The pieces of sharding on their own: parsing `--shard i/n`, which units a shard does, how two
 * runs' differences are said, and what merge refuses in a set of shards (mancala merge's whole
 * path, with real runs, is framework/cli/commands/merge.slow.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { withShardColumn } from '../cli/shard-option.ts';
import type { GradeReport } from '../grading/report.ts';
import { inShard, parseShardSpec, shardItems } from '../shard-spec.ts';
import { describeIdentityDifferences, runId, type RunIdentity } from './identity.ts';
import { checkShardSet } from './merge.ts';
import type { ReportShard } from './read.ts';
import { shardRecord, withShardField } from './record.ts';

describe('--shard i/n', () => {
  it('reads i/n with 1 ≤ i ≤ n, and says what is wrong with anything else', () => {
    expect(parseShardSpec('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShardSpec(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShardSpec('0/3')).toEqual({ error: expect.stringContaining('there is no shard 0 of 3') });
    expect(parseShardSpec('4/3')).toEqual({ error: expect.stringContaining('there is no shard 4 of 3') });
    expect(parseShardSpec('1/0')).toEqual({ error: expect.stringContaining('got 0 shards') });
    expect(parseShardSpec('x')).toEqual({ error: expect.stringContaining('got "x"') });
    expect(parseShardSpec('1/2/3')).toHaveProperty('error');
    expect(parseShardSpec('-1/3')).toHaveProperty('error');
  });

  it('deals the units out in turn: every unit to exactly one shard, the shares within one of each other', () => {
    const units = Array.from({ length: 10 }, (_, k) => `u${k}`);
    const shards = [1, 2, 3].map((index) => shardItems(units, { index, count: 3 }));
    expect(shards).toEqual([
      ['u0', 'u3', 'u6', 'u9'],
      ['u1', 'u4', 'u7'],
      ['u2', 'u5', 'u8'],
    ]);
    expect(shardItems(units, undefined)).toEqual(units);
    expect(shardItems(['a'], { index: 3, count: 3 })).toEqual([]);
    for (let k = 0; k < 50; k++) expect([1, 2, 3, 4, 5].filter((index) => inShard(k, { index, count: 5 }))).toEqual([(k % 5) + 1]);
  });
});

describe('run identities', () => {
  const base: RunIdentity = { suite: 'Kalah basics (sha256 0123456789ab)', submissions: ['a', 'b'], '--time-limit': null, '--weak-sandbox': null };
  const named = (name: string, identity: RunIdentity) => ({ name, identity });

  it('say each difference by its flag', () => {
    expect(describeIdentityDifferences('grade', named('shard 2/3', { ...base, '--time-limit': 3000 }), named('shard 1/3', base))).toBe('shard 2/3 was graded with --time-limit 3000, shard 1/3 without');
    expect(describeIdentityDifferences('grade', named('shard 2/3', base), named('shard 1/3', { ...base, '--time-limit': 3000 }))).toBe('shard 2/3 was graded without --time-limit, shard 1/3 with --time-limit 3000');
    expect(describeIdentityDifferences('gauntlet', named('shard 2/2', { ...base, '--weak-sandbox': true }), named('shard 1/2', base))).toBe('shard 2/2 was played with --weak-sandbox, shard 1/2 without');
    expect(describeIdentityDifferences('grade', named('A', { ...base, suite: 'Kalah basics (sha256 ffffffffffff)' }), named('B', base))).toBe(
      'A was graded on suite Kalah basics (sha256 ffffffffffff), B on suite Kalah basics (sha256 0123456789ab)',
    );
    expect(describeIdentityDifferences('grade', named('A', base), named('B', base))).toBe('');
  });

  it('name what differs in a long list rather than print a class list', () => {
    const many = Array.from({ length: 30 }, (_, k) => `s${k}`);
    const text = describeIdentityDifferences('grade', named('A', { ...base, submissions: [...many, 'extra'] }), named('B', { ...base, submissions: many }));
    expect(text).toBe('A and B have different submissions: extra only in A\'s');
    expect(describeIdentityDifferences('grade', named('A', { ...base, submissions: [...many].reverse() }), named('B', { ...base, submissions: many }))).toContain('in another order');
  });

  it('give a run id that depends on the command and every value', () => {
    expect(runId('grade', base)).toMatch(/^[0-9a-f]{12}$/);
    expect(runId('grade', base)).toBe(runId('grade', { ...base }));
    expect(runId('grade', base)).not.toBe(runId('csci561-grade', base));
    expect(runId('grade', base)).not.toBe(runId('grade', { ...base, '--time-limit': 1 }));
  });
});

describe('shard records in reports', () => {
  const report: GradeReport = { version: 1, suite: 'S', isolation: { network: true }, submissions: [] };
  const identity: RunIdentity = { suite: 'S (sha256 0)', submissions: ['a', 'b', 'c'] };
  const shard = (index: number, units: string[], id = identity): ReportShard => ({
    kind: 'report',
    given: `s${index}.json`,
    record: shardRecord('grade', { index, count: 2 }, id, units),
    report: { ...report, submissions: units.map((u) => ({ id: u, path: u, score: 0, maxScore: 0, cases: [], notes: [] })) },
  });

  it('go right after the version in JSON, and in a last CSV column', () => {
    const record = shardRecord('grade', { index: 1, count: 2 }, identity, ['a', 'c']);
    expect(Object.keys(JSON.parse(withShardField('{\n  "version": 1,\n  "suite": "S"\n}\n', record)) as object)).toEqual(['version', 'shard', 'suite']);
    expect(withShardColumn('id,score\r\na,1\r\n', record)).toBe(`id,score,shard\r\na,1,1/2 ${record.run}\r\n`);
  });

  it('are checked by merge: one run, each shard once, its own units, nothing missing unless allowed', () => {
    expect(checkShardSet([shard(2, ['b']), shard(1, ['a', 'c'])], false).shards.map((s) => s.record.index)).toEqual([1, 2]);
    expect(() => checkShardSet([shard(1, ['a', 'c'])], false)).toThrow(/missing shard 2\/2 of run [0-9a-f]{12} \(mancala grade; submission b\)/);
    expect(checkShardSet([shard(1, ['a', 'c'])], true).missing).toEqual([2]);
    expect(() => checkShardSet([shard(1, ['a', 'b'])], false)).toThrow(/its units \(2\) are not those of shard 1\/2 of its run/);
    const altered = shard(2, ['b']);
    altered.record.identity = { ...identity, '--memory': 64 };
    expect(() => checkShardSet([shard(1, ['a', 'c']), altered], false)).toThrow(/its shard record was altered/);
    expect(() => checkShardSet([], false)).toThrow(/nothing to merge/);
  });
});
