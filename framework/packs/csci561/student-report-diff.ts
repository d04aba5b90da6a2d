/**
 * A unified line diff (as `diff -u` prints it) of a student's file against the expected one, for
 * the reports students read (student-report.ts). Lines are compared by a rule the caller gives
 * (the course's: surrounding white space ignored), so that the diff shows only what fails.
 *
 * The edit script is Myers' O((N+M)D) algorithm on what lies between the common head and tail;
 * past MAX_EDITS differences (two unrelated files) the middle is shown as removed, then added:
 * still a correct diff, only not the shortest.
 */

/** One line of the edit script: kept (`a` and `b` both), removed from `a`, or added from `b`. */
export type Edit = { op: 'same'; a: number; b: number } | { op: 'del'; a: number } | { op: 'add'; b: number };

/** Beyond this many differing lines the middle is not searched for common lines. */
export const MAX_EDITS = 1000;

/** The shortest edit script turning `a` into `b` (deletions before additions where both fit). */
export function editScript<A, B>(a: readonly A[], b: readonly B[], equal: (x: A, y: B) => boolean, maxEdits = MAX_EDITS): Edit[] {
  let head = 0;
  while (head < a.length && head < b.length && equal(a[head]!, b[head]!)) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && equal(a[a.length - 1 - tail]!, b[b.length - 1 - tail]!)) tail++;
  const edits: Edit[] = [];
  for (let i = 0; i < head; i++) edits.push({ op: 'same', a: i, b: i });
  edits.push(...middle(a, b, head, a.length - tail, head, b.length - tail, equal, maxEdits));
  for (let k = tail; k > 0; k--) edits.push({ op: 'same', a: a.length - k, b: b.length - k });
  return edits;
}

/** Myers' greedy forward search on a[a0, a1) and b[b0, b1), with its trace kept for the walk back. */
function middle<A, B>(a: readonly A[], b: readonly B[], a0: number, a1: number, b0: number, b1: number, equal: (x: A, y: B) => boolean, maxEdits: number): Edit[] {
  const n = a1 - a0;
  const m = b1 - b0;
  const all = (): Edit[] => [
    ...Array.from({ length: n }, (_, i): Edit => ({ op: 'del', a: a0 + i })),
    ...Array.from({ length: m }, (_, j): Edit => ({ op: 'add', b: b0 + j })),
  ];
  if (n === 0 || m === 0) return all();
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  let v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      // x: how far along a; from the diagonal above (an addition) or the one below (a deletion).
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && equal(a[a0 + x]!, b[b0 + y]!)) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return walkBack(trace, offset, d, k, a0, b0, n, m);
    }
    v = next;
  }
  return all();
}

function walkBack(trace: Int32Array[], offset: number, dEnd: number, kEnd: number, a0: number, b0: number, n: number, m: number): Edit[] {
  const out: Edit[] = [];
  let x = n;
  let y = m;
  let k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!; // the furthest x on each diagonal after d - 1 edits
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) out.push({ op: 'same', a: a0 + --x, b: b0 + --y });
    if (down) out.push({ op: 'add', b: b0 + prevY });
    else out.push({ op: 'del', a: a0 + prevX });
    x = prevX;
    y = prevY;
    k = prevK;
  }
  while (x > 0 && y > 0) out.push({ op: 'same', a: a0 + --x, b: b0 + --y });
  return out.reverse();
}

export interface UnifiedDiffOptions {
  /** the header names: `--- <from>` and `+++ <to>` */
  from: string;
  to: string;
  /** lines of context around each change (default 3) */
  context?: number;
  /** lines equal under the rule (default: the same text) */
  equal?: (expected: string, got: string) => boolean;
  /**
   * an expected line that may be left out (the official logs' OPTIONAL lines): when the file has
   * no line for it, it is not shown as removed; when it has, the file's line is shown
   */
  optional?: (expected: string) => boolean;
}

/**
 * The unified diff of `got` against `expected` (lines), with `@@ -l,s +l,s @@` hunks; empty when
 * they agree under the rule. Kept lines show the file's text. The line numbers of the expected side
 * count its optional lines only where the file has them.
 */
export function unifiedDiff(expected: readonly string[], got: readonly string[], o: UnifiedDiffOptions): string {
  const equal = o.equal ?? ((x: string, y: string) => x === y);
  const context = o.context ?? 3;
  const optional = o.optional ?? (() => false);
  // Optional lines left out are no change: the script without them is over the expected lines as the file resolves them.
  const script = editScript(expected, got, equal).filter((e) => !(e.op === 'del' && optional(expected[e.a]!)));
  type Row = { op: ' ' | '-' | '+'; text: string; aLine: number; bLine: number };
  const rows: Row[] = [];
  let aLine = 0;
  let bLine = 0;
  for (const e of script) {
    if (e.op === 'same') rows.push({ op: ' ', text: got[e.b]!, aLine: ++aLine, bLine: ++bLine });
    else if (e.op === 'del') rows.push({ op: '-', text: expected[e.a]!, aLine: ++aLine, bLine });
    else rows.push({ op: '+', text: got[e.b]!, aLine, bLine: ++bLine });
  }
  const changed = rows.map((r, i) => (r.op === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  // Changes closer than 2 × context share a hunk.
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const start = Math.max(0, i - context);
    const end = Math.min(rows.length, i + context + 1);
    const last = hunks[hunks.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = end;
    else hunks.push([start, end]);
  }
  const out = [`--- ${o.from}`, `+++ ${o.to}`];
  for (const [start, end] of hunks) {
    const slice = rows.slice(start, end);
    const aCount = slice.filter((r) => r.op !== '+').length;
    const bCount = slice.filter((r) => r.op !== '-').length;
    // A side with no lines in the hunk is numbered by the line before it, as diff -u does.
    const aStart = aCount === 0 ? slice[0]!.aLine : slice.find((r) => r.op !== '+')!.aLine;
    const bStart = bCount === 0 ? slice[0]!.bLine : slice.find((r) => r.op !== '-')!.bLine;
    out.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@`);
    for (const r of slice) out.push(`${r.op}${r.text}`);
  }
  return out.join('\n') + '\n';
}

const range = (start: number, count: number): string => (count === 1 ? String(start) : `${start},${count}`);

/** A file's lines as the course's rule reads them: split at \n or \r\n, trailing blank lines dropped. */
export function fileLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}
