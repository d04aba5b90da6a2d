/**
 * Which layout an export folder is in, told by what it holds: Gradescope's metadata file, then
 * the names Canvas, Moodle and Blackboard give files, then clones side by side (GitHub Classroom),
 * then a folder per student; anything else is one submission.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LayoutKind } from '../submission.ts';
import { readBlackboard, isBlackboardName } from './blackboard.ts';
import { isCanvasName, readCanvas } from './canvas.ts';
import { isFolderPerStudent, readFolderPerStudent } from './folders.ts';
import type { LayoutReader } from './found.ts';
import { isGithubClassroom, readGithubClassroom } from './github-classroom.ts';
import { GRADESCOPE_METADATA, readGradescope } from './gradescope.ts';
import { entriesOf } from './junk.ts';
import { isMoodleName, readMoodle } from './moodle.ts';

export const LAYOUT_READERS: Record<Exclude<LayoutKind, 'single'>, LayoutReader> = {
  gradescope: readGradescope,
  canvas: readCanvas,
  moodle: readMoodle,
  blackboard: readBlackboard,
  'github-classroom': readGithubClassroom,
  folders: readFolderPerStudent,
};

/** The LMS's own name for each layout, for messages. */
export const LAYOUT_NAMES: Record<LayoutKind, string> = {
  canvas: 'Canvas "Download Submissions"',
  moodle: 'Moodle "Download all submissions"',
  blackboard: 'Blackboard "Assignment File Download"',
  gradescope: 'Gradescope "Export Submissions"',
  'github-classroom': 'GitHub Classroom repositories',
  folders: 'a folder per student',
  single: 'one submission',
};

/** The layout of the export folder `dir` (wrapper folders already looked through). */
export function detectLayout(dir: string): LayoutKind {
  if (existsSync(join(dir, GRADESCOPE_METADATA))) return 'gradescope';
  const entries = entriesOf(dir);
  if (entries.length === 0) return 'single';
  // Most of what is there named as the LMS names it: one stray file (a README the instructor added) does not hide an export.
  const most = (test: (name: string, isFolder: boolean) => boolean) => {
    const n = entries.filter((e) => test(e.name, e.isDirectory())).length;
    return n > 0 && n * 2 > entries.length;
  };
  if (most((name, isFolder) => !isFolder && isCanvasName(name))) return 'canvas';
  if (most((name, isFolder) => isMoodleName(name, isFolder))) return 'moodle';
  if (most((name, isFolder) => !isFolder && isBlackboardName(name))) return 'blackboard';
  if (isGithubClassroom(dir)) return 'github-classroom';
  if (isFolderPerStudent(dir)) return 'folders';
  return 'single';
}
