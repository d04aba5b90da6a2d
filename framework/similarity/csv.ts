/**
 * The similarity report as CSV: a header row, then one row a pair in the report's order
 * (strongest signal first), CRLF line ends, text cells guarded and quoted as the gradebook's are.
 * Empty cells are "not compared" (null in the JSON).
 */
import { csvText } from '../grading/reporters/csv.ts';
import type { SimilarityReport } from './report.ts';

const HEADER = ['rank', 'a', 'b', 'signal', 'source', 'behaviour', 'same_value', 'same_nodes', 'expected_agreement', 'longest_fragment', 'fragments', 'note'];

const number = (x: number | null) => (x === null ? '' : String(x));

export function similarityCsv(report: SimilarityReport): string {
  const rows = report.pairs.map((p, k) =>
    [
      String(k + 1),
      csvText(p.a),
      csvText(p.b),
      number(p.signal),
      number(p.source),
      number(p.behaviour),
      number(p.sameValue),
      number(p.sameNodes),
      csvText(p.expectedAgreement ?? ''),
      number(p.longest),
      String(p.fragments.length),
      csvText(p.note ?? ''),
    ].join(','),
  );
  return [HEADER.join(','), ...rows].map((r) => `${r}\r\n`).join('');
}
