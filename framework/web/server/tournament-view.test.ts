/**
 * The Tournaments page's view of a results file, against the CLI that wrote it: real tournaments
 * played by `mancala tournament` (a round robin, a gauntlet, one stopped before its end), whose
 * standings the view must give exactly as the CLI prints and writes them (--json), its crosstable
 * as the CLI's, every game linked once from each side; and files being written (a last line torn)
 * or malformed (a 422 naming the file, the line and the field).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StandingsJson } from '../../tournaments/crosstable.ts';
import { HttpError } from './http-error.ts';
import { resultsFile, tournamentStandings } from './tournament-view.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tournament-view-test-'));
/** stdout of each tournament the CLI played */
const printed: Record<string, string> = {};

function tournament(out: string, ...args: string[]): void {
  printed[out] = execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'tournament', ...args, '--out', join(work, out), '--json', join(work, `${out}.json`), '--no-progress'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const view = (path: string) => tournamentStandings(resultsFile(work, path));

/** A view's refusal: its status and one line. */
function refusal(path: string): { status: number; message: string } {
  try {
    view(path);
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return { status: (e as HttpError).statusCode, message: (e as HttpError).message };
  }
  throw new Error(`${path}: expected a refusal`);
}

beforeAll(() => {
  tournament('rr', 'random', 'greedy', 'alphabeta:depth=2', '--pits', '4', '--seeds', '3', '--games-per-pair', '2', '--seed', '3');
  tournament('big', 'random', 'greedy', 'alphabeta:depth=1', 'alphabeta:depth=3', '--pits', '4', '--seeds', '3', '--games-per-pair', '3', '--seed', '8', '--openings', 'random:4');
  tournament('gauntlet', 'random', 'greedy', '--format', 'gauntlet', '--vs', 'alphabeta:depth=2', 'alphabeta:depth=1', '--pits', '3', '--seeds', '2', '--games-per-pair', '2');
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The rows of the CLI's printed standings: rank, agent, rating (2 decimals), W, D, L, points, forfeits. */
function printedStandings(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#\s+agent\s+rating/.test(l));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (line.trim() === '') break;
    const m = /^(\d+)\s+(\S+)\s+(-?[\d.]+)\s+\[[^\]]*\]\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+(\d+)$/.exec(line.trim());
    if (m === null) throw new Error(`not a standings row: ${line}`);
    rows.push(m.slice(1));
  }
  return rows;
}

/** The CLI's printed crosstable: row agent → the cells' "W-D-L" ('' where they do not meet). */
function printedCrosstable(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes('agent (row vs column: W-D-L)'));
  // The line of dashes under the header spans each column exactly.
  const spans = [...lines[start + 1]!.matchAll(/-+/g)].map((m) => [m.index!, m.index! + m[0].length] as const).slice(2);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (line.trim() === '') break;
    rows.push(spans.map(([from, to]) => line.slice(from, to).trim()));
  }
  return rows;
}

