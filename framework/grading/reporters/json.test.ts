import { describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import type { GradeReport } from '../report.ts';
import { gradeReportSchema, parseReport, toJson } from './json.ts';
import { NASTY_MESSAGE, sampleReport } from '../../../testcases/fixtures/grade-report.ts';

function userError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('toJson', () => {
  it('writes 2-space indented JSON with a trailing newline, keys in report.ts order', () => {
    const text = toJson(sampleReport());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "version": 1,');
    const data = JSON.parse(text);
    expect(Object.keys(data)).toEqual(['version', 'suite', 'isolation', 'submissions']);
    expect(Object.keys(data.isolation)).toEqual(['network', 'note']);
    expect(Object.keys(data.submissions[0])).toEqual(['id', 'path', 'score', 'maxScore', 'cases', 'notes']);
    expect(Object.keys(data.submissions[0].cases[0])).toEqual([
      'id', 'category', 'status', 'score', 'maxScore', 'message', 'ms', 'nodes', 'visibility', 'description',
    ]);
    expect(Object.keys(data.submissions[0].cases[1])).toEqual([
      'id', 'category', 'status', 'score', 'maxScore', 'message', 'ms', 'nodes', 'visibility', 'checks',
    ]);
    expect(Object.keys(data.submissions[0].cases[1].checks[0])).toEqual(['check', 'passed', 'message']);
  });

  it('rounds scores to 1e-6 and ms to 0.1', () => {
    const data = JSON.parse(toJson(sampleReport()));
    expect(data.submissions[0].score).toBe(2.3); // 0.1 + 0.2 + 2 = 2.3000000000000003
    expect(data.submissions[0].cases[3].score).toBe(0.3);
    expect(data.submissions[0].cases[0].ms).toBe(12.3);
    expect(data.submissions[0].cases[3].ms).toBe(1013);
    expect(data.submissions[0].cases[2].ms).toBe(3.1);
    const r = sampleReport();
    r.submissions[0]!.cases[0]!.score = 1 / 3;
    expect(JSON.parse(toJson(r)).submissions[0].cases[0].score).toBe(0.333333);
  });

  it('does not depend on the key order or the extra fields of the objects it is given', () => {
    const r = sampleReport();
    const shuffled = JSON.parse(JSON.stringify(r), (_k, v) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
    ) as GradeReport;
    (shuffled.submissions[0] as unknown as Record<string, unknown>).internal = 'not part of the schema';
    expect(toJson(shuffled)).toBe(toJson(r));
  });

  it('round-trips through parseReport, messages byte for byte', () => {
    const text = toJson(sampleReport());
    const back = parseReport(text, 'report.json');
    expect(back.submissions[0]!.cases[2]!.message).toBe(NASTY_MESSAGE);
    expect(toJson(back)).toBe(text);
    expect(gradeReportSchema.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it("writes the run's notes after the isolation, only when there are some, and reads them back", () => {
    expect(JSON.parse(toJson(sampleReport()))).not.toHaveProperty('notes');
    expect(JSON.parse(toJson({ ...sampleReport(), notes: [] }))).not.toHaveProperty('notes');
    const r = { ...sampleReport(), notes: ['limits overridden for this run', 'WARNING: all 2 python3 submissions failed'] };
    const text = toJson(r);
    expect(Object.keys(JSON.parse(text))).toEqual(['version', 'suite', 'isolation', 'notes', 'submissions']);
    expect(parseReport(text, 'r.json').notes).toEqual(r.notes);
    const data = JSON.parse(text);
    data.notes = ['fine', 3];
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe('r.json: field "notes[1]": expected a note (a string), got 3');
  });

  it('refuses a non-finite number, naming the field (a grader bug, not a null in the file)', () => {
    const r = sampleReport();
    r.submissions[1]!.cases[0]!.maxScore = Number.NaN;
    expect(() => toJson(r)).toThrow('submissions[1].cases[0].maxScore is NaN');
  });
});

describe('parseReport', () => {
  const good = () => JSON.parse(toJson(sampleReport()));

  it('reads a BOM-prefixed file', () => {
    expect(parseReport(`\uFEFF${toJson(sampleReport())}`, 'r.json').suite).toBe('kalah-basics');
  });

  it('names the file and the line of a JSON syntax error', () => {
    const message = userError(() => parseReport('{\n  "version": 1,\n  "suite": "x",\n}', 'out/report.json'));
    expect(message).toBe('out/report.json:4: expected a JSON grade report (Expected double-quoted property name)');
    expect(userError(() => parseReport('', 'r.json'))).toBe('r.json: expected a JSON grade report (Unexpected end of JSON input)');
    // V8 quotes the bad character and the text around it ("Unexpected token 'p', "pass: x" is not valid JSON"): neither is shown.
    expect(userError(() => parseReport('pass: hunter2', 'r.json'))).toBe('r.json: expected a JSON grade report (Unexpected character)');
  });

  it('names the file, the field and the value of a wrong status', () => {
    const data = good();
    data.submissions[0].cases[2].status = 'crashed';
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe(
      'r.json: field "submissions[0].cases[2].status": expected one of passed, failed, error, timeout, memory, output-limit, got "crashed"',
    );
  });

  it('names a missing field, an unknown field, a wrong type and a wrong version', () => {
    let data = good();
    delete data.submissions[1].maxScore;
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe(
      'r.json: field "submissions[1].maxScore": expected points (a finite number ≥ 0), but it is missing',
    );
    data = good();
    data.submissions[0].cases[0].scor = 1;
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe('r.json: field "submissions[0].cases[0].scor": unknown field');
    data = good();
    data.submissions[0].cases[0].nodes = 1.5;
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe(
      'r.json: field "submissions[0].cases[0].nodes": expected a whole number ≥ 0 or null, got 1.5',
    );
    data = good();
    data.version = 2;
    expect(userError(() => parseReport(JSON.stringify(data), 'r.json'))).toBe(
      'r.json: field "version": expected 1 (the only report version this tool reads), got 2',
    );
    expect(userError(() => parseReport('[]', 'r.json'))).toBe(
      'r.json: expected a grade report object {"version", "suite", "isolation", "submissions"}, got an empty list',
    );
  });
});
