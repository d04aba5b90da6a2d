/**
 * `mancala merge`'s logic: the shards given are checked to be the shards of ONE run — the same
 * command, split the same way, the same identity (identity.ts), each shard once — and combined
 * into what one run gives, timings aside: the units of work back in the run's order, totals and
 * the run's notes worked out again over all of them.
 *
 * Missing shards are refused, naming them and their units, unless the caller allows them
 * (`--allow-missing`): then what is there is merged and the report says, in its notes, what is
 * not. A tournament shard whose games are not all recorded counts as missing those games.
 */
import { UserError } from '../errors.ts';
import { earned } from '../grading/score.ts';
import { commonFailures, commonFailureWarning, reportOutcomes } from '../grading/common-failure.ts';
import type { CaseReport, GradeReport, SubmissionReport } from '../grading/report.ts';
import { shardItems, shardLabel } from '../shard-spec.ts';
import { participants, type TournamentParams } from '../tournaments/params.ts';
import { computeStandings, type Standing } from '../tournaments/ratings.ts';
import { readResults, type PlayedGame } from '../tournaments/results.ts';
import { buildSchedule, type ScheduledGame } from '../tournaments/schedule.ts';
import { describeIdentityDifferences, runId, type RunIdentity, type ShardedCommand } from './identity.ts';
import type { CheckShard, ReportShard, ShardInput, TournamentShard } from './read.ts';

/** Shards of one run, checked: sorted by shard number. */
export interface ShardSet<T extends ShardInput = ShardInput> {
  command: ShardedCommand;
  count: number;
  run: string;
  identity: RunIdentity;
  shards: T[];
  /** shard numbers not given (only with allowMissing) */
  missing: number[];
}

const name = (s: ShardInput) => `shard ${shardLabel(s.record)} (${s.given})`;

/** Checks that the inputs are the shards of one run; refuses, in one line, anything else. */
export function checkShardSet(inputs: readonly ShardInput[], allowMissing: boolean): ShardSet {
  if (inputs.length === 0) throw new UserError('nothing to merge: give the shards\' JSON reports or results folders');
  const first = inputs[0]!;
  for (const s of inputs) {
    if (s.record.command !== first.record.command) {
      throw new UserError(`cannot merge ${name(s)}, a shard of mancala ${s.record.command}, with ${name(first)}, a shard of mancala ${first.record.command}: shards of one run of one command only`);
    }
    if (s.record.run !== runId(s.record.command, s.record.identity)) {
      throw new UserError(`${s.given}: its shard record was altered (its run id ${s.record.run} is not its identity's): use the file as its run wrote it`);
    }
  }
  const sorted = [...inputs].sort((a, b) => a.record.index - b.record.index);
  const base = sorted[0]!;
  for (const s of sorted) {
    if (s.record.count !== base.record.count) {
      throw new UserError(`cannot merge ${name(s)} with ${name(base)}: one run split into ${s.record.count} shards, the other into ${base.record.count}; merge shards of one run (the same --shard i/n count)`);
    }
    const differences = describeIdentityDifferences(base.record.command, { name: name(s), identity: s.record.identity }, { name: name(base), identity: base.record.identity });
    if (differences !== '') throw new UserError(`cannot merge shards of different runs: ${differences}`);
  }
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k]!.record.index === sorted[k - 1]!.record.index) {
      throw new UserError(`shard ${shardLabel(sorted[k]!.record)} is given twice (${sorted[k - 1]!.given} and ${sorted[k]!.given}): give each shard once`);
    }
  }
  const count = base.record.count;
  const present = new Set(sorted.map((s) => s.record.index));
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !present.has(k));
  const set: ShardSet = { command: base.record.command, count, run: base.record.run, identity: base.record.identity, shards: sorted, missing };
  for (const s of sorted) checkUnits(set, s);
  if (missing.length > 0 && !allowMissing) {
    const units = missing.flatMap((k) => shardItems(allUnits(set), { index: k, count }));
    const which = missing.map((k) => `${k}/${count}`).join(', ');
    const what = units.length === 0 ? 'no work of its own' : showUnits(set.command, units);
    throw new UserError(
      `missing shard${missing.length === 1 ? '' : 's'} ${which} of run ${set.run} (mancala ${set.command}; ${what}): give every shard, or --allow-missing to merge the ${sorted.length} given`,
    );
  }
  return set;
}

/** Every unit of the run, in its order. */
function allUnits(set: Pick<ShardSet, 'command' | 'identity' | 'shards'>): string[] {
  switch (set.command) {
    case 'check':
      return listOf(set.identity['cases']);
    case 'tournament': {
      const t = set.shards[0] as TournamentShard;
      return buildSchedule(t.params).map((g) => String(g.index));
    }
    default:
      return listOf(set.identity['submissions']);
  }
}

