/**
 * What a submission folder holds, as inference needs it (build-plan.ts): the paths of its
 * files (hidden ones and version-control folders left out), whether each is executable, and the
 * text of Java and Python sources (for `package`, `main` and `__main__`). Bounded: a folder of
 * thousands of files is not a program's sources.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inferBuildPlan, MAKEFILES, MANIFEST_FILE, parseManifest, splitCommand, type BuildPlan, type SubmissionFile } from './build-plan.ts';
import { planFromRunLines, type CoursePlan, type RunLines } from './run-lines.ts';

const MAX_FILES = 2000;
const MAX_DEPTH = 6;
const MAX_TEXT_BYTES = 1024 * 1024;

export function listSubmissionFiles(dir: string): SubmissionFile[] {
  const out: SubmissionFile[] = [];
  const walk = (rel: string, depth: number) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_FILES || entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      const info = statSync(join(dir, path));
      const source = /\.(java|py)$/.test(entry.name) && info.size <= MAX_TEXT_BYTES;
      out.push({ path, executable: (info.mode & 0o111) !== 0, ...(source ? { text: readFileSync(join(dir, path), 'utf8') } : {}) });
    }
  };
  walk('', 0);
  return out;
}

/**
 * The plan `dir`'s manifest (mancala.yaml) gives, a Makefile's `make` as its build when it names
 * none; undefined when the folder has no manifest. Read the same way for a file-in/file-out
 * program and for an agent over stdio (`protocol:`).
 */
export function readManifest(dir: string): BuildPlan | { problem: string } | undefined {
  const manifest = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(manifest, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `${manifest}: cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  const plan = parseManifest(text, MANIFEST_FILE);
  // A Makefile says how to build; the manifest need only say what to run.
  const makefile = MAKEFILES.find((name) => existsSync(join(dir, name)));
  if ('problem' in plan || plan.build !== undefined || makefile === undefined) return plan;
  return { ...plan, build: 'make', why: `${plan.why} (build: make, for its ${makefile})` };
}

/** The course whose run lines apply to a folder, and the arguments of this run (none: the course's own). */
export interface CourseLines {
  lines: RunLines;
  args?: string;
}

/**
 * The plan of a folder without a `command` file: its manifest's, else the course's line for the
 * file it holds (run-lines.ts), else one inferred from its files, run with the course's arguments.
 */
export function planFromFolder(dir: string, course?: CourseLines): BuildPlan | CoursePlan | (BuildPlan & { courseArgs: true }) | { problem: string } {
  const manifest = readManifest(dir);
  if (manifest !== undefined) return manifest;
  let files: SubmissionFile[];
  try {
    files = listSubmissionFiles(dir);
  } catch (e) {
    return { problem: `cannot list the folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  if (course === undefined) return inferBuildPlan(files);
  const planned = planFromRunLines(course.lines, files, course.args);
  if (planned !== undefined) return planned;
  const inferred = inferBuildPlan(files);
  const args = (course.args ?? course.lines.args).trim();
  if ('problem' in inferred || inferred.protocol !== undefined || args === '') return inferred;
  // Not a file name the course named, but the course still ran every program with its arguments.
  const words = splitCommand(args) ?? [];
  return { ...inferred, run: [...inferred.run, ...words], courseArgs: true, why: `${inferred.why}, with ${course.lines.course}'s arguments \`${args}\` (none of its file names: ${course.lines.programs.map((p) => p.file).join(', ')})` };
}
