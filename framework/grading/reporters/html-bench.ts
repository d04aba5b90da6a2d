/**
 * What the HTML report costs for a class: a synthetic report of N submissions (by default 200 ×
 * 30 cases, about a third of them failing with messages in the graders' shape: expected/got
 * lines, likely bugs, a position, a reproduce command; some crashes with a stack trace), rendered
 * by renderHtmlReport, timed. `mancala bench` prints the figures; the tests hold them to bounds.
 */
import type { CaseReport, GradeReport, SubmissionReport } from '../report.ts';
import type { CaseStatus } from '../types.ts';
import { renderHtmlReport } from './html.ts';

/** A small deterministic generator (mulberry32): the same report on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORIES = ['legal moves', 'search values', 'node counts', 'next state', 'traces', 'playoff'];
const BUGS = [
  'Your search matches the reference with no pruning, plain minimax where alpha-beta is expected (same move, value and node count).',
  'Your search matches the reference with depth 3 instead of 2, the depth off by one (same move, value and node count).',
  'Your search matches the reference with pruning on > / < instead of >= / <= (same move, value and node count).',
];

function board(next: () => number): { top: number[]; bottom: number[]; topStore: number; bottomStore: number; toMove: 'top' | 'bottom' } {
  const row = () => Array.from({ length: 6 }, () => Math.floor(next() * 7));
  return { top: row(), bottom: row(), topStore: Math.floor(next() * 15), bottomStore: Math.floor(next() * 15), toMove: next() < 0.5 ? 'top' : 'bottom' };
}

function failure(next: () => number, depth: number): { status: CaseStatus; message: string } {
  if (next() < 0.1) {
    const frames = Array.from({ length: 12 }, (_, k) => `    at search (agent.ts:${40 + k}:9)`);
    return { status: 'error', message: ['TypeError: Cannot read properties of undefined (reading \'pits\')', ...frames].join('\n') };
  }
  const b = board(next);
  const side = b.toMove === 'top' ? 'T' : 'B';
  const [want, got] = [Math.floor(next() * 6), Math.floor(next() * 6)];
  const lines = [`move: expected ${side}${want} (index ${want}), got ${side}${got} (index ${got})`, `value: expected ${Math.floor(next() * 9) - 4}, got ${Math.floor(next() * 9) - 4}`];
  if (next() < 0.5) lines.push(`likely bug: ${BUGS[Math.floor(next() * BUGS.length)]}`);
  const json = JSON.stringify({ top: b.top, bottom: b.bottom, stores: { top: b.topStore, bottom: b.bottomStore }, toMove: b.toMove });
  lines.push(
    `position: kalah(6,4): top [${b.top.join(' ')}] store ${b.topStore}, bottom [${b.bottom.join(' ')}] store ${b.bottomStore}, ${b.toMove} to move`,
    `options: alphabeta, depth ${depth} (unit move), terminal score, heuristic basic, no caching`,
    `reproduce: save the board as board.json: ${json}`,
    `  then run: npx mancala search --rules kalah --board board.json --board-format json --algo alphabeta --depth ${depth} --unit move --terminal score --heuristic basic --json`,
  );
  return { status: 'failed', message: lines.join('\n') };
}

/** A class of `submissions` × `cases`, each submission with its own skill; deterministic. */
export function syntheticClassReport(submissions = 200, cases = 30): GradeReport {
  const next = generator(561);
  const per = 100 / cases;
  const subs: SubmissionReport[] = Array.from({ length: submissions }, (_, i) => {
    const skill = 0.35 + 0.65 * next();
    const list: CaseReport[] = Array.from({ length: cases }, (_, k) => {
      const base = { id: `case-${String(k + 1).padStart(2, '0')}`, category: CATEGORIES[k % CATEGORIES.length]!, maxScore: per, ms: Math.round(next() * 500) / 10, visibility: (k % 5 === 4 ? 'hidden' : 'visible') as CaseReport['visibility'] };
      // Later cases are harder.
      if (next() < skill * (1 - k / (cases * 2.5))) return { ...base, status: 'passed' as const, score: per, message: '', nodes: Math.floor(next() * 5000) };
      const f = failure(next, 2 + (k % 5));
      return { ...base, status: f.status, score: 0, message: f.message, nodes: f.status === 'error' ? null : Math.floor(next() * 5000) };
    });
    return {
      id: `student-${String(i + 1).padStart(3, '0')}`,
      path: `submissions/student-${String(i + 1).padStart(3, '0')}/`,
      score: list.reduce((t, c) => t + c.score, 0),
      maxScore: 100,
      cases: list,
      notes: [`role agent: submissions/student-${String(i + 1).padStart(3, '0')}/agent.ts`],
    };
  });
  return { version: 1, suite: 'synthetic class', isolation: { network: true }, submissions: subs };
}

export interface HtmlReportCost {
  submissions: number;
  cases: number;
  /** the first render (cold code), and the fastest of `runs` */
  firstMs: number;
  bestMs: number;
  runs: number;
  /** the page's size, UTF-8 bytes */
  bytes: number;
}

/** Renders the synthetic class `runs` times. */
export function measureHtmlReport(submissions = 200, cases = 30, runs = 3): HtmlReportCost {
  const report = syntheticClassReport(submissions, cases);
  let first = 0;
  let best = Infinity;
  let bytes = 0;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    const html = renderHtmlReport(report);
    const ms = performance.now() - t0;
    if (k === 0) {
      first = ms;
      bytes = Buffer.byteLength(html, 'utf8');
    }
    best = Math.min(best, ms);
  }
  return { submissions, cases, firstMs: first, bestMs: best, runs, bytes };
}
