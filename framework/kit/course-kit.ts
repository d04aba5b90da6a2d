/**
 * What a course's student kit holds, as its starter folder says in `kit.json`
 * (agents/starters/<course>/kit.json): the public suites, the agents the course gives its
 * students (every other agent of the catalog is held back), the commands `npm run check` and
 * `npm run play` run, the tools a student's machine needs (`requires`: requirements.ts) and the
 * course's game files the project wrote that agent/ holds too (`provided`). Read by path: the
 * framework imports nothing from agents/ or testcases/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { UserError } from '../errors.ts';
import { isCourseFolder } from '../packs/csci561/course-suite.ts';
import { PROJECT_ROOT } from '../sandbox/paths.ts';
import { requirementSchema } from './requirements.ts';

export const STARTERS_DIR = join(PROJECT_ROOT, 'agents', 'starters');
export const TESTCASES_DIR = join(PROJECT_ROOT, 'testcases');
export const AGENTS_DIR = join(PROJECT_ROOT, 'agents');
export const KIT_FILE = 'kit.json';

const kitSchema = z.strictObject({
  title: z.string().min(1),
  /** public suites: folder names under testcases/ */
  suites: z.array(z.string().regex(/^[\w-]+$/)),
  /** agent name → its module under agents/: what the course gives its students */
  agents: z.record(z.string(), z.string().regex(/^[\w-]+\.ts$/)),
  /** `mancala` arguments of `npm run check`, run in the kit's folder */
  /** subfolders of the starter folder the kit places beside agent/ instead of in it (e.g. starters in other languages) */
  beside: z.array(z.string().regex(/^[\w-]+$/)).optional(),
  check: z.array(z.string()).min(1),
  /** `npm run play`: `mancala` arguments, or a program of the course's own (its game manager) run in agent/ */
  play: z.union([z.array(z.string()).min(1), z.strictObject({ run: z.array(z.string().regex(/^[\w./=:,-]+$/)).min(1) })]),
  /** what the student's machine needs besides Node (the course's language): requirements.ts */
  requires: z.array(requirementSchema).optional(),
  /** files of agents/ the kit's agent/ holds too, by their name there: the course's game code as the project wrote it */
  provided: z.record(z.string().regex(/^[\w-]+\.\w+$/), z.string()).optional(),
});

export interface CourseKit extends z.infer<typeof kitSchema> {
  course: string;
  /** the starter folder (absolute) */
  starter: string;
}

/** The courses that have a kit: starter folders with a kit.json. */
export function kitCourses(): string[] {
  return readdirSync(STARTERS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(STARTERS_DIR, d.name, KIT_FILE)))
    .map((d) => d.name)
    .sort();
}

export function loadCourseKit(course: string): CourseKit {
  const courses = kitCourses();
  if (!courses.includes(course)) throw new UserError(`course ${JSON.stringify(course)}: expected one of ${courses.join(', ')}`);
  const starter = join(STARTERS_DIR, course);
  const file = join(starter, KIT_FILE);
  const parsed = kitSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${file}: ${issue.path.join('.') || '(the file)'}: ${issue.message}`);
  }
  for (const suite of parsed.data.suites) {
    // A suite with a manifest, or a folder of the course's own files (csci561's testInput_K.txt and answers).
    const dir = join(TESTCASES_DIR, suite);
    if (!existsSync(join(dir, 'suite.yaml')) && !isCourseFolder(dir)) throw new UserError(`${file}: suites: ${suite}: no testcases/${suite}/suite.yaml, nor the course's files (testInput_K.txt)`);
  }
  for (const folder of parsed.data.beside ?? []) {
    if (!existsSync(join(starter, folder))) throw new UserError(`${file}: beside: ${folder}: no such folder in ${starter}`);
  }
  for (const [name, module] of Object.entries(parsed.data.agents)) {
    if (!existsSync(join(AGENTS_DIR, module))) throw new UserError(`${file}: agents.${name}: no agents/${module}`);
  }
  for (const [name, path] of Object.entries(parsed.data.provided ?? {})) {
    if (path.split('/').includes('..') || !existsSync(join(AGENTS_DIR, path))) throw new UserError(`${file}: provided.${name}: no agents/${path}`);
    if (existsSync(join(starter, name))) throw new UserError(`${file}: provided.${name}: the starter has a file of that name too: keep one`);
  }
  return { ...parsed.data, course, starter };
}
