import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { addArenaCommand } from '../cli/commands/arena.ts';
import { UserError } from '../errors.ts';
import { Arena } from './arena.ts';
import { gradesFrom, readGradeRule } from './grade-rules.ts';
import { playerKey } from './store.ts';
import { DEFAULT_ANCHORS, type Standing } from './settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'grade-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const standing = (student: string | null, rating: number): Standing => ({ student, pseudonym: student ?? 'anchor', anchor: student === null, rating, sigma: 1, games: 10, submission: student === null ? null : 1, wins: 0, draws: 0, losses: 0 });

const RULE = `points: 100
anchors:
  - beat: greedy
    points: 60
  - beat: alphabeta:depth=4
    points: 20
rank:
  - top: 1
    points: 30
  - top: 2
    points: 10
`;

describe('grade rules', () => {
  it('gives points for each anchor rated below the student and the best rank bracket, capped at the maximum', () => {
    const rule = readGradeRule(file('rule.yaml', RULE), DEFAULT_ANCHORS);
    // best first, as arenaStandings gives them; anchors greedy 18, alphabeta:depth=4 26
    const standings = [standing('ada', 30), standing(null, 26), standing('bob', 20), standing('cy', 12)];
    const grades = gradesFrom(standings, DEFAULT_ANCHORS, rule, ['ada', 'bob', 'cy', 'dee']);
    expect(grades.map((g) => [g.student, g.score])).toEqual([
      ['ada', 100],
      ['bob', 70],
      ['cy', 0],
      ['dee', 0],
    ]);
    expect(grades[0]!.feedback).toBe('100 / 100: rating 30.0, place 1; rated above greedy (+60); rated above alphabeta:depth=4 (+20); place 1, in the top 1 (+30)');
    expect(grades[3]!.feedback).toMatch(/no submission in the ladder/);
  });

  it('refuses a bad rule file with one line naming the file and the field', () => {
    const bad = (text: string) => () => readGradeRule(file('bad.yaml', text), DEFAULT_ANCHORS);
    expect(bad('points: 100\nanchors:\n  - beat: strongest\n    points: 5\n')).toThrow(/bad\.yaml: anchors\.0\.beat: "strongest" is not one of this arena's anchors/);
    expect(bad('points: -1\n')).toThrow(/bad\.yaml: points: expected a number of points ≥ 0/);
    expect(bad('points: 10\nrank:\n  - top: 0\n    points: 1\n')).toThrow(/bad\.yaml: rank\.0\.top: expected a place ≥ 1/);
    expect(bad('points: [\n')).toThrow(UserError);
  });

  it('mancala arena grades DIR --rule FILE: a CSV of every student from the arena\'s own database', async () => {
    const root = join(dir, 'term');
    const arena = Arena.open(root, { course: 'kalah' });
    arena.addStudents([{ id: 'ada' }, { id: 'bob' }]);
    const sub = arena.store.addSubmission({ student: 'ada', folder: 'submissions/ada/1', contentHash: 'h' });
    arena.store.setSubmissionStatus(sub, 'ladder');
    arena.store.fixRating(playerKey({ submission: sub }), 27, 2);
    arena.close();
    let out = '';
    const io = { out: (t: string) => void (out += t), err: () => {} };
    const program = new Command('mancala').exitOverride();
    addArenaCommand(program, io);
    await program.parseAsync(['arena', 'grades', root, '--rule', file('rule.yaml', RULE)], { from: 'user' });
    expect(out.split('\r\n')).toEqual([
      'student,score,max_score,feedback',
      'ada,100,100,"100 / 100: rating 27.0, place 1; rated above greedy (+60); rated above alphabeta:depth=4 (+20); place 1, in the top 1 (+30)"',
      'bob,0,100,0 / 100: no submission in the ladder',
      '',
    ]);
  });

  it('mancala arena grades … --gradebook canvas --roster: Canvas\'s import with the roster\'s user ids; a student the roster lacks is left out and named', async () => {
    const root = join(dir, 'term-lms');
    const arena = Arena.open(root, { course: 'kalah' });
    arena.addStudents([{ id: 'ada', name: 'Ada Lovelace' }, { id: 'bob' }]);
    const sub = arena.store.addSubmission({ student: 'ada', folder: 'submissions/ada/1', contentHash: 'h' });
    arena.store.setSubmissionStatus(sub, 'ladder');
    arena.store.fixRating(playerKey({ submission: sub }), 27, 2);
    arena.close();
    const roster = file('canvas-roster.csv', 'Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n"Lovelace, Ada",ada,S1,alovelace,A\n');
    let out = '';
    let err = '';
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t) };
    const program = new Command('mancala').exitOverride();
    addArenaCommand(program, io);
    await program.parseAsync(['arena', 'grades', root, '--rule', file('rule.yaml', RULE), '--gradebook', 'canvas', '--roster', roster, '--assignment', 'Arena (777)'], { from: 'user' });
    expect(out.split('\r\n')).toEqual(['Student,ID,SIS User ID,SIS Login ID,Section,Arena (777)', '    Points Possible,,,,,100', '"Lovelace, Ada",ada,S1,alovelace,A,100', '']);
    expect(err).toContain('left out of the canvas import (no LMS id; give --roster): bob (no Canvas user ID)');
    await expect(program.parseAsync(['arena', 'grades', root, '--rule', file('rule.yaml', RULE), '--gradebook', 'sheets'], { from: 'user' })).rejects.toThrow(/--gradebook sheets: expected csv, canvas, moodle, blackboard/);
  });
});
