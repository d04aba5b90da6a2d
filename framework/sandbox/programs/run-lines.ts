/**
 * A course's run lines, as data: which file names its students handed in, the language and
 * version each name meant, and how the course built and ran it, arguments included. A course pack
 * ships one (framework/packs/csci561/run-lines.yaml); an instructor's own course declares its
 * own the same way (a `run-lines.yaml` in the suite folder, or --run-lines FILE). The format:
 *
 *   course: CSCI-561              # a name, for the report's notes
 *   args: -i input.txt            # what {args} stands for (--run-args replaces it for a run)
 *   programs:                     # tried in this order; a folder must match one entry only
 *     - file: mancala.java        # a file of this name anywhere in the folder (any letter case)
 *       language: Java
 *       version: the grader's JDK  # optional, for the notes
 *       build: javac -d . {sources}  # optional: one shell line, run once before the cases
 *       run: java -cp . {main} {args}
 *
 * Placeholders: {file} the file found, {sources} every file of the folder with its extension,
 * {main} the Java class with main by its qualified name, {args} the course's arguments.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parse } from 'yaml';
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { javaMainClass, runArgv, shellQuote, someNames, type BuildPlan, type SubmissionFile } from './build-plan.ts';

/** The name a suite folder's own run lines have (beside its suite.yaml). */
export const RUN_LINES_FILE = 'run-lines.yaml';

const PLACEHOLDERS = ['file', 'sources', 'main', 'args'] as const;
const line = z.string().trim().min(1, 'expected one shell line');
const placeholdersOnly = (text: string) => [...text.matchAll(/\{(\w*)\}/g)].every((m) => (PLACEHOLDERS as readonly string[]).includes(m[1]!));

const ProgramLine = z
  .object({
    file: z.string().trim().min(1).refine((f) => !f.includes('/'), 'a file name, without folders'),
    language: z.string().trim().min(1),
    version: z.coerce.string().trim().min(1).optional(),
    build: line.refine(placeholdersOnly, `unknown placeholder: expected {${PLACEHOLDERS.join('}, {')}}`).optional(),
    run: line.refine(placeholdersOnly, `unknown placeholder: expected {${PLACEHOLDERS.join('}, {')}}`),
  })
  .strict();

const RunLinesSchema = z
  .object({
    course: z.string().trim().min(1),
    args: z.string().default(''),
    programs: z.array(ProgramLine).min(1, 'expected at least one program'),
  })
  .strict();

export type ProgramLine = z.infer<typeof ProgramLine>;

export interface RunLines extends z.infer<typeof RunLinesSchema> {
  /** where they were read, for messages */
  source: string;
}

/** The run lines in `text` (read from `source`); a mistake is one line naming the file and the field. */
export function parseRunLines(text: string, source: string): RunLines {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new UserError(`${source}: not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const parsed = RunLinesSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    throw new UserError(`${source}: ${where}: ${issue.message} (course:, args: and programs: with file:, language:, run: and optional version:, build:)`);
  }
  return { ...parsed.data, source };
}

export function readRunLines(path: string): RunLines {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(`${path}: cannot read the run lines: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseRunLines(text, path);
}

/** What the course said of the program a plan runs, for messages about its runtime. */
export interface CourseProgram {
  course: string;
  /** the file found in the submission */
  file: string;
  language: string;
  version?: string;
}

export type CoursePlan = BuildPlan & { course: CourseProgram };

const depth = (path: string) => path.split('/').length;

/**
 * The plan the course's lines give for a folder holding `files`, `args` in place of the course's
 * arguments when given; undefined when no file of the folder is one the course named.
 */
export function planFromRunLines(lines: RunLines, files: readonly SubmissionFile[], args = lines.args): CoursePlan | { problem: string } | undefined {
  const matches = lines.programs
    .map((p) => ({ p, found: files.filter((f) => basename(f.path).toLowerCase() === p.file.toLowerCase()).sort((a, b) => depth(a.path) - depth(b.path)) }))
    .filter((m) => m.found.length > 0);
  if (matches.length === 0) return undefined;
  if (matches.length > 1) {
    return { problem: `found ${someNames(matches.map((m) => m.found[0]!.path))}: ${lines.course} runs one program, and each of these is one (${matches.map((m) => `${m.p.file}: ${m.p.language}`).join('; ')}); keep one, or say how to run it in mancala.yaml` };
  }
  const { p, found } = matches[0]!;
  const file = found[0]!;
  const ext = extname(p.file).toLowerCase();
  const sources = files.filter((f) => extname(f.path).toLowerCase() === ext);
  const values: Record<string, string> = { file: shellQuote(file.path), sources: sources.map((f) => shellQuote(f.path)).join(' '), args: args.trim() };
  if (`${p.build ?? ''} ${p.run}`.includes('{main}')) {
    const main = javaMainClass(sources);
    if ('problem' in main) return main;
    values.main = shellQuote(main.name);
  }
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '').replace(/\s+/g, ' ').trim();
  const run = fill(p.run);
  const argv = runArgv(run);
  if (argv === undefined) return { problem: `${lines.source}: ${p.file}: run: a quote is not closed` };
  const build = p.build === undefined ? undefined : fill(p.build);
  const version = p.version === undefined || p.language.includes(p.version) ? '' : /^[\d.]+$/.test(p.version) ? ` ${p.version}` : ` (${p.version})`;
  const language = `${p.language}${version}`;
  return {
    ...(build !== undefined ? { build } : {}),
    run: argv,
    why: `${lines.course} ran ${p.file} as ${language}: ${build !== undefined ? `build \`${build}\`, then ` : ''}run \`${run}\``,
    course: { course: lines.course, file: file.path, language: p.language, ...(p.version !== undefined ? { version: p.version } : {}) },
  };
}
