import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GradeReport } from '../report.ts';
import { csvText, toCsv } from './csv.ts';
import { sampleReport } from '../../../testcases/fixtures/grade-report.ts';

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes; anything else throws. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
            } else {
              i++;
              break;
            }
          } else field += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
          field += text[i++];
        }
      }
      row.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`expected "," or CRLF at ${i}, got ${JSON.stringify(text[i])}`);
    }
    rows.push(row);
  }
  return rows;
}

describe('toCsv', () => {
  const report = sampleReport();
  const rows = readCsv(toCsv(report));

  it('has a header of fixed columns, the categories in suite order, then the status counts', () => {
    expect(rows[0]).toEqual(['id', 'path', 'score', 'max_score', 'move', 'nodes', 'playoff', 'passed', 'failed', 'error', 'timeout', 'memory', 'output-limit']);
  });

  it('has one row per submission: scores, points per category, counts per status', () => {
    expect(rows.length).toBe(1 + report.submissions.length);
    expect(rows[1]).toEqual(['alice', 'submissions/alice', '2.3', '15', '2', '0.3', '0', '1', '2', '1', '1', '1', '0']);
    expect(rows[3]).toEqual(['bob', 'submissions/bob', '15', '15', '4', '4', '7', '6', '0', '0', '0', '0', '0']);
  });

  it('quotes commas and quotes (RFC 4180), shows a newline in a folder name, and leaves no category cell for what was not graded', () => {
    // A newline in a folder name would fake a row on a terminal: shown as \x0a (student-text.ts), like any control character.
    expect(rows[2]).toEqual(['\'=HYPERLINK("http://evil.example","click")', 'submissions/a, "b"\\x0ac', '4', '15', '4', '', '', '2', '0', '0', '0', '0', '0']);
    const text = toCsv(report);
    expect(text).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")","submissions/a, ""b""\\x0ac",4,15,');
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('renames a category that clashes with a fixed column, and keeps the order stable', () => {
    const clash: GradeReport = {
      ...report,
      submissions: [
        {
          ...report.submissions[2]!,
          cases: [
            { ...report.submissions[2]!.cases[0]!, category: 'score' },
            { ...report.submissions[2]!.cases[1]!, category: 'category score' },
            { ...report.submissions[2]!.cases[2]!, category: '=sum' },
          ],
        },
      ],
    };
    const [header, row] = readCsv(toCsv(clash));
    expect(header!.slice(4, 7)).toEqual(['category score', 'category category score', "'=sum"]);
    expect(row!.slice(4, 7)).toEqual(['2', '2', '2']);
    expect(toCsv(clash)).toBe(toCsv(structuredClone(clash)));
  });
});

describe('csvText', () => {
  it('guards every cell a spreadsheet would take for a formula', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvText(`${lead}1+1`).replace(/^"/, '')[0]).toBe("'");
    expect(csvText('alice')).toBe('alice');
    expect(csvText('a=b')).toBe('a=b');
  });

  it('round-trips any string through a strict RFC 4180 reader (after the formula guard)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), (cells) => {
        const [row] = readCsv(`${cells.map(csvText).join(',')}\r\n`);
        const expected = cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c));
        expect(row).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