function listOf(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : [];
}

/** A shard holds exactly its own units (a record made by hand, or for another split, is refused). */
function checkUnits(set: ShardSet, s: ShardInput): void {
  // A tournament shard's games are checked against its schedule as they are read (mergeTournamentShards).
  if (s.kind === 'tournament') return;
  const expected = shardItems(allUnits(set), s.record);
  if (JSON.stringify(expected) !== JSON.stringify(s.record.units)) {
    throw new UserError(`${s.given}: its units (${s.record.units.length}) are not those of shard ${shardLabel(s.record)} of its run (${expected.length}): use the file as its run wrote it`);
  }
  if (s.kind === 'report') {
    const paths = s.report.submissions.map((x) => x.path);
    if (JSON.stringify(paths) !== JSON.stringify(s.record.units)) {
      throw new UserError(`${s.given}: its submissions (${paths.join(', ') || 'none'}) are not its shard's (${s.record.units.join(', ') || 'none'})`);
    }
  }
}

/** "submissions a, b and 3 more", "cases x, y", "games 3, 6, 9". */
export function showUnits(command: ShardedCommand, units: readonly string[]): string {
  const shown = command === 'check' ? units.map((u) => u.slice(u.indexOf(':') + 1)) : units;
  const noun = command === 'check' ? 'case' : command === 'tournament' ? 'game' : 'submission';
  const list = shown.length > 5 ? `${shown.slice(0, 5).join(', ')} and ${shown.length - 5} more` : shown.join(', ');
  return `${noun}${shown.length === 1 ? '' : 's'} ${list}`;
}

/** The note of a merge that lacks shards (or games). */
function incompleteNote(set: ShardSet, absent: readonly string[]): string | undefined {
  if (absent.length === 0) return undefined;
  const shards = set.missing.length === 0 ? '' : `shard${set.missing.length === 1 ? '' : 's'} ${set.missing.map((k) => `${k}/${set.count}`).join(', ')} not merged (--allow-missing), `;
  return `incomplete: ${shards}so ${showUnits(set.command, absent)} ${absent.length === 1 ? 'is' : 'are'} not in this report`;
}

/**
 * The isolation of the whole run: the network was cut off if it was in every shard; the notes
 * are the shards' (each machine describes its sandbox), said once, notes that differ only in
 * times measured (a runtime's start-up: "python3: 57 ms") being the same note: the first shard's.
 */
function mergedIsolation(list: readonly GradeReport['isolation'][]): GradeReport['isolation'] {
  const notes = new Map<string, string>();
  for (const note of list.map((i) => i.note)) {
    const key = note?.replace(/\d+(?:\.\d+)? ms\b/g, '# ms');
    if (note !== undefined && !notes.has(key!)) notes.set(key!, note);
  }
  return { network: list.every((i) => i.network), ...(notes.size > 0 ? { note: [...notes.values()].join('; ') } : {}) };
}

/** Scores keep six decimals, as grading/score.ts rounds them. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

// ---- grade, csci561-grade, gauntlet: shards by submission -------------------------------------

export interface MergedReport {
  report: GradeReport;
  /** the warnings about common failures, worked out over every submission (also in the report's notes) */
  warnings: string[];
  /** units not in the merge (missing shards) */
  absent: string[];
}

export function mergeReportShards(set: ShardSet<ReportShard>): MergedReport {
  const units = allUnits(set);
  const byShard = new Map(set.shards.map((s) => [s.record.index, s]));
  const position = new Map<number, number>();
  const submissions: SubmissionReport[] = [];
  const kinds = new Map<string, string | undefined>();
  const absent: string[] = [];
  units.forEach((unit, k) => {
    const index = (k % set.count) + 1;
    const s = byShard.get(index);
    if (s === undefined) {
      absent.push(unit);
      return;
    }
    const at = position.get(index) ?? 0;
    position.set(index, at + 1);
    submissions.push(s.report.submissions[at]!);
    kinds.set(unit, s.record.kinds?.[at] ?? undefined);
  });
  const base = set.shards[0]!;
  const suites = new Set(set.shards.map((s) => s.report.suite));
  if (suites.size > 1) throw new UserError(`cannot merge: the shards graded different suites (${[...suites].join(', ')})`);
  const incomplete = incompleteNote(set, absent);
  const report: GradeReport = {
    version: 1,
    suite: base.report.suite,
    isolation: mergedIsolation(set.shards.map((s) => s.report.isolation)),
    submissions,
  };
  const warnings = commonFailures(reportOutcomes(report, (s) => kinds.get(s.path) ?? undefined)).map(commonFailureWarning);
  const notes = [...(base.record.runNotes ?? []), ...(incomplete !== undefined ? [incomplete] : []), ...warnings];
  return { report: notes.length > 0 ? { ...report, notes, submissions } : report, warnings, absent };
}

