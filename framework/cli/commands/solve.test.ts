import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../testcases/fixtures/run-command.ts';
import { addSolveCommand } from './solve.ts';

const dir = mkdtempSync(join(tmpdir(), 'solve-cli-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mancala = (...args: string[]) => runCommand(addSolveCommand, ['solve', ...args]);

describe('mancala solve', () => {
  it('gives the value, the best moves by name and each move\'s value as JSON', async () => {
    // Kalah(4,2) under the published rules: +6 (Irving et al. 2000, Table 9).
    const r = await mancala('--rules', 'kalah-empty-capture', '--pits', '4', '--seeds', '2', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j).slice(0, 5)).toEqual(['value', 'bestMoves', 'nodes', 'ms', 'peakMb']);
    expect(j.value).toBe(6);
    expect(j.proven).toBe(true);
    const values = j.moveValues as Record<string, number>;
    expect(Object.keys(values).sort()).toEqual(['B0', 'B1', 'B2', 'B3']);
    expect((j.bestMoves as string[]).sort()).toEqual(Object.keys(values).filter((m) => values[m] === 6).sort());
  });

  it('solves a board file, the player to move as given', async () => {
    const file = join(dir, 'board.json');
    writeFileSync(file, JSON.stringify({ top: [0, 1, 0], bottom: [2, 0, 1], stores: { top: 5, bottom: 3 }, toMove: 'top' }));
    const r = await mancala('--rules', 'kalah', '--board', file, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { value: number; toMove: string; bestMoves: string[] };
    expect(j.toMove).toBe('top');
    expect(j.bestMoves.every((m) => m.startsWith('T'))).toBe(true);
    // The text form says the same.
    const t = await mancala('--rules', 'kalah', '--board', file);
    expect(t.out).toContain(`value ${j.value > 0 ? '+' : ''}${j.value} for top`);
  });

  it('builds an endgame database, solves with it, and refuses one of other rules or a damaged one', async () => {
    const file = join(dir, 'k3.egdb');
    const built = await mancala('--rules', 'kalah', '--pits', '3', '--build-endgame', '6', '--out', file);
    expect(built.out).toMatch(/^wrote .*k3\.egdb: .* 924 positions/);
    // On one thread, the same file.
    const single = join(dir, 'k3-one.egdb');
    await mancala('--rules', 'kalah', '--pits', '3', '--build-endgame', '6', '--out', single, '--jobs', '1');
    expect(readFileSync(single).equals(readFileSync(file))).toBe(true);
    const without = JSON.parse((await mancala('--rules', 'kalah', '--pits', '3', '--seeds', '2', '--json', '--endgame-stones', '0')).out) as Record<string, unknown>;
    const withDb = JSON.parse((await mancala('--rules', 'kalah', '--pits', '3', '--seeds', '2', '--json', '--endgame', file)).out) as Record<string, unknown>;
    expect([withDb.value, withDb.moveValues, withDb.endgameStones]).toEqual([without.value, without.moveValues, 6]);
    // The database's reading is timed apart, within the solve's time.
    expect(withDb.endgameLoadMs).toBeGreaterThanOrEqual(0);
    expect(withDb.endgameLoadMs).toBeLessThanOrEqual(withDb.ms as number);

    const other = await mancala('--rules', 'kalah-empty-capture', '--pits', '3', '--seeds', '2', '--endgame', file);
    expect(other.code).toBe(2);
    expect(other.err.trim()).toMatch(/k3\.egdb: this endgame database is for 3 pits.*capture last-and-opposite, end.*not for this game's .*also of an empty pit/);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 1;
    const damaged = join(dir, 'damaged.egdb');
    writeFileSync(damaged, bytes);
    const bad = await mancala('--rules', 'kalah', '--pits', '3', '--seeds', '2', '--endgame', damaged);
    expect(bad.err.trim().split('\n')).toEqual([expect.stringMatching(/damaged\.egdb: not a usable endgame database .*sha256/)]);
    writeFileSync(damaged, 'hello\n');
    expect((await mancala('--rules', 'kalah', '--pits', '3', '--endgame', damaged)).err).toMatch(/line 1: expected "mancala-endgame 2"/);
  });

  it('--endgame given a folder, a FIFO (no writer, so no wait), a socket or a device: one line saying it is no regular file', async () => {
    const fifo = join(dir, 'db.fifo');
    execFileSync('mkfifo', [fifo]);
    const socket = join(dir, 'db.sock');
    const server = createServer();
    await new Promise<void>((ok) => server.listen(socket, ok));
    try {
      for (const [file, what] of [[dir, 'a folder'], [fifo, 'not a regular file'], [socket, 'not a regular file'], ['/dev/null', 'not a regular file']] as const) {
        const r = await mancala('--rules', 'kalah', '--pits', '3', '--seeds', '2', '--endgame', file);
        expect(r.code, file).toBe(2);
        expect(r.err.trim().split('\n'), file).toEqual([`mancala: ${file}: ${what}, not an endgame database file (mancala solve --build-endgame writes them)`]);
      }
    } finally {
      server.close();
    }
  });

  it('reports a mistake as one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--pits', '3'], /missing option '--rules <profile>'/],
      [['--rules', 'kalah', '--build-endgame', '4'], /needs '--out <file>'/],
      [['--rules', 'kalah', '--out', 'x'], /'--out <file>' goes with '--build-endgame/],
      [['--rules', 'kalah', '--jobs', '2'], /'--jobs <n>' goes with '--build-endgame/],
      [['--rules', 'kalah', '--build-endgame', '4', '--out', dir], /--out .*: is a folder; expected the name of a file to write/],
      [['--rules', 'kalah', '--tt-mb', 'lots'], /'--tt-mb <n>' argument 'lots' is invalid/],
      [['--rules', 'kalah', '--board', join(dir, 'missing.json')], /missing\.json: cannot read the board file/],
      [['--rules', 'kalah', '--pits', '3', '--endgame', join(dir, 'none.egdb')], /none\.egdb: cannot read the endgame database/],
      [['--game', 'tictactoe'], /solves Mancala only/],
    ];
    for (const [args, message] of cases) {
      const r = await mancala(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(message)]);
    }
  });

  it('says when the time limit struck before a proof', async () => {
    const r = await mancala('--rules', 'kalah-empty-capture', '--pits', '6', '--seeds', '6', '--time-limit', '1', '--endgame-stones', '0', '--json');
    const j = JSON.parse(r.out) as { value: unknown; proven: boolean; bounds: [number, number] };
    expect([j.value, j.proven]).toEqual([null, false]);
    expect(j.bounds[0]).toBeLessThanOrEqual(j.bounds[1]);
  });
});
