/**
 * The similarity report as HTML: the ranked pairs, then each pair's matching fragments side by
 * side (a's lines beside b's). Two wrappers around one body: a self-contained page (`--html FILE`:
 * the grade report's style sheet inline, no script, nothing fetched) and the web app's document
 * (`/reports/view?path=…`: the style sheets served as files, under the report pages' policy).
 * Every string comes from students (paths, code) and is escaped (grading/reporters/html-text.ts).
 */
import { REPORT_CSS } from '../grading/reporters/html-assets.ts';
import { escapeHtml, escapeLine } from '../grading/reporters/html-text.ts';
import type { SimilarityPair, SimilarityReport } from './report.ts';

/** Rows of the ranked table (a class of 300 has 44,850 pairs: the rest are in the JSON and CSV). */
export const MAX_ROWS = 300;
/** Pairs whose fragments are drawn, from the top. */
export const MAX_DETAILED = 50;

/** What the page adds to the grade report's style sheet. */
export const SIMILARITY_CSS = `
.frag{display:grid;grid-template-columns:minmax(0,1fr);gap:.3rem 1rem;border:1px solid var(--line);border-radius:8px;padding:.5rem .7rem;margin:.6rem 0}
@media (min-width:900px){.frag{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
.frag pre{margin:0;padding:.4rem .5rem;background:var(--panel);border-radius:6px;overflow-x:auto;font-size:.8rem;line-height:1.35;max-height:30rem}
.frag h4{margin:.1rem 0;font-size:.85rem;font-weight:600;overflow-wrap:anywhere}
.expected{color:var(--muted);font-style:italic}
.pair{border-top:2px solid var(--line);margin-top:1.5rem;padding-top:.5rem}
.pair h3{overflow-wrap:anywhere}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const pc = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function runHtml(r: SimilarityReport): string {
  const s = r.similarity;
  const behaviour = s.behaviour === null ? 'off (--no-behaviour)' : `${s.behaviour.positions} positions, seed ${s.behaviour.seed}`;
  const items = [
    `rules <b>${escapeLine(s.rules)}</b>`,
    `language <b>${escapeLine(s.language ?? "each submission's own")}</b>`,
    `starter code ignored: ${escapeLine(s.template)}`,
    `behaviour: ${escapeLine(behaviour)}`,
  ];
  const notes = (r.notes ?? []).map((n) => `<p class="run-note">${escapeLine(n)}</p>`).join('');
  return `<ul class="stats">${items.map((i) => `<li>${i}</li>`).join('')}</ul>${notes}`;
}

function meaningHtml(): string {
  return (
    `<p class="muted">Pairs are ranked by their strongest signal: the source similarity (the share of code fingerprints two submissions share, ` +
    `names, layout and comments aside, the starter code left out), or the share of positions where they chose the same move. ` +
    `A high score is a reason to read the two submissions side by side, not a finding: short programs, the starter code and ` +
    `a task with one natural solution all raise it, and two correct searches agree on every move by construction ` +
    `(such agreement is marked expected and does not rank the pair).</p>`
  );
}

function submissionsHtml(r: SimilarityReport): string {
  const listed = r.submissions.filter((s) => s.note !== undefined || s.behaviourFailure !== undefined);
  if (listed.length === 0) return '';
  const items = listed.map((s) => {
    const why = [s.note, s.behaviourFailure === undefined ? undefined : `behaviour: ${s.behaviourFailure}`].filter((x) => x !== undefined);
    return `<li><span class="path">${escapeLine(s.path)}</span>: ${escapeLine(why.join('; '))}</li>`;
  });
  return `<section aria-labelledby="listed"><h2 id="listed">Submissions not (fully) compared</h2><ul class="notes">${items.join('')}</ul></section>`;
}

function rowHtml(p: SimilarityPair, k: number, detailed: boolean): string {
  const name = (s: string) => `<span class="path">${escapeLine(s)}</span>`;
  const rank = detailed ? `<a href="#pair-${k + 1}">${k + 1}</a>` : String(k + 1);
  const behaviour = p.expectedAgreement === null ? pc(p.behaviour) : `<span class="expected" title="${escapeLine(p.expectedAgreement)}">${pc(p.behaviour)} expected</span>`;
  return (
    `<tr><td class="num">${rank}</td><td>${name(p.a)}</td><td>${name(p.b)}</td><td class="num"><b>${p.source === null && p.behaviour === null ? '—' : pc(p.signal)}</b></td>` +
    `<td class="num">${pc(p.source)}</td><td class="num">${behaviour}</td><td class="num">${pc(p.sameValue)}</td><td class="num">${pc(p.sameNodes)}</td>` +
    `<td class="num">${p.fragments.length}</td><td>${escapeLine(p.note ?? '')}</td></tr>`
  );
}

function tableHtml(r: SimilarityReport): string {
  const shown = r.pairs.slice(0, MAX_ROWS);
  const more = r.pairs.length - shown.length;
  const head = ['#', 'a', 'b', 'signal', 'source', 'behaviour', 'same value', 'same nodes', 'fragments', 'note']
    .map((h, k) => `<th scope="col"${k === 0 || (k >= 3 && k <= 8) ? ' class="num"' : ''}>${h}</th>`)
    .join('');
  const rows = shown.map((p, k) => rowHtml(p, k, k < MAX_DETAILED && p.fragments.length > 0)).join('');
  const rest = more > 0 ? `<p class="muted">And ${plural(more, 'more pair')}, weaker, in the JSON and CSV reports.</p>` : '';
  return (
    `<section aria-labelledby="pairs"><h2 id="pairs">Pairs, strongest signal first</h2>` +
    `<div class="scroll"><table class="data"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>${rest}</section>`
  );
}

function fragmentsHtml(p: SimilarityPair, k: number): string {
  const side = (who: string, f: SimilarityPair['fragments'][number]['a']) =>
    `<div><h4><span class="path">${escapeLine(who)}</span> · ${escapeLine(f.file)} lines ${f.start}–${f.end}</h4><pre><code>${escapeHtml(f.text)}</code></pre></div>`;
  const frags = p.fragments.map((f) => `<div class="frag">${side(p.a, f.a)}${side(p.b, f.b)}</div>`).join('');
  return (
    `<section class="pair" id="pair-${k + 1}" aria-label="pair ${k + 1}"><h3>${k + 1}. ${escapeLine(p.a)} and ${escapeLine(p.b)}: source ${pc(p.source)}</h3>` +
    `<p class="muted">${plural(p.fragments.length, 'matching fragment')}, longest first (the longest ${p.longest ?? 0} fingerprints) · <a href="#pairs">back to the pairs</a></p>${frags}</section>`
  );
}

/** The page's body: the run, the submissions left out, the ranked pairs, the top pairs' fragments. */
export function similarityBodyHtml(r: SimilarityReport): string {
  const detailed = r.pairs
    .slice(0, MAX_DETAILED)
    .map((p, k) => (p.fragments.length > 0 ? fragmentsHtml(p, k) : ''))
    .join('');
  return `<article class="report" aria-label="similarity">${runHtml(r)}${meaningHtml()}${submissionsHtml(r)}${tableHtml(r)}${detailed}</article>`;
}

function title(r: SimilarityReport): string {
  return `Similarity: ${plural(r.submissions.length, 'submission')}, ${plural(r.pairs.length, 'pair')}`;
}

/** The self-contained page (`--html FILE`): deterministic, opens from disk, fetches nothing. */
export function renderSimilarityHtml(r: SimilarityReport): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}"/><meta name="generator" content="mancala-autograder"/>` +
    `<title>${escapeLine(title(r))}</title><style>${REPORT_CSS}${SIMILARITY_CSS}</style></head>\n` +
    `<body><div class="page"><header class="top"><h1>${escapeLine(title(r))}</h1></header><main id="main">${similarityBodyHtml(r)}</main>` +
    `<footer>Similarity report schema version 1 · written by <code>mancala similarity</code>; opens from disk, nothing is fetched.</footer></div></body></html>\n`
  );
}

/** The web app's document for a similarity report read from `file`: its style sheets are /reports/report.css and /reports/similarity.css. */
export function similarityPageHtml(r: SimilarityReport, file: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>` +
    `<meta name="generator" content="mancala-autograder"/><title>${escapeLine(title(r))}</title>` +
    `<link rel="stylesheet" href="/reports/report.css"/><link rel="stylesheet" href="/reports/similarity.css"/></head>\n` +
    `<body><div class="page"><header class="top"><h1>${escapeLine(title(r))}</h1><p class="muted"><span class="path">${escapeLine(file)}</span></p></header>` +
    `<main id="main">${similarityBodyHtml(r)}</main>` +
    `<footer>Similarity report schema version 1 · read from ${escapeLine(file)} by <code>mancala serve</code>.</footer></div></body></html>\n`
  );
}
