/**
 * `mancala suite validate <dir>` and `mancala suite bless <dir> [--check]`: check a suite's files
 * (every mistake one line naming the file, line and field; exit 2), and compute its expected
 * answers with the role references into expected.json. `bless --check` writes nothing and exits 1
 * when expected.json is not what bless would write (a case edited since, a changed reference):
 * the CI guard that hidden answers are up to date.
 */
import type { Command } from 'commander';
import { UserError } from '../../errors.ts';
import { blessSuite, writeExpected } from '../../suites/bless.ts';
import { EXPECTED_FILE, orphanedExpected, unblessedCases } from '../../suites/expected.ts';
import { loadSuite } from '../../suites/load.ts';
import type { Expected, Suite, SuiteCase, Visibility } from '../../suites/types.ts';
import type { CliIo } from '../options.ts';

/** Exit code of `bless --check` when expected.json is out of date (not a usage error). */
export const OUT_OF_DATE = 1;

export function registerSuiteCommand(program: Command, io: CliIo): void {
  const suite = program
    .command('suite')
    .summary('check a test suite, and bless its expected answers')
    .description(
      'A suite folder holds suite.yaml (the manifest: game, roles, categories, limits, visibility), case files ' +
        '(cases/**/*.yaml or .json) and expected.json, the reference answers that "suite bless" writes.',
    );

  suite
    .command('validate')
    .argument('<dir>', 'the suite folder')
    .summary('load a suite, report its cases per category and visibility, and which are not blessed')
    .action(async (dir: string) => {
      const loaded = await loadSuite(dir);
      io.out(validationReport(dir, loaded));
    });

  suite
    .command('bless')
    .argument('<dir>', 'the suite folder')
    .option('--check', `write nothing; exit ${OUT_OF_DATE} if ${EXPECTED_FILE} is not what bless would write`)
    .summary(`run each case's reference and write ${EXPECTED_FILE}`)
    .addHelpText(
      'after',
      ['', 'Examples:', '  $ mancala suite bless testcases/kalah-basics', '  $ mancala suite bless testcases/kalah-basics --check   # in CI'].join('\n'),
    )
    .action(async (dir: string, opts: { check?: boolean }) => {
      const loaded = await loadSuite(dir);
      const result = await blessSuite(loaded);
      const changed = new Set(result.changed);
      const added = new Set(result.added);
      const width = Math.max(0, ...loaded.cases.map((c) => c.id.length));
      for (const c of loaded.cases) {
        const mark = added.has(c.id) ? 'new' : changed.has(c.id) ? 'changed' : 'unchanged';
        io.out(`  ${c.id.padEnd(width)}  ${describeExpected(result.expected[c.id]!)} (${mark})\n`);
      }
      for (const id of result.removed) io.out(`  ${id.padEnd(width)}  removed (no such case any more)\n`);
      const modified = result.changed.length - result.added.length - result.removed.length;
      const summary =
        `${cases(loaded.cases.length)}: ${result.added.length} new, ${modified} changed, ` +
        `${loaded.cases.length - result.added.length - modified} unchanged; ${result.removed.length} removed`;
      const file = `${dir.replace(/\/+$/, '')}/${EXPECTED_FILE}`;
      if (opts.check) {
        if (result.changed.length > 0) {
          const shown = result.changed.slice(0, 5).join(', ') + (result.changed.length > 5 ? ', …' : '');
          throw new UserError(`${file} is out of date (${summary}): ${shown}; run mancala suite bless ${dir}`, OUT_OF_DATE);
        }
        io.out(`${summary}; ${file} is up to date\n`);
        return;
      }
      if (result.changed.length > 0) writeExpected(loaded.manifest.dir, result.expected);
      io.out(`${summary}; ${result.changed.length > 0 ? `wrote ${file}` : `${file} is up to date`}\n`);
    });
}

