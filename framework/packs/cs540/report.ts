/**
 * A gauntlet's results as text (the per-opponent table and the score) and as the JSON report of
 * grading (framework/grading/report.ts), so every report writer (Gradescope, JUnit, CSV, the
 * console report) serves the gauntlet too: one case per opponent, category "gauntlet".
 *
 * A case's maxScore is what beating that opponent adds to the one before (random 50, simple 50,
 * advanced 0: its bonus is extra credit), so the cases add up to 100. The earned score is spread
 * over the cases weakest first (gauntletScore gives the total), so the cases always add up to the
 * score, while each case's status says truthfully whether that opponent was beaten.
 */
import type { CaseStatus } from '../../grading/types.ts';
import type { CaseReport, GradeReport, SubmissionReport } from '../../grading/report.ts';
import { roundScore } from '../../grading/reporters/text.ts';
import { describeOpenings } from '../../matches/openings.ts';
import { FORFEIT_REASONS } from '../../matches/match-results.ts';
import type { ForfeitReason } from '../../matches/types.ts';
import { MAX_SCORE, type GauntletResult, type OpponentResult } from './gauntlet.ts';

export const GAUNTLET_SUITE_NAME = 'cs540 gauntlet';
export const GAUNTLET_CATEGORY = 'gauntlet';

