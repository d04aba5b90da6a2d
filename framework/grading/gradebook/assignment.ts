/**
 * The assignment a gradebook's column is for (`--assignment`): its name as the LMS shows it and,
 * to update an existing column rather than add one, its id: `"Mancala 1 (12345)"` (Canvas's own
 * header form) or `"Mancala 1 |12345"` (Blackboard's). Without --assignment the suite's name.
 */
import { UserError } from '../../errors.ts';

export interface Assignment {
  name: string;
  id?: string;
}

export function parseAssignment(text: string | undefined, fallbackName: string): Assignment {
  if (text === undefined) return { name: fallbackName };
  const t = text.trim();
  const m = /^(.*?)\s*(?:\(([^()\s]+)\)|\|\s*([^|\s]+))$/.exec(t);
  const name = (m === null ? t : m[1]!).trim();
  if (name === '') throw new UserError(`--assignment ${JSON.stringify(text)}: expected the assignment's name, optionally with its LMS id: "Mancala 1 (12345)"`);
  if (/[\r\n]/.test(name)) throw new UserError('--assignment: expected a name on one line');
  const id = m?.[2] ?? m?.[3];
  return id === undefined ? { name } : { name, id };
}
