/**
 * GitHub Classroom: one repository per student or team, cloned side by side (the GitHub Classroom
 * Assistant, or `gh classroom clone student-repos`), each folder named `<assignment>-<github login>`
 * with its `.git` inside. The login is the name after the prefix every folder shares.
 * https://docs.github.com/en/education/manage-coursework-with-github-classroom/teach-with-github-classroom/using-github-classroom-with-github-cli
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { besideNotes, classEntries, isClassOfFolders } from './junk.ts';
import type { LayoutRead } from './found.ts';

/** Every folder is a clone (holds .git), and beside them only links (refused) and fewer stray files than clones. */
export function isGithubClassroom(dir: string): boolean {
  return isClassOfFolders(classEntries(dir), (e) => existsSync(join(dir, e.name, '.git')));
}

/** The `<assignment>-` every name starts with (the longest such prefix ending in '-'), or ''. */
export function sharedPrefix(names: readonly string[]): string {
  if (names.length < 2) return '';
  let prefix = names[0]!;
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.lastIndexOf('-');
  return cut < 0 ? '' : prefix.slice(0, cut + 1);
}

export function readGithubClassroom(dir: string, shown: string): LayoutRead {
  const c = classEntries(dir);
  const names = c.folders.map((e) => e.name);
  const prefix = sharedPrefix(names);
  return {
    submissions: names.map((name) => {
      const login = name.slice(prefix.length) || name;
      return { idHint: login, lms: { login }, source: `${shown}/${name}`, from: { folder: join(dir, name) }, notes: [] };
    }),
    notes: besideNotes(c, shown),
  };
}
