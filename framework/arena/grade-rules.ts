/**
 * Grades tied to the arena's standings by a rule file the instructor writes (YAML):
 *
 *     points: 100            # the most a student can get (the gradebook's points possible)
 *     anchors:               # points for a rating above an anchor's fixed rating
 *       - beat: greedy
 *         points: 60
 *       - beat: alphabeta:depth=4
 *         points: 20
 *     rank:                  # a bonus by place among the students (the best bracket a student is in)
 *       - top: 1
 *         points: 20
 *       - top: 5
 *         points: 10
 *
 * Beating an anchor counts the anchors' fixed ratings, so the points do not depend on classmates
 * alone; the rank bonus does, by design. A student's grade is the sum, at most `points`. Students
 * without a ladder submission get 0, with a line saying so.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { UserError } from '../errors.ts';
import type { Anchor, Standing } from './settings.ts';

const points = z.number({ error: 'expected a number of points ≥ 0' }).min(0, { error: 'expected a number of points ≥ 0' });
const ruleSchema = z.strictObject({
  points,
  anchors: z.array(z.strictObject({ beat: z.string({ error: 'expected an anchor, e.g. greedy' }), points }), { error: 'expected a list of {beat, points}' }).default([]),
  rank: z
    .array(z.strictObject({ top: z.number({ error: 'expected a place ≥ 1' }).int({ error: 'expected a whole place ≥ 1' }).min(1, { error: 'expected a place ≥ 1' }), points }), { error: 'expected a list of {top, points}' })
    .default([]),
});

export type GradeRule = z.infer<typeof ruleSchema>;

export interface StudentGrade {
  student: string;
  score: number;
  maxScore: number;
  /** one line a student may read: what earned the points */
  feedback: string;
}

/** The rule file, checked against the arena's anchors: every mistake one line naming the file and the field. */
export function readGradeRule(file: string, anchors: readonly Anchor[]): GradeRule {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`--rule ${file}: cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (e) {
    throw new UserError(`--rule ${file}: not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const r = ruleSchema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const at = issue.path.length === 0 ? 'the file' : issue.path.join('.');
    throw new UserError(`--rule ${file}: ${at}: ${issue.message}`);
  }
  for (const [k, a] of r.data.anchors.entries()) {
    if (!anchors.some((x) => x.spec === a.beat)) throw new UserError(`--rule ${file}: anchors.${k}.beat: ${JSON.stringify(a.beat)} is not one of this arena's anchors (${anchors.map((x) => x.spec).join(', ')})`);
  }
  return r.data;
}

/** Each student's grade from the standings (best first, as arenaStandings gives them) under `rule`. */
export function gradesFrom(standings: readonly Standing[], anchors: readonly Anchor[], rule: GradeRule, students: readonly string[]): StudentGrade[] {
  const ranked = standings.filter((s) => !s.anchor && s.student !== null);
  const place = new Map(ranked.map((s, k) => [s.student!, k + 1]));
  const ratingOf = new Map(ranked.map((s) => [s.student!, s.rating]));
  const fixed = new Map(anchors.map((a) => [a.spec, a.mu]));
  return students.map((student) => {
    const rating = ratingOf.get(student);
    if (rating === undefined) return { student, score: 0, maxScore: rule.points, feedback: `0 / ${rule.points}: no submission in the ladder` };
    const parts: string[] = [];
    let score = 0;
    for (const a of rule.anchors) {
      if (rating > fixed.get(a.beat)!) {
        score += a.points;
        parts.push(`rated above ${a.beat} (+${a.points})`);
      }
    }
    const p = place.get(student)!;
    const bracket = rule.rank.filter((b) => p <= b.top).sort((x, y) => y.points - x.points)[0];
    if (bracket !== undefined) {
      score += bracket.points;
      parts.push(`place ${p}, in the top ${bracket.top} (+${bracket.points})`);
    }
    const capped = Math.min(score, rule.points);
    return { student, score: capped, maxScore: rule.points, feedback: `${capped} / ${rule.points}: rating ${rating.toFixed(1)}, place ${p}${parts.length > 0 ? `; ${parts.join('; ')}` : ''}` };
  });
}
