/**
 * The Tournaments page's two pictures: the ratings plot (each agent's rating as a dot on the line
 * of its interval, on one axis, so overlapping intervals show at a glance which agents the games
 * have not separated) and the crosstable's heat-map colours (a cell's share of the points, red
 * for all lost, pale for even, green for all won).
 *
 * The plot is SVG built through the DOM (document.createElementNS), its text set as text; its
 * colours come from styles.css classes, its geometry from SVG attributes: no style attribute,
 * which the page's Content-Security-Policy refuses. It is drawn at the width it is given, in CSS
 * pixels, so its text keeps its size on a phone (a scaled viewBox would shrink it to nothing).
 */

const SVG = 'http://www.w3.org/2000/svg';

export interface PlotRow {
  agent: string;
  rating: number;
  ci: [number, number];
}

/** Round tick values covering [lo, hi]: steps of 1, 2 or 5 × 10^k, about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.floor(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toFixed(10)));
  if (ticks[0]! > lo) ticks.unshift(Number((ticks[0]! - step).toFixed(10)));
  if (ticks[ticks.length - 1]! < hi) ticks.push(Number((ticks[ticks.length - 1]! + step).toFixed(10)));
  return ticks;
}

/** The colours a share of the points runs through: all lost, even, all won (RGB). */
const LOST: [number, number, number] = [226, 122, 122];
const EVEN: [number, number, number] = [243, 236, 222];
const WON: [number, number, number] = [104, 186, 140];

/** A cell's background for the row agent's share of the points (0 to 1). */
export function shareColour(share: number): string {
  const s = Math.max(0, Math.min(1, share));
  const [from, to, t] = s < 0.5 ? [LOST, EVEN, s / 0.5] : [EVEN, WON, (s - 0.5) / 0.5];
  const c = from.map((v, k) => Math.round(v + (to[k]! - v) * t));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** The legend's gradient: the same colours, left (all lost) to right (all won). */
export function shareGradient(): string {
  return `linear-gradient(to right, ${shareColour(0)}, ${shareColour(0.5)}, ${shareColour(1)})`;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A name cut to about `max` characters, with an ellipsis (the full one is in the row's title). */
function cut(name: string, max: number): string {
  return name.length <= max ? name : `${name.slice(0, Math.max(1, max - 1))}…`;
}

/** A rating as the page writes it. */
export const ratingText = (x: number) => x.toFixed(1);

/**
 * The ratings plot, `width` CSS pixels wide: a row per agent (in the order given: best first), the
 * interval a line, the rating a dot; a dashed line at 25, where every agent starts.
 */
export function ratingsPlot(rows: readonly PlotRow[], width: number, start = 25): SVGSVGElement {
  // Wide: names in a column on the left. Narrow (a phone): each name above its line.
  const wide = width >= 520;
  const labelWidth = wide ? Math.min(220, Math.round(width * 0.3)) : 0;
  const rowHeight = wide ? 28 : 40;
  const top = 10;
  const axisHeight = 34;
  const left = wide ? labelWidth + 12 : 12;
  const right = width - 20;
  const height = top + rows.length * rowHeight + axisHeight;
  const lo = Math.min(start, ...rows.map((r) => r.ci[0]));
  const hi = Math.max(start, ...rows.map((r) => r.ci[1]));
  const ticks = niceTicks(lo, hi, wide ? 8 : 4);
  const t0 = ticks[0] ?? lo;
  const t1 = ticks[ticks.length - 1] ?? hi;
  const x = (v: number) => left + ((v - t0) / (t1 - t0 || 1)) * (right - left);
  const bottom = top + rows.length * rowHeight;

  const plot = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'ratings-plot', role: 'img', 'aria-label': 'Each agent\'s rating (dot) and its interval, rating ± 2σ (line)' });
  const grid = svg('g', { class: 'plot-grid' });
  const axis = svg('g', { class: 'plot-axis' });
  for (const t of ticks) {
    grid.appendChild(svg('line', { x1: x(t), x2: x(t), y1: top, y2: bottom }));
    axis.appendChild(svg('line', { x1: x(t), x2: x(t), y1: bottom, y2: bottom + 5 }));
    axis.appendChild(svg('text', { x: x(t), y: bottom + 18, 'text-anchor': 'middle' }, String(t)));
  }
  axis.appendChild(svg('line', { x1: left, x2: right, y1: bottom, y2: bottom }));
  axis.appendChild(svg('text', { x: right, y: bottom + 32, 'text-anchor': 'end', class: 'plot-caption' }, 'rating (openskill μ), interval μ ± 2σ'));
  plot.append(grid, svg('line', { x1: x(start), x2: x(start), y1: top - 4, y2: bottom, class: 'plot-start' }, svg('title', {}, `${start}: where every agent starts`)), axis);

  rows.forEach((r, k) => {
    const y = top + k * rowHeight + (wide ? rowHeight / 2 : rowHeight - 11);
    const row = svg('g', { class: 'plot-row', 'data-agent': r.agent }, svg('title', {}, `${r.agent}: ${ratingText(r.rating)}, interval ${ratingText(r.ci[0])} to ${ratingText(r.ci[1])}`));
    const name = `${k + 1}. ${r.agent}`;
    if (wide) row.appendChild(svg('text', { x: labelWidth, y: y + 4, 'text-anchor': 'end', class: 'plot-label' }, cut(name, Math.floor(labelWidth / 7.2))));
    else row.appendChild(svg('text', { x: left, y: y - 10, class: 'plot-label' }, cut(name, Math.floor((right - left) / 7.2))));
    row.appendChild(svg('line', { x1: x(r.ci[0]), x2: x(r.ci[1]), y1: y, y2: y, class: 'plot-interval' }));
    for (const end of r.ci) row.appendChild(svg('line', { x1: x(end), x2: x(end), y1: y - 5, y2: y + 5, class: 'plot-interval' }));
    row.appendChild(svg('circle', { cx: x(r.rating), cy: y, r: 5.5, class: 'plot-dot' }));
    plot.appendChild(row);
  });
  return plot;
}