const STATUS_OF: Record<ForfeitReason, CaseStatus> = { crash: 'error', timeout: 'timeout', memory: 'memory', 'output-limit': 'output-limit', 'illegal-move': 'failed' };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const signed = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}`;

/** "3 stones" or, with several time limits, "3 stones/500 ms". */
function settingLabel(r: GauntletResult, s: { stones: number; timePerMoveMs: number }): string {
  return r.timesPerMoveMs.length > 1 ? `${s.stones} stones/${s.timePerMoveMs} ms` : `${s.stones} stones`;
}

/** The forfeits by reason; the crashes on a function not written yet are named apart. */
function forfeitText(forfeits: Record<ForfeitReason, number>, unfinished = 0): string {
  const counts = { ...forfeits, crash: forfeits.crash - unfinished };
  const parts = FORFEIT_REASONS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  if (unfinished > 0) parts.push(`${unfinished} not written yet`);
  return parts.length === 0 ? '0' : parts.join(', ');
}

/** Each case's maximum: what beating its opponent adds to the opponents before it, within MAX_SCORE. */
function caseMaxima(result: GauntletResult): number[] {
  let reached = 0;
  return result.opponents.map((o) => {
    const add = Math.max(0, Math.min(MAX_SCORE, o.opponent.points) - reached);
    reached = Math.max(reached, Math.min(MAX_SCORE, o.opponent.points));
    return add;
  });
}

/** The score spread over the cases weakest first; what is left above MAX_SCORE (the bonus) goes to the bonus opponent. */
function caseScores(result: GauntletResult, maxima: readonly number[]): number[] {
  let left = result.score;
  const scores = maxima.map((m) => {
    const take = Math.min(m, left);
    left -= take;
    return take;
  });
  if (left > 0) {
    const k = result.opponents.findIndex((o) => o.opponent.bonus === true);
    scores[k >= 0 ? k : scores.length - 1]! += left;
  }
  return scores;
}

/** One line about the games against an opponent: the tally, per setting, the margin, the forfeits. */
export function opponentSummary(result: GauntletResult, o: OpponentResult): string {
  if (o.error !== undefined) return `not played: ${o.error}`;
  const per = o.settings.map((s) => `${settingLabel(result, s)} ${s.wins}-${s.draws}-${s.losses}`).join(', ');
  const parts = [`won ${o.wins}, drew ${o.draws}, lost ${o.losses} of ${plural(o.games, 'game')} (${per})`, `store margin ${signed(o.games === 0 ? 0 : o.storeMargin / o.games)} a game`];
  const forfeited = FORFEIT_REASONS.reduce((t, k) => t + o.forfeits[k], 0);
  if (forfeited > 0) parts.push(`forfeited ${forfeitText(o.forfeits, o.unfinished)}`);
  if (o.deadlineMoves > 0) {
    const carried = o.carriedMoves ?? 0;
    parts.push(`${plural(o.deadlineMoves, 'move')} played from ctx.report at the time limit${carried > 0 ? ` (${carried} of them its previous move, carried over)` : ''}`);
  }
  return parts.join('; ');
}

function caseMessage(result: GauntletResult, o: OpponentResult, score: number): string {
  const summary = opponentSummary(result, o);
  if (o.error !== undefined) return summary;
  const lines: string[] = [];
  const name = o.opponent.name;
  if (o.beaten) lines.push(`beat ${name}: ${summary}`);
  else if (score > 0) lines.push(`did not beat ${name} (more wins than losses needed), but beating ${result.strongestBeaten} earns these points: ${summary}`);
  else lines.push(`did not beat ${name} (more wins than losses needed): ${summary}`);
  for (const s of o.settings) lines.push(...s.forfeitMessages);
  return lines.join('\n');
}

function caseStatus(o: OpponentResult): CaseStatus {
  if (o.beaten) return 'passed';
  if (o.error !== undefined) return 'error';
  // A function not written yet is an unfinished part: the games are failed, not crashed.
  const forfeits = { ...o.forfeits, crash: o.forfeits.crash - (o.unfinished ?? 0) };
  const first = FORFEIT_REASONS.find((k) => forfeits[k] > 0);
  return first === undefined ? 'failed' : STATUS_OF[first];
}

function describeCase(result: GauntletResult, o: OpponentResult): string {
  const reward = o.opponent.bonus === true ? `${o.opponent.points}% + ${result.bonus} bonus points` : `${o.opponent.points}% of the points`;
  return `beat ${o.opponent.name} (${o.opponent.spec}): ${reward}`;
}

/** The gauntlet as one submission of a grading report. */
export function submissionReport(result: GauntletResult, id: string): SubmissionReport {
  const maxima = caseMaxima(result);
  const scores = caseScores(result, maxima);
  const cases: CaseReport[] = result.opponents.map((o, k) => {
    const status = caseStatus(o);
    const timeMs = o.settings.reduce((t, s) => t + s.timeMs, 0);
    return {
      id: `vs-${o.opponent.name}`,
      category: GAUNTLET_CATEGORY,
      status,
      score: roundScore(scores[k]!),
      maxScore: roundScore(maxima[k]!),
      message: status === 'passed' ? '' : caseMessage(result, o, scores[k]!),
      // The case's time: the submission's thinking over its decisions against this opponent.
      ms: Math.round(timeMs * 10) / 10,
      nodes: null,
      visibility: 'visible',
      description: describeCase(result, o),
      checks: [{ check: 'gauntlet', passed: o.beaten, message: o.beaten ? opponentSummary(result, o) : caseMessage(result, o, scores[k]!) }],
    };
  });
  return {
    id,
    path: result.submission,
    score: roundScore(result.score),
    maxScore: MAX_SCORE,
    cases,
    notes: [settingsLine(result), scoreLine(result)],
  };
}

/** A grading report of several gauntlets (one submission each). */
export function gauntletReport(entries: readonly { result: GauntletResult; id: string }[], isolation: GradeReport['isolation']): GradeReport {
  return { version: 1, suite: GAUNTLET_SUITE_NAME, isolation, submissions: entries.map((e) => submissionReport(e.result, e.id)) };
}

/** The report's header: the rules, the match rules and every setting the games were played under. */
export function settingsLine(r: GauntletResult): string {
  const course = r.matchRules === 'course';
  const graces = [...new Set(r.graceMs)].map((g) => `${g} ms`).join(', ');
  const late = course ? 'the last legal move it reported that turn, else its previous move if legal' : 'the last legal move it reported that turn';
  return (
    `cs540 rules; match rules ${r.matchRules}${course ? " (as the course's Match)" : ''}; stones ${r.stones.join(', ')}; ` +
    `${r.timesPerMoveMs.map((t) => `${t} ms`).join(', ')} a move + ${graces} grace (anytime: a side with no answer by then plays ${late}); ` +
    `${plural(r.gamesPerSetting, 'game')} per opponent per setting, colours alternating; ${course ? 'every game from the initial board' : `openings ${describeOpenings(r.openings)}`}; seed ${r.seed}`
  );
}

export function scoreLine(r: GauntletResult): string {
  const why =
    r.strongestBeaten === undefined
      ? 'no opponent beaten'
      : `beat ${r.strongestBeaten}${r.opponents.find((o) => o.opponent.name === r.strongestBeaten)?.opponent.bonus === true ? ', bonus earned' : ''}`;
  return `score ${roundScore(r.score)} / ${MAX_SCORE} (${why})`;
}

/** A decision's average thinking time: a reference-speed agent thinks for fractions of a ms. */
function perMove(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : ms.toFixed(0);
}

function table(rows: string[][], right: ReadonlySet<number>): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n') + '\n';
}

/** The per-opponent table, each forfeit, and the score. */
export function renderGauntlet(r: GauntletResult): string {
  let out = `gauntlet: ${r.submission}\n${settingsLine(r)}\n\n`;
  const labels = r.opponents[0]?.settings.map((s) => settingLabel(r, s)) ?? [];
  const header = ['opponent', 'earns', 'games', 'won', 'drawn', 'lost', 'margin', ...labels, 'forfeits', 'deadline moves', 'ms/move', 'beaten'];
  const rows = r.opponents.map((o) => {
    const decisions = o.settings.reduce((t, s) => t + s.decisions, 0);
    const timeMs = o.settings.reduce((t, s) => t + s.timeMs, 0);
    return [
      o.opponent.name,
      o.opponent.bonus === true ? `${o.opponent.points} + ${r.bonus}` : String(o.opponent.points),
      String(o.games),
      String(o.wins),
      String(o.draws),
      String(o.losses),
      o.games === 0 ? '-' : signed(o.storeMargin / o.games),
      ...labels.map((_, k) => {
        const s = o.settings[k];
        return s === undefined ? '-' : `${s.wins}-${s.draws}-${s.losses}`;
      }),
      forfeitText(o.forfeits, o.unfinished),
      (o.carriedMoves ?? 0) > 0 ? `${o.deadlineMoves} (${o.carriedMoves} carried)` : String(o.deadlineMoves),
      decisions === 0 ? '-' : perMove(timeMs / decisions),
      o.error !== undefined ? 'not played' : o.beaten ? 'yes' : 'no',
    ];
  });
  const numeric = new Set([1, 2, 3, 4, 5, 6, ...labels.map((_, k) => 7 + k), 9 + labels.length, 10 + labels.length]);
  out += table([header, ...rows], numeric);
  out += '(won-drawn-lost per setting; margin: final store minus the opponent\'s, a game on average; "beaten": more wins than losses)\n';
  const problems = r.opponents.flatMap((o) => (o.error !== undefined ? [`  ${o.opponent.name}: ${o.error}`] : o.settings.flatMap((s) => s.forfeitMessages.map((m) => `  vs ${o.opponent.name}, ${m}`))));
  if (problems.length > 0) out += `\nforfeits:\n${[...new Set(problems)].join('\n')}\n`;
  out += `\n${scoreLine(r)}\n`;
  return out;
}
