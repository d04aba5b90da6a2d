/**
 * Each LMS's import file against its documented format (docs/gradebooks.md cites the pages):
 * the header exactly, Canvas's Points Possible row, names with commas and quotes quoted, the ids
 * from the export and roster, rows the LMS cannot match left out and named, late penalties applied
 * with the raw score in its own column where the format has one. The samples under
 * docs/gradebooks/ are what the writers make of the sample class (UPDATE_GRADEBOOK_SAMPLES=1
 * rewrites them), so the docs cannot drift from the code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { toCsv } from '../reporters/csv.ts';
import { sampleClass } from '../../../testcases/fixtures/gradebook-sample-class.ts';
import { parseAssignment } from './assignment.ts';
import { GRADEBOOK_KINDS, renderGradebook } from './formats.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { report, students } = sampleClass();
const lines = (text: string) => text.split('\r\n');

describe('--assignment', () => {
  it('a name, with the LMS id in Canvas\'s or Blackboard\'s form', () => {
    expect(parseAssignment('Mancala 1 (12345)', 'x')).toEqual({ name: 'Mancala 1', id: '12345' });
    expect(parseAssignment('Mancala 1 |123456', 'x')).toEqual({ name: 'Mancala 1', id: '123456' });
    expect(parseAssignment('Mancala, part 1', 'x')).toEqual({ name: 'Mancala, part 1' });
    expect(parseAssignment(undefined, 'Kalah basics')).toEqual({ name: 'Kalah basics' });
    expect(() => parseAssignment(' (12)', 'x')).toThrow(UserError);
  });
});

describe('the late policy in the sample class', () => {
  it('is applied: on time, 1 day 9 h late (2 days at 10%), 1 h late (1 day)', () => {
    expect(report.submissions.map((s) => [s.id, s.score, s.late!.score])).toEqual([
      ['1001', 100, 100],
      ['1002', 80, 64],
      ['1003', 62.5, 56.25],
      ['walk-in', 90, 90],
    ]);
  });
});

describe('canvas', () => {
  const book = renderGradebook('canvas', report, parseAssignment('Mancala 1 (12345)', ''), students);
  it('its header, the Points Possible row, one row per student Canvas can match, the adjusted score', () => {
    const l = lines(book.text);
    expect(l[0]).toBe('Student,ID,SIS User ID,SIS Login ID,Section,Mancala 1 (12345)');
    expect(l[1]).toBe('    Points Possible,,,,,100');
    expect(l[2]).toBe('"Lovelace, Ada",1001,S0001,alovelace,CS 101 - A,100');
    expect(l[3]).toBe('"Hopper, Grace ""Amazing""",1002,S0002,ghopper,CS 101 - B,64');
    expect(l[4]).toBe('"Turing, Alan",1003,,aturing,CS 101 - A,56.25');
    expect(l.slice(5)).toEqual(['']);
    expect(book.left).toEqual(['walk-in (no Canvas user ID)']);
  });
  it('without an assignment id, says Canvas will make a new assignment', () => {
    const plain = renderGradebook('canvas', report, parseAssignment('Mancala 1', ''), students);
    expect(lines(plain.text)[0]).toBe('Student,ID,SIS User ID,SIS Login ID,Section,Mancala 1');
    expect(plain.notes[0]).toMatch(/^Canvas will make a new assignment named "Mancala 1"/);
  });
});

describe('moodle', () => {
  it('identifier columns to map (email, ID number, username), the grade, its feedback, the raw score', () => {
    const book = renderGradebook('moodle', report, parseAssignment('Mancala 1', ''), students);
    const l = lines(book.text);
    expect(l[0]).toBe('Email address,ID number,Username,Full name,Mancala 1,Feedback,Raw score,Lateness');
    expect(l[1]).toBe('ada@example.edu,20260001,alovelace,"Lovelace, Ada",100,100 / 100 on Mancala 1; late policy: on time: 100 / 100,100,on time');
    expect(l[2]).toMatch(/^grace@example\.edu,20260002,ghopper,"Hopper, Grace ""Amazing""",64,"64 \/ 100 on Mancala 1; late policy: 1 day 9 h after the due date, 2 days charged at 10% a day: −16: 80 → 64 \/ 100",80,1 day 9 h late$/);
    expect(book.left).toEqual(['walk-in (no email, ID number or username)']);
  });
});

describe('blackboard', () => {
  it('every field quoted, the column "<name> [Total Pts: N Score] |<id>", matched by username', () => {
    const book = renderGradebook('blackboard', report, parseAssignment('Mancala 1 |123456', ''), students);
    const l = lines(book.text);
    expect(l[0]).toBe('"Last Name","First Name","Username","Student ID","Mancala 1 [Total Pts: 100 Score] |123456"');
    expect(l[1]).toBe('"Lovelace","Ada","alovelace","S0001","100"');
    expect(l[2]).toBe('"Hopper","Grace ""Amazing""","ghopper","S0002","64"');
    expect(book.left).toEqual(['walk-in (no Blackboard username)']);
  });
  it('refuses to write a column Blackboard would add as a new text column', () => {
    expect(() => renderGradebook('blackboard', report, parseAssignment('Mancala 1', ''), students)).toThrow(/needs the Grade Center column's id/);
  });
});

describe('csv', () => {
  it('is --csv, with the late columns and the raw score kept in `score`', () => {
    const book = renderGradebook('csv', report, parseAssignment(undefined, 'Mancala 1'), students);
    expect(book.text).toBe(toCsv(report));
    const l = lines(book.text);
    expect(l[0]).toBe('id,path,score,max_score,search values,node counts,passed,failed,error,timeout,memory,output-limit,submitted_at,minutes_late,grace_days_spent,penalty,adjusted_score');
    expect(l[2]).toBe('1002,snapshots/1002,80,100,50,30,1,1,0,0,0,0,2026-10-14T13:30:00Z,2011,0,16,64');
  });
});

describe('a submission the machine could not grade', () => {
  it('gets an empty cell, not a zero, and its feedback says why', () => {
    const { report: r, students: st } = sampleClass();
    r.submissions[0]!.notGraded = 'no Python 2.7 on this machine';
    delete r.submissions[0]!.late;
    expect(lines(renderGradebook('canvas', r, parseAssignment('Mancala 1 (12345)', ''), st).text)[2]).toBe('"Lovelace, Ada",1001,S0001,alovelace,CS 101 - A,');
    expect(lines(renderGradebook('moodle', r, parseAssignment('Mancala 1', ''), st).text)[1]).toBe('ada@example.edu,20260001,alovelace,"Lovelace, Ada",,not graded: no Python 2.7 on this machine,,');
  });
});

describe('the samples in docs/gradebooks/ are what the writers make of the sample class', () => {
  const samples = { canvas: 'Mancala 1 (12345)', moodle: 'Mancala 1', blackboard: 'Mancala 1 |123456', csv: undefined } as const;
  it.each(GRADEBOOK_KINDS)('%s', (kind) => {
    const file = join(root, 'docs/gradebooks', `${kind}-import.csv`);
    const text = renderGradebook(kind, report, parseAssignment(samples[kind], 'Mancala 1'), students).text;
    if (process.env.UPDATE_GRADEBOOK_SAMPLES === '1') writeFileSync(file, text);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
