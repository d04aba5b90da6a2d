/**
 * What a submission folder holds, as inference needs it (build-plan.ts): the paths of its
 * files (hidden ones and version-control folders left out), whether each is executable, and the
 * text of Java and Python sources (for `package`, `main` and `__main__`). Bounded: a folder of
 * thousands of files is not a program's sources.
 *
 * The folder is the student's: nothing is followed. A link (to a file or a folder) or a special
 * file is no file of the listing, and every read opens with O_NOFOLLOW, checks for a regular file
 * and is capped (files/safe-read.ts): `mancala.yaml -> /dev/zero` is refused in one line.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '../../files/safe-read.ts';
import { studentName } from '../../student-text.ts';
import { isRegularFileIn, readSubmissionText } from '../../files/submission-entries.ts';
import { inferBuildPlan, MAKEFILES, MANIFEST_FILE, parseManifest, splitCommand, type BuildPlan, type SubmissionFile } from './build-plan.ts';
import { planFromRunLines, type CoursePlan, type RunLines } from './run-lines.ts';

const MAX_FILES = 2000;
const MAX_DEPTH = 6;
/** Folders looked into, at most: a million empty folders are not a program's sources either. */
const MAX_FOLDERS = 2000;
const MAX_TEXT_BYTES = 1024 * 1024;
/** The sources' text kept over all files, at most. */
const MAX_TOTAL_TEXT_BYTES = 16 * 1024 * 1024;
/** A manifest is a few lines: more is no manifest. */
export const MAX_MANIFEST_BYTES = 64 * 1024;

export function listSubmissionFiles(dir: string): SubmissionFile[] {
  const out: SubmissionFile[] = [];
  let folders = 0;
  let textBytes = 0;
  const walk = (rel: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch (e) {
      if (rel === '') throw e;
      return; // a folder of the submission that cannot be read holds no file of the listing
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_FILES || entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      // A directory entry's type is the name's own (a link is a link): links and special files are left out.
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && folders++ < MAX_FOLDERS) walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      const info = lstatSync(join(dir, path), { throwIfNoEntry: false });
      if (info === undefined || !info.isFile()) continue; // replaced while we looked
      const source = /\.(java|py)$/.test(entry.name) && info.size <= MAX_TEXT_BYTES && textBytes + info.size <= MAX_TOTAL_TEXT_BYTES;
      const read = source ? readRegularFileSync(join(dir, path), MAX_TEXT_BYTES, { root: dir, shown: path }) : undefined;
      if (read?.ok === true) textBytes += read.bytes.length;
      out.push({ path, executable: (info.mode & 0o111) !== 0, ...(read?.ok === true ? { text: read.bytes.toString('utf8') } : {}) });
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
  // A link, a FIFO, a device or a huge file is refused in one line naming mancala.yaml only.
  const read = readSubmissionText(dir, MANIFEST_FILE, MAX_MANIFEST_BYTES);
  if (!read.ok) return read.refusal === 'missing' ? undefined : { problem: read.message };
  const plan = parseManifest(read.text, MANIFEST_FILE);
  // A Makefile says how to build; the manifest need only say what to run.
  const makefile = MAKEFILES.find((name) => isRegularFileIn(dir, name));
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
  const plan = planFromFiles(dir, course);
  if (!('problem' in plan)) return plan;
  // The listing leaves links and special files out: a folder holding only `mancala3.py -> …` is not empty, its program was refused.
  const refused = refusedEntries(dir);
  if (refused.length === 0) return plan;
  const said = refused.map((r) => `${studentName(r.name)}: ${r.link ? 'a symbolic link (refused)' : 'not a regular file (refused)'}`).join(', ') + (refused.length === MAX_REFUSED_SHOWN ? ', …' : '');
  const empty = 'found nothing (the folder is empty)';
  return { problem: plan.problem.endsWith(empty) ? `${plan.problem.slice(0, -empty.length)}found only ${said}` : `${plan.problem}; ${said}` };
}

const MAX_REFUSED_SHOWN = 4;

/** The folder's own links and special files (not hidden ones), a few at most: what the listing left out. */
function refusedEntries(dir: string): { name: string; link: boolean }[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && !e.isFile() && !e.isDirectory())
    .map((e) => e.name)
    .sort()
    .slice(0, MAX_REFUSED_SHOWN)
    .map((name) => ({ name, link: entries.find((e) => e.name === name)!.isSymbolicLink() }));
}

function planFromFiles(dir: string, course?: CourseLines): BuildPlan | CoursePlan | (BuildPlan & { courseArgs: true }) | { problem: string } {
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