// ---- check: shards by case ---------------------------------------------------------------------

export interface MergedCheck {
  reports: GradeReport[];
  absent: string[];
}

export function mergeCheckShards(set: ShardSet<CheckShard>): MergedCheck {
  const units = allUnits(set);
  const suiteCount = listOf(set.identity['suites']).length;
  const present = new Map(set.shards.map((s) => [s.record.index, s]));
  const share = new Map<string, number>();
  for (const s of set.shards) s.record.units.forEach((u, k) => share.set(u, s.record.shares?.[k] ?? 0));
  const absent = units.filter((_, k) => !present.has((k % set.count) + 1));
  const incomplete = incompleteNote(set, absent);
  const reports: GradeReport[] = [];
  for (let suite = 1; suite <= suiteCount; suite++) {
    // This suite's cases, each with the shard that graded it.
    const mine = units.flatMap((u, k) => (u.startsWith(`${suite}:`) && present.has((k % set.count) + 1) ? [{ unit: u, shard: present.get((k % set.count) + 1)! }] : []));
    if (mine.length === 0) continue;
    const reportOf = (s: CheckShard): GradeReport => {
      const at = (s.record.suites ?? []).indexOf(suite);
      if (at < 0) throw new UserError(`${s.given}: it graded cases of suite ${suite} but has no report of it`);
      return s.reports[at]!;
    };
    const holders = [...new Set(mine.map((m) => m.shard))];
    const header = reportOf(holders[0]!);
    const cases: CaseReport[] = mine.map(({ unit, shard }) => {
      const id = unit.slice(unit.indexOf(':') + 1);
      const found = reportOf(shard).submissions[0]?.cases.find((c) => c.id === id);
      if (found === undefined) throw new UserError(`${shard.given}: case ${id} of its shard is not in its report`);
      return found;
    });
    const shares = mine.map((m) => share.get(m.unit) ?? 0);
    // As grading/score.ts adds them: the unrounded shares in the suite's order.
    const score = round(cases.reduce((a, c, k) => a + shares[k]! * earned(c), 0));
    const maxScore = round(shares.reduce((a, x) => a + x, 0));
    const first = header.submissions[0]!;
    const notes = [...new Set(holders.flatMap((h) => reportOf(h).submissions[0]?.notes ?? []))];
    const runNotes = [...(header.notes ?? []), ...(incomplete !== undefined ? [incomplete] : [])];
    reports.push({
      version: 1,
      suite: header.suite,
      isolation: mergedIsolation(holders.map((h) => reportOf(h).isolation)),
      ...(runNotes.length > 0 ? { notes: runNotes } : {}),
      submissions: [{ id: first.id, path: first.path, score, maxScore, cases, notes }],
    });
  }
  return { reports, absent };
}

// ---- tournament: shards by scheduled game ------------------------------------------------------

export interface MergedTournament {
  params: TournamentParams;
  schedule: ScheduledGame[];
  /** every game merged, in schedule order */
  games: PlayedGame[];
  standings: Standing[];
  /** e.g. a torn last line left out */
  notes: string[];
  /** games not in the merge: of missing shards, or not yet played by a shard */
  absent: string[];
}

export function mergeTournamentShards(set: ShardSet<TournamentShard>, allowMissing: boolean): MergedTournament {
  const params = set.shards[0]!.params;
  const schedule = buildSchedule(params);
  const notes: string[] = [];
  const games = new Map<number, PlayedGame>();
  for (const s of set.shards) {
    const recorded = readResults(s.file, params, schedule, notes, { shard: s.record, repair: false });
    const mine = shardItems(schedule, s.record).length;
    if (recorded.size < mine && !allowMissing) {
      throw new UserError(
        `${name(s)} is unfinished: ${recorded.size} of its ${mine} games are recorded; rerun its command to finish it, or --allow-missing to merge the games there are`,
      );
    }
    for (const [index, g] of recorded) games.set(index, g);
  }
  const absent = schedule.filter((g) => !games.has(g.index)).map((g) => String(g.index));
  const inOrder = [...games.values()].sort((x, y) => x.index - y.index);
  const incomplete = incompleteNote(set, absent);
  if (incomplete !== undefined) notes.push(`${incomplete}; rerun the tournament's command without --shard, with --out on the merged folder, to play them`);
  return { params, schedule, games: inOrder, standings: computeStandings(participants(params), inOrder), notes, absent };
}
