/**
 * boundedResultsHeader: a header is refused when it declares more games than its file's lines
 * can hold (beyond a small tournament's size), before anything is allocated from it; a file that
 * holds its share of game lines, and any small tournament just started, is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from './http-error.ts';
import { boundedResultsHeader, countLines, FREE_VIEW_GAMES, GAMES_PER_LINE } from './results-header.ts';

const work = mkdtempSync(join(tmpdir(), 'results-header-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const header = (agents: number, gamesPerPair = 1) =>
  JSON.stringify({
    type: 'tournament',
    version: 1,
    params: { format: 'round-robin', agents: Array.from({ length: agents }, (_, k) => `a${k}`), vs: [], gamesPerPair, seed: 1, rules: 'kalah', pits: 6, seeds: 4, timePerMoveMs: 1000, openings: 'random:0', openingsSha256: null, forfeit: 'loss' },
  });
const GAME = '{"type":"game"}';

function file(name: string, text: string): string {
  writeFileSync(join(work, name), text);
  return join(work, name);
}

function refusal(path: string): HttpError {
  try {
    boundedResultsHeader(path, 'r.jsonl');
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('boundedResultsHeader against the lines present', () => {
  it('refuses 1,000 agents × 1 game a pair (499,500 games) declared in a 1 KB-sized file of one game line', () => {
    const e = refusal(file('big.jsonl', `${header(1000)}\n${GAME}\n`));
    expect(e.statusCode).toBe(422);
    expect(e.message).toBe(
      `r.jsonl:1: the header declares 1,000 agents and 1 game a pair (499,500 games), more than its lines hold: beyond ${FREE_VIEW_GAMES.toLocaleString('en-US')} games this page needs a game line for every ${GAMES_PER_LINE} declared (4,995); the file holds 2 lines`,
    );
  });

  it('reads the same header once the file holds its share of game lines, and a small tournament just started', () => {
    const path = file('played.jsonl', `${header(1000)}\n${`${GAME}\n`.repeat(4995)}`);
    expect(boundedResultsHeader(path, 'r.jsonl').params.agents).toHaveLength(1000);
    // 200 agents: 19,900 games, within FREE_VIEW_GAMES, read with no game played.
    expect(boundedResultsHeader(file('fresh.jsonl', `${header(200)}\n`), 'r.jsonl').params.agents).toHaveLength(200);
  });

  it('counts lines in bounded reads, stopping at what it was asked for', () => {
    const path = file('lines.txt', 'a\n'.repeat(100_000) + 'last');
    expect(countLines(path, Infinity)).toBe(100_001);
    expect(countLines(path, 10)).toBeGreaterThanOrEqual(10);
    expect(countLines(path, 10)).toBeLessThan(100_000);
    expect(countLines(file('empty.txt', ''), 5)).toBe(0);
  });
});
