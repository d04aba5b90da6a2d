/**
 * What an arena needs to know of its course (`mancala arena start --course NAME`): the rules its
 * games are played by and the public suites an upload is checked on first (the cases `mancala
 * check` runs for a student of that course). cs540 is graded by matches, not by a suite: its
 * uploads go straight to the sanity stage.
 */
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import { PROJECT_ROOT } from '../sandbox/paths.ts';

export interface ArenaCourse {
  name: string;
  /** the Mancala rules profile of its games */
  rules: string;
  /** suite folders under testcases/ whose visible cases every upload runs first */
  suites: readonly string[];
}

export const ARENA_COURSES: readonly ArenaCourse[] = [
  { name: 'kalah', rules: 'kalah', suites: ['kalah-basics'] },
  { name: 'csc384', rules: 'csc384', suites: ['csc384-public'] },
  { name: 'cpsc4610', rules: 'cpsc4610', suites: ['cpsc4610-public'] },
  { name: 'csci561', rules: 'csci561', suites: ['csci561-public'] },
  { name: 'cs540', rules: 'cs540', suites: [] },
];

export function arenaCourse(name: string): ArenaCourse {
  const c = ARENA_COURSES.find((x) => x.name === name);
  if (c === undefined) throw new UserError(`--course ${name}: expected one of ${ARENA_COURSES.map((x) => x.name).join(', ')}`);
  return c;
}

export function suiteFolders(c: ArenaCourse): string[] {
  return c.suites.map((s) => join(PROJECT_ROOT, 'testcases', s));
}
