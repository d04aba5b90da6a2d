/**
 * What each command that takes submissions adds for the intake (framework/intake/): the
 * `--roster` option, the one call that turns its submission arguments into records (and says on
 * stderr, in one line, which layout it read and how many students), and a report's snapshot
 * paths put back as the instructor's own names.
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { registerRenamer } from './user-names.ts';
import { basename, dirname, join, resolve } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { Option } from 'commander';
import { UserError } from '../errors.ts';
import { studentPath } from '../student-text.ts';
import { describeIntake, isPlainSubmission, takeInSubmissions, type Intake, type TakeInOptions } from '../intake/take-in.ts';
import type { RosterReport } from '../intake/roster.ts';
import type { SubmissionRecord } from '../intake/submission.ts';
import { cleanUpOnInterrupt } from './interrupt.ts';
import type { CliIo } from './options.ts';

/** The intake's options of a command's --roster. */
export function rosterTakeIn(flags: { roster?: string }): TakeInOptions {
  return flags.roster !== undefined ? { roster: flags.roster } : {};
}

/** A student as a report names them when a roster matched: `Smith, Alice (1001)`; else undefined (its source name). */
export function rosterName(r: SubmissionRecord): string | undefined {
  if (r.rosterLine === undefined) return undefined;
  return r.name !== undefined ? `${r.name} (${r.id})` : r.id;
}

export function rosterOption(): Option {
  return new Option(
    '--roster <file>',
    "the class list: the LMS's gradebook export (Canvas: Student,ID,SIS User ID,…; Moodle: First name,Surname,ID number,Email address) or id,name,email; " +
      'each submission is named by its student, and submissions and students that do not match are listed',
  );
}

/**
 * The command's submission arguments taken in (files, folders, LMS zips or folders in any layout),
 * one line on stderr saying how (when a zip or an export was read), and the roster's unmatched
 * both ways. Snapshots are removed at exit and on Ctrl-C.
 */
export async function takeInForCommand(io: CliIo, paths: readonly string[], o: TakeInOptions = {}): Promise<Intake> {
  cleanUpOnInterrupt(io);
  const intake = await takeInSubmissions(paths, o);
  // An error line names what was given, never a snapshot.
  registerRenamer((text) => withSourceNames(text, intake));
  // Folders and files given one by one are read as they always were: a word only when a zip or an export was read.
  if (intake.reads.some((r) => r.layout !== 'single') || paths.some((p) => /\.zip$/i.test(p))) io.err(`${describeIntake(intake)}\n`);
  if (intake.roster !== undefined) io.err(rosterLines(intake.roster));
  return intake;
}

/** The roster's match in lines: how many matched, then each submission and each student left over, once. */
export function rosterLines(r: RosterReport): string {
  const lines = [`roster ${r.file} (${r.form}): ${r.matched} submission${r.matched === 1 ? '' : 's'} matched to a student`];
  for (const s of r.unmatchedSubmissions) lines.push(`  no student in the roster for the submission ${s}`);
  for (const e of r.withoutSubmission) lines.push(`  no submission from ${e.name ?? e.id} (${e.id}, roster line ${e.line})`);
  return `${lines.join('\n')}\n`;
}

/** The help text of a command's submission argument: `what` it took, and what it takes now. */
export function intakeHelp(what: string): string {
  return `${what}, or an LMS's download as a zip or folder (Canvas, Moodle, Blackboard, Gradescope, GitHub Classroom; \`mancala submissions\` shows how it is read)`;
}

/**
 * Where a run whose work outlives it keeps its snapshots: the same folder for the same command
 * (given paths, working folder, user), so a coordinator of `--queue` workers run again after a
 * kill asks for the same jobs on the same paths and nothing is graded twice. Made afresh by each
 * run (take-in.ts empties a folder it made before), mode 0700.
 */
export function stableIntakeRoot(given: readonly string[]): string {
  const who = process.getuid?.() ?? 'user';
  const digest = createHash('sha256').update(JSON.stringify([process.cwd(), ...given.map((p) => resolve(p))])).digest('hex').slice(0, 16);
  return join(tmpdir(), `mancala-intake-${who}-${digest}`);
}

/** The one submission a command for one student takes (`check`): refused when the path holds a class. */
export function onlySubmission(intake: Intake, given: string): string {
  if (intake.records.length !== 1) {
    throw new UserError(`${given}: holds ${intake.records.length} submissions (${describeIntake(intake)}); this command checks one: give one student's folder, or grade them all with mancala grade`);
  }
  return intake.records[0]!.path;
}

/** The source name of the submission whose snapshot is `path` (the path itself when it is none). */
export function sourceOf(intake: Intake | undefined, path: string): string {
  return intake?.records.find((r) => r.path === path)?.source ?? path;
}

/**
 * The submissions as given, as every report names them (the sanitiser's form, as withSourceNames
 * writes a report's paths): what a shard records as its units and identity, so that a merge
 * compares like with like and no shard file holds a student's raw bytes, and what its line names.
 */
export function shownSources(intake: Intake | undefined, paths: readonly string[]): string[] {
  return paths.map((p) => studentPath(sourceOf(intake, p)));
}

