/**
 * Due dates and submission times as instants: ISO 8601 with a time zone (`2026-10-12T23:59:00-04:00`,
 * `2026-10-12T23:59Z`). A time without a zone is refused, since "23:59" on a shared grading machine
 * in another zone would move every deadline by hours.
 */
import { UserError } from '../../errors.ts';

const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export const INSTANT_EXAMPLE = '2026-10-12T23:59:00-04:00';

/** The instant `text` names, in ms since the epoch; undefined when it is not ISO 8601 with a time zone. */
export function parseInstant(text: string): number | undefined {
  const m = ISO_WITH_ZONE.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || (s !== undefined && !Number.isNaN(s) && s > 60)) return undefined;
  const ms = Date.parse(text.trim().replace(' ', 'T'));
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-31 over into March: a day the month lacks is a mistake, not a date.
  const zone = m[7]!.toUpperCase();
  const offsetMinutes = zone === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.replace(':', '').slice(3, 5)));
  const local = new Date(ms + offsetMinutes * 60_000);
  if (local.getUTCDate() !== d || local.getUTCMonth() + 1 !== mo) return undefined;
  return ms;
}

/** `parseInstant`, or a UserError naming `where` (a flag or a file's field) and the form expected. */
export function requireInstant(text: string, where: string): number {
  const ms = parseInstant(text);
  if (ms === undefined) {
    throw new UserError(`${where}: expected a date and time in ISO 8601 with a time zone, e.g. ${INSTANT_EXAMPLE} or 2026-10-13T03:59Z, got ${JSON.stringify(text)}`);
  }
  return ms;
}

/** An instant as ISO 8601 in UTC, to the second: what the reports write. */
export function isoInstant(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
