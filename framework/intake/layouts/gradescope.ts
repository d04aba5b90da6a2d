/**
 * Gradescope's "Export Submissions": `submission_metadata.yml` beside one `submission_<id>/`
 * folder per submission. The YAML is Ruby's, keyed by folder name, with symbol keys:
 * `:submitters:` (each `:name:`, `:sid:`, `:email:`), `:created_at:`, `:score:`, … A group
 * submission has several submitters: the first is the record's student, all are its members.
 * https://guides.gradescope.com/hc/en-us/articles/22066784117901-Grading-Online-Assignments ("Exporting Submission Data")
 */
import { join } from 'node:path';
import { parse } from 'yaml';
import { UserError } from '../../errors.ts';
import { readRegularTextSync } from '../../files/safe-read.ts';
import { entriesOf } from './junk.ts';
import type { FoundSubmission, LayoutRead } from './found.ts';

export const GRADESCOPE_METADATA = 'submission_metadata.yml';
const METADATA_BYTES = 16 * 1024 * 1024;

/** A field as Ruby's YAML writes it (`:name`) or plainly (`name`). */
function field(o: Record<string, unknown>, name: string): unknown {
  return o[`:${name}`] ?? o[name];
}

/** Ruby's `2024-01-15 23:58:03.123456000 -08:00` (or a Date) as ISO 8601. */
export function gradescopeTime(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (m === null) return undefined;
  const zone = m[4] === undefined ? '' : m[4] === 'UTC' || m[4] === 'Z' ? 'Z' : m[4].includes(':') ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
  const fraction = m[3] === undefined ? '' : m[3].slice(0, 4);
  return `${m[1]}T${m[2]}${fraction}${zone}`;
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (typeof v === 'number') return String(v);
  return undefined;
}

export function readGradescope(dir: string, shown: string): LayoutRead {
  const file = `${shown}/${GRADESCOPE_METADATA}`;
  const read = readRegularTextSync(join(dir, GRADESCOPE_METADATA), METADATA_BYTES, { shown: file });
  if (!read.ok) throw new UserError(read.message);
  let meta: unknown;
  try {
    meta = parse(read.text, { logLevel: 'silent', maxAliasCount: 100 });
  } catch (e) {
    throw new UserError(`${file}: not YAML (${(e as Error).message.split('\n')[0]})`);
  }
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new UserError(`${file}: expected a map of submission folders (submission_<id>: {:submitters: …})`);
  const submissions: FoundSubmission[] = [];
  const notes: string[] = [];
  const folders = new Set(entriesOf(dir).filter((e) => e.isDirectory()).map((e) => e.name));
  for (const [folder, value] of Object.entries(meta as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UserError(`${file}: ${folder}: expected its fields (:submitters:, :created_at:, …)`);
    const entry = value as Record<string, unknown>;
    const submitters = field(entry, 'submitters');
    if (!Array.isArray(submitters) || submitters.length === 0 || submitters.some((s) => s === null || typeof s !== 'object')) {
      throw new UserError(`${file}: ${folder}: :submitters: expected a list of students, each with :name:, :sid: and :email:`);
    }
    const members = (submitters as Record<string, unknown>[]).map((s) => {
      const name = text(field(s, 'name'));
      const email = text(field(s, 'email'));
      const id = text(field(s, 'sid'));
      return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}), ...(id !== undefined ? { id } : {}) };
    });
    const first = members[0]!;
    const created = field(entry, 'created_at');
    const submittedAt = gradescopeTime(created);
    if (created !== undefined && submittedAt === undefined) throw new UserError(`${file}: ${folder}: :created_at: expected a time such as 2024-01-15 23:58:03 -0800, got ${JSON.stringify(created)}`);
    if (!folders.has(folder)) {
      notes.push(`${file}: ${folder}: no such folder in the export: left out`);
      continue;
    }
    folders.delete(folder);
    const submissionId = /^submission_(\d+)$/.exec(folder)?.[1] ?? folder;
    submissions.push({
      idHint: first.id ?? first.email?.split('@')[0] ?? folder,
      ...(first.name !== undefined ? { name: first.name } : {}),
      ...(first.email !== undefined ? { email: first.email } : {}),
      lms: { submissionId, ...(first.id !== undefined ? { userId: first.id } : {}), ...(members.length > 1 ? { group: members.map((m) => m.name ?? m.id ?? '?').join(', ') } : {}) },
      ...(members.length > 1 ? { members } : {}),
      ...(submittedAt !== undefined ? { submittedAt } : {}),
      source: `${shown}/${folder}`,
      from: { folder: join(dir, folder) },
      notes: [],
    });
  }
  for (const left of folders) notes.push(`${shown}/${left}: not in ${GRADESCOPE_METADATA}: left out`);
  return { submissions, notes };
}