describe('the view of a finished tournament', () => {
  for (const name of ['rr', 'big', 'gauntlet']) {
    it(`${name}: the standings are the CLI's, in its order, with its ratings`, () => {
      const v = view(`${name}/results.jsonl`);
      const json = JSON.parse(readFileSync(join(work, `${name}.json`), 'utf8')) as StandingsJson;
      expect(v.played).toBe(json.games);
      expect(v.standings.map((s) => s.agent)).toEqual(json.standings.map((s) => s.agent));
      v.standings.forEach((s, k) => {
        const cli = json.standings[k]!;
        expect(s.rank).toBe(k + 1);
        expect([s.wins, s.draws, s.losses, s.points, s.forfeits]).toEqual([cli.wins, cli.draws, cli.losses, cli.points, cli.forfeits]);
        expect(s.rating).toBeCloseTo(cli.rating, 3);
        expect(s.ci[0]).toBeCloseTo(cli.ci[0], 3);
        expect(s.ci[1]).toBeCloseTo(cli.ci[1], 3);
      });
      // And as printed: rank, name, rating to 2 decimals, W D L points forfeits.
      expect(printedStandings(printed[name]!)).toEqual(
        v.standings.map((s) => [String(s.rank), s.agent, s.rating.toFixed(2), String(s.wins), String(s.draws), String(s.losses), String(s.points), String(s.forfeits)]),
      );
    });

    it(`${name}: the crosstable is the CLI's, and its cells hold every game once from each side`, () => {
      const v = view(`${name}/results.jsonl`);
      const cli = printedCrosstable(printed[name]!);
      const n = v.standings.length;
      expect(cli.length).toBe(n);
      const seen = new Map<number, number>();
      let scheduled = 0;
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          const cell = v.crosstable[r]![c]!;
          if (r === c) {
            expect(cell).toBeNull();
            expect(cli[r]![c]).toBe('—');
            continue;
          }
          if (cell === null) {
            expect(cli[r]![c]).toBe('');
            continue;
          }
          expect(`${cell.wins}-${cell.draws}-${cell.losses}`).toBe(cli[r]![c]);
          expect(cell.games.length).toBe(cell.wins + cell.draws + cell.losses);
          expect(cell.points).toBe(cell.wins + cell.draws / 2);
          // The same pairing from the other side: the same games, the results mirrored.
          const other = v.crosstable[c]![r]!;
          expect(other.games.map((g) => g.index)).toEqual(cell.games.map((g) => g.index));
          expect([other.wins, other.draws, other.losses]).toEqual([cell.losses, cell.draws, cell.wins]);
          scheduled += cell.scheduled;
          for (const g of cell.games) seen.set(g.index, (seen.get(g.index) ?? 0) + 1);
        }
      }
      expect(scheduled / 2).toBe(v.total);
      // Every game of the file, linked twice (once a side), and nothing else.
      const indices = readFileSync(join(work, name, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => (JSON.parse(l) as { index: number }).index)
        .sort((a, b) => a - b);
      expect([...seen.keys()].sort((a, b) => a - b)).toEqual(indices);
      expect([...seen.values()].every((k) => k === 2)).toBe(true);
      expect(v.played).toBe(indices.length);
      expect(v.played).toBe(v.total);
    });
  }

  it('a game as the row agent sees it: its result, its score, who moved first', () => {
    const v = view('rr/results.jsonl');
    const lines = readFileSync(join(work, 'rr', 'results.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { index: number; A: string; B: string; first: 'A' | 'B'; winner: string; score: [number, number] });
    for (const [r, row] of v.crosstable.entries()) {
      for (const [c, cell] of row.entries()) {
        for (const g of cell?.games ?? []) {
          const game = lines.find((l) => l.index === g.index)!;
          const me = v.standings[r]!.agent;
          const side = game.A === me ? 'A' : 'B';
          expect(game[side === 'A' ? 'B' : 'A']).toBe(v.standings[c]!.agent);
          expect(g.score).toEqual(side === 'A' ? game.score : [game.score[1], game.score[0]]);
          expect(g.result).toBe(game.winner === 'draw' ? 'draw' : game.winner === side ? 'win' : 'loss');
          expect(g.rowFirst).toBe(game.first === side);
        }
      }
    }
  });

  it("a gauntlet's agents do not meet each other: no cell", () => {
    const v = view('gauntlet/results.jsonl');
    const at = (a: string, b: string) => v.crosstable[v.standings.findIndex((s) => s.agent === a)]![v.standings.findIndex((s) => s.agent === b)];
    expect(at('random', 'greedy')).toBeNull();
    expect(at('alphabeta:depth=1', 'alphabeta:depth=2')).toBeNull();
    expect(at('random', 'alphabeta:depth=2')?.scheduled).toBe(2);
    expect(v.format).toBe('gauntlet');
    expect(v.total).toBe(8);
  });
});

describe('the view of a file being written', () => {
  it('a tournament stopped before its end: played of total, the pairs not played yet empty', () => {
    execFileSync(process.execPath, [join(ROOT, 'bin/mancala.js'), 'tournament', 'random', 'greedy', 'alphabeta:depth=1', '--pits', '3', '--seeds', '2', '--max-games', '2', '--out', join(work, 'part'), '--no-progress'], { stdio: 'pipe' });
    const v = view('part/results.jsonl');
    expect([v.played, v.total]).toEqual([2, 6]);
    const cells = v.crosstable.flat().filter((c) => c !== null);
    expect(cells.reduce((n, c) => n + c.games.length, 0)).toBe(4);
    expect(cells.some((c) => c.games.length === 0 && c.scheduled === 2)).toBe(true);
  });

  it('leaves out a last line not yet complete, and counts it once it is', () => {
    cpSync(join(work, 'rr'), join(work, 'torn'), { recursive: true });
    const file = join(work, 'torn', 'results.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n${lines[4]!.slice(0, 37)}`);
    const v = view('torn/results.jsonl');
    expect(v.played).toBe(3);
    expect(v.notes).toEqual(['torn/results.jsonl:5: left out until complete — a game being written, or cut short if the run was stopped']);
    // Only read: the torn line is still there for the tournament to finish writing.
    expect(readFileSync(file, 'utf8').endsWith(lines[4]!.slice(0, 37))).toBe(true);
    writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n${lines[4]!}\n`);
    expect(view('torn/results.jsonl').played).toBe(4);
    expect(view('torn/results.jsonl').notes).toEqual([]);
  });

  it('refuses a malformed line: 422 naming the file, the line and the field', () => {
    cpSync(join(work, 'rr'), join(work, 'bad'), { recursive: true });
    const file = join(work, 'bad', 'results.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const game = JSON.parse(lines[2]!);
    game.winner = 'C';
    lines[2] = JSON.stringify(game);
    writeFileSync(file, lines.join('\n') + '\n');
    const r = refusal('bad/results.jsonl');
    expect(r.status).toBe(422);
    expect(r.message).toMatch(/^bad\/results\.jsonl:3: field "winner": /);
    expect(r.message).not.toContain(work);
    // A game the schedule does not have.
    game.winner = 'A';
    game.index = 99;
    lines[2] = JSON.stringify(game);
    writeFileSync(file, lines.join('\n') + '\n');
    expect(refusal('bad/results.jsonl')).toEqual({ status: 422, message: 'bad/results.jsonl:3: game 99 is not in the schedule (it has games 1 to 6)' });
  });

  it('refuses what is not a tournament\'s results, and what is not under the root', () => {
    writeFileSync(join(work, 'replay.jsonl'), '{"type":"game","version":1}\n');
    const r = refusal('replay.jsonl');
    expect(r.status).toBe(422);
    expect(r.message).toMatch(/^replay\.jsonl:1: field "type": /);
    writeFileSync(join(work, 'empty.jsonl'), '');
    expect(refusal('empty.jsonl')).toEqual({ status: 422, message: 'empty.jsonl:1: empty: expected a header line {"type":"tournament","version":1,"params":{…}}' });
    expect(refusal('rr').status).toBe(400);
    expect(refusal('nothing/results.jsonl').status).toBe(404);
    expect(refusal('../../etc/passwd').status).toBe(403);
  });
});