/** One line: what bless stored for a case. */
export function describeExpected(e: Expected): string {
  const parts: string[] = [];
  if (e.move !== undefined) parts.push(`move ${e.moveName ?? e.move} (${e.move})`);
  if (e.value !== undefined) parts.push(`value ${e.value}`);
  if (e.nodes !== undefined) parts.push(`${e.nodes} nodes`);
  if (e.evaluations !== undefined) parts.push(`${e.evaluations} evaluations`);
  if (e.trace !== undefined) parts.push(`trace of ${e.trace.length} ${typeof e.trace[0] === 'string' ? 'log lines' : 'events'}`);
  if (e.nextState !== undefined) parts.push(`next state ${e.nextState.top.join(',')} / ${e.nextState.bottom.join(',')} stores ${e.nextState.topStore}-${e.nextState.bottomStore}`);
  if (e.heuristicValue !== undefined) parts.push(`heuristic value ${e.heuristicValue}`);
  if (e.moveValues !== undefined) parts.push(`solved move values ${Object.entries(e.moveValues).map(([m, v]) => `${m}:${v}`).join(' ')}`);
  return parts.length === 0 ? 'no reference answer needed' : parts.join(', ');
}

const VISIBILITIES: Visibility[] = ['visible', 'after_due_date', 'hidden'];

/** What `validate` prints: the suite at a glance, then what needs attention. */
export function validationReport(dir: string, suite: Suite): string {
  const m = suite.manifest;
  const files = new Set(suite.cases.map((c) => c.file));
  const lines: string[] = [];
  // A suite may mix board sizes: say which, so a size no one meant to use shows.
  const sizes = m.game.kind === 'mancala' ? [...new Set(suite.cases.map((c) => c.board.top.length))].sort((a, b) => a - b) : [];
  const game = sizes.length > 1 || (sizes.length === 1 && m.game.kind === 'mancala' && sizes[0] !== m.game.rules.pits) ? `${m.game.name} (boards of ${listed(sizes)} pits)` : m.game.name;
  lines.push(`suite "${m.name}" (${dir}): ${game}, ${cases(suite.cases.length)} in ${files.size} file${files.size === 1 ? '' : 's'}, limits ${m.limits.ms} ms and ${m.limits.memoryMb} MB a case`);
  for (const [name, role] of Object.entries(m.roles)) {
    const count = suite.cases.filter((c) => c.role === name).length;
    lines.push(`  role ${name}: ${role.kind}, files ${role.files.join(' ')}, reference ${role.reference}; ${cases(count)}`);
  }

  const rows = m.categories.map((k) => {
    const cases = suite.cases.filter((c) => c.category === k.name);
    return [k.name, String(k.weight), String(cases.length), String(cases.reduce((s, c) => s + c.points, 0)), ...VISIBILITIES.map((v) => String(cases.filter((c) => c.visibility === v).length))];
  });
  lines.push(...table(['category', 'weight', 'cases', 'points', ...VISIBILITIES], rows).map((l) => `  ${l}`));

  const empty = m.categories.filter((k) => !suite.cases.some((c) => c.category === k.name));
  for (const k of empty) lines.push(`warning: category "${k.name}" has no cases: its weight ${k.weight} cannot be earned`);
  const unblessed = unblessedCases(suite);
  const orphans = orphanedExpected(suite);
  if (unblessed.length === 0) lines.push(`blessed: ${suite.cases.length === 1 ? 'the case has' : `all ${suite.cases.length} cases have`} up-to-date expected answers`);
  else lines.push(`not blessed (new or edited since): ${list(unblessed)}; run mancala suite bless ${dir}`);
  if (orphans.length > 0) lines.push(`${EXPECTED_FILE} has entries for cases that no longer exist: ${orphans.join(', ')} (bless removes them)`);
  return lines.join('\n') + '\n';
}

function cases(n: number): string {
  return n === 1 ? '1 case' : `${n} cases`;
}

function list(cases: SuiteCase[]): string {
  const ids = cases.map((c) => c.id);
  return ids.length <= 10 ? ids.join(', ') : `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more`;
}

/** Columns: text left-aligned, numbers right-aligned. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const cell = (text: string, i: number) => (i === 0 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!));
  return [header, ...rows].map((r) => r.map(cell).join('  ').trimEnd());
}

/** 4, 6 and 7 */
function listed(values: readonly number[]): string {
  return values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}
