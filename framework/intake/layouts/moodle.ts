/**
 * Moodle's "Download all submissions": a folder per student,
 * `<Full Name>_<participant id>_assignsubmission_file_/` (Moodle 3.1 and later, or when the
 * download keeps folders), or flat files `<Full Name>_<participant id>_assignsubmission_file_<file>`.
 * Under blind marking the name is `Participant`; a team submission's is `Group-<team>`. The
 * participant id is the assignment's, the same as the grading worksheet's `Participant <id>`.
 * Online text (`…_assignsubmission_onlinetext_`) is no code and is left out with a note.
 * https://docs.moodle.org/en/Assignment_settings#Download_all_submissions (and mod/assign/locallib.php)
 */
import { join } from 'node:path';
import { entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

const MOODLE_FOLDER = /^(.+)_(\d+)_assignsubmission_([a-z]+)_$/;
const MOODLE_FILE = /^(.+)_(\d+)_assignsubmission_([a-z]+)_(.+)$/;

export function isMoodleName(name: string, isFolder: boolean): boolean {
  return (isFolder ? MOODLE_FOLDER : MOODLE_FILE).test(name);
}

function who(name: string): Pick<FoundSubmission, 'name' | 'lms'> {
  if (name === 'Participant') return {};
  if (name.startsWith('Group-')) return { name: name.slice('Group-'.length), lms: { group: name.slice('Group-'.length) } };
  return { name };
}

export function readMoodle(dir: string, shown: string): LayoutRead {
  const byId = new Map<string, FoundSubmission>();
  const notes: string[] = [];
  const student = (name: string, id: string, source: string): FoundSubmission => {
    let s = byId.get(id);
    if (s === undefined) {
      const person = who(name);
      s = { idHint: id, ...person, lms: { ...person.lms, userId: id }, source, from: { files: [] }, notes: [] };
      byId.set(id, s);
    }
    return s;
  };
  for (const e of entriesOf(dir)) {
    const folder = e.isDirectory() ? MOODLE_FOLDER.exec(e.name) : null;
    const file = e.isFile() || e.isSymbolicLink() ? MOODLE_FILE.exec(e.name) : null;
    const m = folder ?? file;
    if (m === null) {
      notes.push(`${shown}/${e.name}: not named as Moodle names a student's submission (<Full Name>_<participant id>_assignsubmission_file_): left out`);
      continue;
    }
    const [, name, id, plugin] = m as unknown as [string, string, string, string];
    const s = student(name, id, `${shown}/${name}_${id}_assignsubmission_file_`);
    if (plugin !== 'file') {
      s.notes.push(`${e.name}: Moodle's ${plugin} submission, no file: left out`);
      continue;
    }
    if (folder !== null) s.from = { folder: join(dir, e.name) };
    else if ('files' in s.from) s.from.files.push({ path: join(dir, e.name), as: m[4]! });
  }
  return { submissions: [...byId.values()], notes };
}
