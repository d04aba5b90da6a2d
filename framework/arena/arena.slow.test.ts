/**
 * The arena's pipeline with the real sandbox, real games and a real database file: a Python and
 * a Java submission pass the checks and the sanity stage and play their placement games, one that
 * cannot play fails the sanity stage with the reason; a game's replay and stderr are its owner's; a reopened arena keeps everything, and a
 * game left running is played again once, never counted twice.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../sandbox/paths.ts';
import { parseReplay } from '../matches/replay.ts';
import { Arena, parseFeedback } from './arena.ts';
import { createArenaApp } from './server.ts';

const dir = mkdtempSync(join(tmpdir(), 'arena-slow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = { course: 'kalah', timePerMoveMs: 300, sanityGames: 2, placementGames: 2, anchors: [{ spec: 'random', mu: 10 }, { spec: 'greedy', mu: 18 }] };
const options = { jobs: 2, ladderAhead: 0 };

describe('arena pipeline', () => {
  it('checks, sanity-tests and places submissions, and keeps everything across a reopen', async () => {
    const arena = Arena.open(dir, settings, options);
    const tokens = arena.addStudents([{ id: 'py' }, { id: 'java' }, { id: 'bad' }]);
    expect(tokens).toHaveLength(3);
    expect(statSync(join(dir, 'tokens.csv')).mode & 0o777).toBe(0o600);
    arena.start();
    const py = await arena.submit('py', { folder: join(PROJECT_ROOT, 'testcases/fixtures/arena/python-chatty') });
    const java = await arena.submit('java', { folder: join(PROJECT_ROOT, 'agents/examples/java-greedy') });
    const bad = await arena.submit('bad', { folder: join(PROJECT_ROOT, 'testcases/fixtures/arena/illegal-mover') });
    await new Promise((r) => setTimeout(r, 500));
    await arena.idle();
    await arena.stop();

    const status = (id: number) => arena.store.submission(id)!.status;
    expect([status(py.id), status(java.id), status(bad.id)]).toEqual(['ladder', 'ladder', 'failed']);
    const badFeedback = parseFeedback(arena.store.submission(bad.id)!.feedback) as { verdict: string; checks: { ran: boolean } };
    expect(badFeedback.checks.ran).toBe(true);
    expect(badFeedback.verdict).toMatch(/^failed the sanity stage: won 0 of 2 games against random .*illegal-move: .*played 99, not a legal move/);
    // Placement: both seats against each anchor, rated; the anchors' ratings do not move.
    const placement = arena.store.gamesOfSubmission(py.id).filter((g) => g.kind === 'placement');
    expect(placement.map((g) => `${g.b_anchor}:${g.first}:${g.status}`).sort()).toEqual(['greedy:A:done', 'greedy:B:done', 'random:A:done', 'random:B:done']);
    expect(arena.store.ratingHistory(`sub:${py.id}`)).toHaveLength(4);
    expect(arena.store.rating('anchor:greedy')).toMatchObject({ mu: 18, sigma: 1, games: 4 });
    // Each move's time is in the record.
    const record = JSON.parse(placement[0]!.record!) as { moves: number[]; moveMs: number[] };
    expect(record.moveMs).toHaveLength(record.moves.length);
    const standings = arena.standings();
    expect(standings.map((s) => s.pseudonym).sort()).toEqual([...new Set(standings.map((s) => s.pseudonym))].sort());
    expect(standings.filter((s) => !s.anchor).map((s) => s.student).sort()).toEqual(['java', 'py']);
    const before = JSON.stringify(standings);
    const done = arena.store.countGames('done');
    arena.close();

    // Reopened: everything is there; a game left running (a server killed mid-game) is played once more, counted once.
    const again = Arena.open(dir, {}, options);
    expect(JSON.stringify(again.standings())).toBe(before);
    expect(again.identify(tokens[0]!.token)).toMatchObject({ role: 'student', student: { id: 'py' } });
    const [scrim] = again.scrim('py', 'random');
    expect(again.store.claimQueued(10).map((g) => g.id)).toContain(scrim);
    expect(again.store.countGames('running')).toBe(2);
    again.close();
    const third = Arena.open(dir, {}, options);
    third.start();
    await third.idle();
    await third.stop();
    expect(third.store.countGames('done')).toBe(done + 2);
    expect(third.store.game(scrim!)!.attempts).toBe(2);
    // A scrim counts for nothing.
    expect(JSON.stringify(third.standings())).toBe(before);
    // A game's replay, played again from its moves and checked by the replay reader: its owner's, nobody else's.
    const app = await createArenaApp({ arena: third });
    const replay = await app.inject({ url: `/api/arena/games/${placement[0]!.id}/replay`, headers: { host: '127.0.0.1', authorization: `token ${tokens[0]!.token}` } });
    expect(replay.statusCode).toBe(200);
    const parsed = parseReplay(replay.body, 'replay');
    expect(parsed.moves.map((m) => m.move)).toEqual(record.moves);
    expect(parsed.end.winner).toBe(placement[0]!.winner);
    const other = await app.inject({ url: `/api/arena/games/${placement[0]!.id}/replay`, headers: { host: '127.0.0.1', authorization: `token ${tokens[1]!.token}` } });
    expect(other.statusCode).toBe(404);
    // What the submission wrote on stderr in that game: in its owner's log, a line a move of its own.
    const log = (await app.inject({ url: `/api/arena/games/${placement[0]!.id}/log`, headers: { host: '127.0.0.1', authorization: `token ${tokens[0]!.token}` } })).json() as { logs: { stderr: string; moves: unknown[] }[] };
    const lines = log.logs[0]!.stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(log.logs[0]!.moves.length);
    expect(new Set(lines.map((l) => l.replace(/\d+/, 'N')))).toEqual(new Set(['chatty: thinking about N legal moves']));
    await app.close();
    third.close();
  });
});