/** The paths to hand on: each record's snapshot. */
export function recordPaths(intake: Intake): string[] {
  return intake.records.map((r) => r.path);
}

/**
 * `value` (a report, or any JSON-able data) with every snapshot path replaced by the submission's
 * own source name, made terminal-safe (studentPath): no report shows the intake's temp folder, and
 * a folder's name put back cannot bring back the escapes its report had been cleaned of.
 */
export function withSourceNames<T>(value: T, intake: Intake | undefined, label?: (r: SubmissionRecord) => string | undefined): T {
  if (intake === undefined) return value;
  // Every snapshot is <root>/<id> (a single file: <root>/<id>/<file>), an id of safeId's letters: one pass over the JSON finds them all.
  const byFolder = new Map(intake.records.map((r) => [r.path.slice(intake.root.length + 1).split('/')[0]!, r]));
  const esc = (s: string) => JSON.stringify(s).slice(1, -1);
  const roots = [intake.root];
  try {
    const real = realpathSync(intake.root);
    if (real !== intake.root) roots.push(real);
  } catch {
    // removed already: the given form is all there is
  }
  let text = JSON.stringify(withRecordIds(value, intake));
  for (const root of roots) {
    const pattern = new RegExp(`${esc(root).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([A-Za-z0-9._@+-]+)((?:/[^/"\\\\]+)?)`, 'g');
    text = text.replace(pattern, (whole, found: string, after: string) => {
      // A sentence's full stop after the path is no part of the id.
      const folder = byFolder.has(found) ? found : found.replace(/\.+$/, '');
      const next = folder === found ? after : found.slice(folder.length) + after;
      const r = byFolder.get(folder);
      if (r === undefined) return whole;
      // A name of the caller's (a roster's student) in place of the whole snapshot path.
      const named = label?.(r);
      if (named !== undefined) return esc(studentPath(named)) + (r.path !== join(intake.root, folder) && next === `/${basename(r.path)}` ? '' : next);
      // The given name is the student's folder name: shown as the sanitiser shows it, as the snapshot's path was before (its escapes visible, none obeyed).
      if (r.path === join(intake.root, folder)) return esc(studentPath(r.source)) + next;
      return next === `/${basename(r.path)}` ? esc(studentPath(r.source)) : esc(studentPath(dirname(r.source))) + next;
    });
  }
  return JSON.parse(text) as T;
}

/**
 * A report's submissions (`{id, path}` each, as grading and similarity write them) named by their
 * records' ids: a single agent file's report id is its file's name, which two students may share.
 */
function withRecordIds<T>(value: T, intake: Intake): T {
  const subs = (value as { submissions?: unknown } | null)?.submissions;
  if (!Array.isArray(subs)) return value;
  const byPath = new Map(intake.records.map((r) => [r.path, r.id]));
  const named = subs.map((s: unknown) => {
    const sub = s as { id?: unknown; path?: unknown };
    const id = typeof sub.path === 'string' ? byPath.get(sub.path) : undefined;
    return id === undefined || typeof sub.id !== 'string' ? s : { ...sub, id };
  });
  return { ...value, submissions: named };
}

/**
 * Agent specs as matches, tournaments and the gauntlet take them: each that names a file or folder
 * (an LMS zip too) taken in and replaced by its students' snapshots (`path:options` keeps its
 * options); reference names (`alphabeta:depth=4`) as they are. No intake (and no line) when no
 * spec is a path.
 */
export async function takeInAgentSpecs(io: CliIo, specs: readonly string[], o: TakeInOptions & { exportsOnly?: boolean } = {}): Promise<{ specs: string[]; intake?: Intake }> {
  const { exportsOnly, ...options } = o;
  const asPath = (spec: string): { path: string; options: string } | undefined => {
    const colon = spec.lastIndexOf(':');
    const found = existsSync(spec) ? { path: spec, options: '' } : colon > 0 && existsSync(spec.slice(0, colon)) && spec.slice(colon + 1).includes('=') ? { path: spec.slice(0, colon), options: spec.slice(colon) } : undefined;
    // A tournament names its agents by their specs in a results file it resumes: a plain folder keeps its name (the sandbox copies it safely).
    return found !== undefined && exportsOnly === true && isPlainSubmission(found.path) ? undefined : found;
  };
  const paths = specs.map(asPath);
  const given = paths.filter((p) => p !== undefined).map((p) => p.path);
  if (given.length === 0) {
    if (options.roster !== undefined) throw new UserError(`--roster ${options.roster}: no submission given by path for it to name (only reference agents)`);
    return { specs: [...specs] };
  }
  const intake = await takeInForCommand(io, given, options);
  // Which records came from which given path: the intake keeps their order, `count` of each.
  const byPath: string[][] = [];
  let at = 0;
  for (const read of intake.reads) {
    byPath.push(intake.records.slice(at, at + read.count).map((r) => r.path));
    at += read.count;
  }
  let k = 0;
  const out: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const p = paths[i];
    if (p === undefined) out.push(spec);
    else out.push(...byPath[k++]!.map((path) => path + p.options));
  }
  return { specs: out, intake };
}
