/**
 * A class's console report at class scale: what went wrong, said once however often it happened.
 *
 *  - a submission's failed cases grouped by their reason (status and first line, numbers aside:
 *    "move: expected B3 …, got B1 …" is one reason in every case it fails), most cases first, so
 *    the leading one is one line with its count ("× 66 cases");
 *  - the likely bugs the graders named grouped by the bug (the mistake the variant makes, numbers
 *    aside: "depth 3 instead of 4, the depth off by one" and "depth 5 instead of 6, …" are one
 *    off-by-one), so one mistake is one diagnosis with the cases it explains;
 *  - the leading reason many submissions share, for one line for the class.
 *
 * Everything is read from the report (JSON, HTML and --verbose keep every case's whole message).
 */
import type { CaseReport, SubmissionReport } from '../report.ts';
import { DIAGNOSIS_PREFIX, type CaseStatus } from '../types.ts';
import { firstLine, oneLine, plainText } from './text.ts';

/** Numbers and quoted values aside: two messages that differ only there say the same thing. */
function shape(text: string): string {
  return text.replace(/\d+(?:[.,]\d+)*/g, '#').replace(/"[^"]*"/g, '"…"');
}

export interface ReasonGroup {
  status: CaseStatus;
  /** the first line of its first case's message */
  text: string;
  /** true when every case of the group says exactly `text` */
  same: boolean;
  /** the cases, in report order */
  ids: string[];
}

/** The submission's cases that did not pass, by reason: most cases first, then in report order. */
export function reasonGroups(cases: readonly CaseReport[]): ReasonGroup[] {
  const groups = new Map<string, ReasonGroup>();
  for (const c of cases) {
    if (c.status === 'passed') continue;
    const text = firstLine(c.message);
    const key = `${c.status}\u0000${shape(text)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { status: c.status, text, same: true, ids: [oneLine(c.id)] });
    else {
      group.ids.push(oneLine(c.id));
      if (group.text !== text) group.same = false;
    }
  }
  // A stable sort: equal counts keep the report's order.
  return [...groups.values()].sort((a, b) => b.ids.length - a.ids.length);
}

/** What a reason says, at most `width` characters: the rest is in the reports. */
export function clipped(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1).trimEnd()}…`;
}

/** "× 66 cases: no agent found …", or for one case "(move-02): move: expected …". Differing numbers: "e.g. move-02: …". */
export function reasonPhrase(group: ReasonGroup, width: number): string {
  const text = clipped(group.text, width);
  if (group.ids.length === 1) return `${group.status} (${group.ids[0]}): ${text}`;
  return group.same ? `${group.status} × ${group.ids.length} cases: ${text}` : `${group.status} × ${group.ids.length} cases, e.g. ${group.ids[0]}: ${text}`;
}

/** A reason's identity across submissions: the same status and words, numbers aside. */
export function reasonKey(group: Pick<ReasonGroup, 'status' | 'text'>): string {
  return `${group.status}\u0000${shape(group.text)}`;
}

export interface SharedReason {
  /** the leading reason's words, as the first submission that has it says them */
  status: CaseStatus;
  text: string;
  /** the submissions whose leading reason it is */
  ids: string[];
}

/** `text` with the submission's path (as given, or without its last slash) as "<submission>". */
function withoutOwnPath(text: string, s: Pick<SubmissionReport, 'path'>): string {
  const own = [oneLine(s.path), oneLine(s.path).replace(/\/+$/, '')].filter((x) => x.length >= 2);
  for (const name of own) if (text.includes(name)) return text.split(name).join('<submission>');
  return text;
}

/**
 * Leading reasons that at least `min` graded submissions share (the starter handed in as it was,
 * an empty folder, one missing file), most submissions first: one line for the class each.
 */
export function sharedReasons(submissions: readonly SubmissionReport[], min = 2): SharedReason[] {
  const byKey = new Map<string, SharedReason>();
  for (const s of submissions) {
    if (s.notGraded !== undefined) continue;
    const lead = reasonGroups(s.cases)[0];
    if (lead === undefined) continue;
    // A message naming the submission's own folder says the same thing of every student's.
    const text = withoutOwnPath(lead.text, s);
    const key = reasonKey({ status: lead.status, text });
    const shared = byKey.get(key) ?? { status: lead.status, text, ids: [] };
    shared.ids.push(oneLine(s.id));
    byKey.set(key, shared);
  }
  return [...byKey.values()].filter((r) => r.ids.length >= min).sort((a, b) => b.ids.length - a.ids.length);
}

/** The "likely bug: …" lines of a text (a message or an information line), without the prefix, not the first line. */
function diagnosesIn(text: string): string[] {
  const lines = plainText(text)
    .split('\n')
    .map((l) => oneLine(l).trim())
    .filter((l) => l !== '');
  return lines
    .slice(1)
    .filter((l) => l.startsWith(DIAGNOSIS_PREFIX))
    .map((l) => l.slice(DIAGNOSIS_PREFIX.length));
}

/**
 * The mistake a diagnosis names, numbers aside: the variant's words between "the reference with"
 * and what it agrees on ("(same move, value and node count)", "(which visits …)"). A diagnosis in
 * another shape is its own family.
 */
export function diagnosisFamily(diagnosis: string): string {
  const m = /the reference with (.+?) \((?:same |which visits )/.exec(diagnosis);
  const kind = diagnosis.startsWith('Your move and value match') ? 'partial' : 'full';
  return m === null ? `text\u0000${diagnosis}` : `${kind}\u0000${shape(m[1]!)}`;
}

export interface DiagnosisFamily {
  /** the diagnosis most of its cases give (the first such, in report order) */
  text: string;
  /** true when every case gives exactly `text` */
  same: boolean;
  /** the cases it explains, in report order */
  ids: string[];
}

/**
 * The likely bugs named in `cases` (in their failed messages, or with `fromInfo` in their
 * information lines), one family each, in the order first named.
 */
export function diagnosisFamilies(cases: readonly CaseReport[], fromInfo: boolean): DiagnosisFamily[] {
  const families = new Map<string, { texts: Map<string, number>; order: string[]; ids: string[] }>();
  for (const c of cases) {
    // Only a grader's verdict names a bug: an error's message is the student's program talking.
    const texts = fromInfo ? (c.info ?? []).flatMap(diagnosesIn) : c.status === 'failed' ? diagnosesIn(c.message) : [];
    for (const text of texts) {
      const key = diagnosisFamily(text);
      const family = families.get(key) ?? { texts: new Map<string, number>(), order: [], ids: [] };
      if (!family.texts.has(text)) family.order.push(text);
      family.texts.set(text, (family.texts.get(text) ?? 0) + 1);
      const id = oneLine(c.id);
      if (!family.ids.includes(id)) family.ids.push(id);
      families.set(key, family);
    }
  }
  return [...families.values()].map((f) => {
    const most = Math.max(...f.texts.values());
    const text = f.order.find((t) => f.texts.get(t) === most)!;
    return { text, same: f.texts.size === 1, ids: f.ids };
  });
}

/** CPU time charged to the submission's cases, for people: "0.6 s", "12 s", "3.4 min". */
export function cpuTime(s: SubmissionReport): string {
  const ms = s.cases.reduce((total, c) => total + c.ms, 0);
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
