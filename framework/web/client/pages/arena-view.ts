/**
 * What the arena's page reads from the arena's API (framework/arena/server.ts), the one call it
 * makes for bodies of bytes or JSON, and the small views of its tables: a rating's sparkline, a
 * win rate, a time.
 */
import { ApiFailure } from '../api.ts';

export interface Versus {
  games: number;
  wins: number;
  draws: number;
}
export interface StandingRow {
  student?: string | null;
  pseudonym: string;
  anchor: boolean;
  rating: number;
  sigma: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  versusAnchors: Record<string, Versus>;
  history: number[];
}
export interface Standings {
  frozen: boolean;
  anchors: string[];
  standings: StandingRow[];
}
export interface SubmissionView {
  id: number;
  status: string;
  contentHash: string;
  created: string;
  verdict?: string;
}
export type Me = { role: 'instructor'; frozen: boolean } | { role: 'student'; student: string; pseudonym: string; frozen: boolean; submissions: SubmissionView[] };
export interface GameSummary {
  id: number;
  kind: string;
  status: string;
  A: string;
  B: string;
  winner: string | null;
  score: [number, number] | null;
  finished: string | null;
}
export interface GameLog {
  game: number;
  logs: { side: 'A' | 'B'; crash: string | null; stderr: string; moves: { ply: number; move: number; ms: number }[] }[];
}

/** A call with any method and a body of bytes or JSON; a refusal is the server's one line. */
export async function call<T>(method: string, url: string, body?: unknown, type = 'application/json'): Promise<T> {
  const r = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': type }, ...(body === undefined ? {} : { body: type === 'application/json' ? JSON.stringify(body) : (body as BodyInit) }) });
  const data = (await r.json().catch(() => ({}))) as { error?: string };
  if (!r.ok) throw new ApiFailure(r.status, typeof data.error === 'string' ? data.error : `the server answered ${r.status}`);
  return data as T;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A small line of the rating history (no axes: its shape; the title says first and last). */
export function sparkline(values: readonly number[], width = 120, height = 28): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'sparkline');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  const title = document.createElementNS(SVG, 'title');
  title.textContent = values.length === 0 ? 'no rated game yet' : `rating ${values[0]!.toFixed(1)} → ${values.at(-1)!.toFixed(1)} over the last ${values.length} rated games`;
  svg.setAttribute('aria-label', title.textContent);
  svg.appendChild(title);
  if (values.length >= 2) {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const span = hi - lo || 1;
    const pts = values.map((v, k) => `${((k / (values.length - 1)) * (width - 4) + 2).toFixed(1)},${(height - 3 - ((v - lo) / span) * (height - 6)).toFixed(1)}`);
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', pts.join(' '));
    line.setAttribute('class', 'spark-line');
    svg.appendChild(line);
    const [x, y] = pts.at(-1)!.split(',');
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', x!);
    dot.setAttribute('cy', y!);
    dot.setAttribute('r', '2.5');
    dot.setAttribute('class', 'spark-dot');
    svg.appendChild(dot);
  }
  return svg;
}

export const pct = (v: Versus | undefined) => (v === undefined || v.games === 0 ? '–' : `${Math.round((100 * (v.wins + v.draws / 2)) / v.games)}% of ${v.games}`);
export const when = (iso: string | null) => (iso === null ? '' : iso.replace('T', ' ').slice(0, 19));
