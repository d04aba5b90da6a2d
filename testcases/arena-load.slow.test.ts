/**
 * The arena under load (issue 36): 50 submissions — 40 Python greedy players over stdio, each
 * playing a seeded random move with its own probability (0 to 0.25), and 10 TypeScript greedy
 * ones with their own tie-breaks — uploaded at once, checked, sanity-tested and placed, then a
 * ladder of a couple of thousand games played by two `mancala worker` processes through a private
 * redis-server (`--queue`), on this machine's 2 cores, at 100 ms a move (a limit: these players
 * answer in a few ms, so games take no longer for it; at 30 ms a slow machine's TypeScript players
 * forfeited on time, 51-54 ms at moves 5-7).
 *
 * It prints games per minute, the scheduler's fairness (rated games per ladder submission: min,
 * median, max) and the database file's size; speed is not asserted. Asserted: no game is lost or
 * counted twice (every rated game rated once per submission side, each submission's games count
 * equals its games in the table, none left running), every ladder submission got its placement
 * games, and the fewest games any submission has is what the scheduler's rule guarantees
 * (schedule.ts: a submission with the fewest games, played and queued, is in every pair it picks;
 * so once all are in the ladder, every 2N ladder games of N submissions raise the minimum by a
 * pair). /metrics' worker count under --queue is the two workers, as Redis lists them.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Arena } from '../framework/arena/arena.ts';
import { startPrivateRedis, type PrivateRedis } from '../framework/distributed/redis-server.ts';
import { createRandom } from '../framework/random.ts';
import { describeWithRedis, startWorkers, stopWorkers, type WorkerProcess } from './fixtures/queue-workers.ts';

const PYTHON = 40;
const TS = 10;
/** ladder games to play after placement; the run stops once this many rated games are done */
const TARGET_GAMES = Number(process.env.ARENA_LOAD_GAMES ?? 2000);
const MS_PER_MOVE = 100;
const dir = mkdtempSync(join(tmpdir(), 'arena-load-'));
const arenaDir = join(dir, 'term');

/** A Python greedy player that plays a seeded random move with probability `eps`. */
function pythonVariant(k: number, eps: number): string {
  return `"""Load test player ${k}: greedy, with a seeded random move ${Math.round(eps * 100)}% of the time."""
import random

from mancala_agent import run

VARIANT, EPS = ${k}, ${eps.toFixed(3)}


def choose_move(request):
    legal = request["legal"]
    rng = random.Random(request["seed"] * 1009 + VARIANT)
    if rng.random() < EPS:
        return {"move": rng.choice(legal), "nodes": 1}
    mine, n = request["mine"], len(request["mine"])
    lands = [m for m in legal if mine[m] == n - m]
    reaches = [m for m in legal if mine[m] > n - m]
    move = (lands or reaches or legal)[-1 if lands else 0]
    return {"move": move, "nodes": 1}


run(choose_move, "load-${k}")
`;
}

/** A TypeScript greedy player: the move that gains most, ties broken from pit \`k mod n\` on. */
function tsVariant(k: number): string {
  return `// Load test player ${k}: greedy, ties broken from pit ${k} on (mod the board).
const agent = {
  name: 'load-ts-${k}',
  chooseMove({ game, state, player }: { game: any; state: any; player: 0 | 1 }) {
    const legal: number[] = game.legalMoves(state);
    const n = legal.length;
    let best = { move: legal[0], gain: -Infinity };
    for (let j = 0; j < n; j++) {
      const m = legal[(j + ${k}) % n]!;
      const gain = game.score(game.play(state, m), player);
      if (gain > best.gain) best = { move: m, gain };
    }
    return best.move;
  },
};

export default agent;
`;
}

function makeSubmissions(): string[] {
  const random = createRandom(36);
  const folders: string[] = [];
  for (let k = 0; k < PYTHON + TS; k++) {
    const folder = join(dir, 'uploads', `s${k}`);
    mkdirSync(folder, { recursive: true });
    if (k < PYTHON) writeFileSync(join(folder, 'agent.py'), pythonVariant(k, (random() * 0.25)));
    else writeFileSync(join(folder, 'agent.ts'), tsVariant(k));
    folders.push(folder);
  }
  return folders;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

describeWithRedis('arena load: 50 submissions, thousands of games on --queue workers', () => {
  let redis: PrivateRedis;
  let workers: WorkerProcess[] = [];
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await stopWorkers(workers);
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays them fairly, loses none and counts none twice', async () => {
    const url = `${redis.url}/6`;
    workers = await startWorkers(url, ['w1', 'w2']);
    const anchors = [{ spec: 'random', mu: 10 }, { spec: 'greedy', mu: 18 }, { spec: 'alphabeta:depth=2', mu: 22 }];
    const settings = { course: 'kalah', timePerMoveMs: MS_PER_MOVE, sanityGames: 2, placementGames: 2, anchors, maxGamesPerPair: 40 };
    const arena = Arena.open(arenaDir, settings, { queue: url, jobs: 2, sandbox: 'weak', log: () => {} });
    const folders = makeSubmissions();
    arena.addStudents(folders.map((_, k) => ({ id: `student${k}` })));
    arena.start();
    const t0 = Date.now();
    const subs = await Promise.all(folders.map((folder, k) => arena.submit(`student${k}`, { folder })));
    const count = (sql: string) => Number((arena.store.db.get(sql) as { n: number }).n);
    const rated = () => count("SELECT count(*) AS n FROM games WHERE status = 'done' AND kind IN ('placement','ladder')");
    const until = Date.now() + 20 * 60_000;
    let placedAt = 0;
    while (rated() < TARGET_GAMES && Date.now() < until) {
      if (placedAt === 0 && count("SELECT count(*) AS n FROM submissions WHERE status IN ('checking','sanity')") === 0) placedAt = Date.now();
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await arena.workerCount()).toBe(2);
    await arena.stop();
    const seconds = (Date.now() - t0) / 1000;
    const done = count("SELECT count(*) AS n FROM games WHERE status = 'done'");
    const games = rated();
    expect(games, 'the run reached its games within 20 minutes').toBeGreaterThanOrEqual(TARGET_GAMES);

    // None lost, none counted twice.
    expect(count("SELECT count(*) AS n FROM games WHERE status = 'running'")).toBe(0);
    const rows = arena.store.db.all("SELECT a_submission, b_submission FROM games WHERE status = 'done' AND kind IN ('placement','ladder')") as { a_submission: number | null; b_submission: number | null }[];
    const per = new Map<number, number>();
    for (const g of rows) for (const s of [g.a_submission, g.b_submission]) if (s !== null) per.set(s, (per.get(s) ?? 0) + 1);
    const sides = [...per.values()].reduce((a, b) => a + b, 0);
    expect(count('SELECT count(*) AS n FROM rating_history')).toBe(sides + count("SELECT count(*) AS n FROM rating_history WHERE player LIKE 'anchor:%'"));
    for (const r of arena.store.db.all("SELECT player, games FROM ratings WHERE player LIKE 'sub:%'") as { player: string; games: number }[]) {
      expect(Number(r.games), r.player).toBe(per.get(Number(r.player.slice(4))) ?? 0);
    }

    // Fairness: games per ladder submission.
    const ladder = subs.map((s) => arena.store.submission(s.id)!).filter((s) => s.status === 'ladder');
    const counts = ladder.map((s) => per.get(s.id) ?? 0);
    const placement = settings.placementGames * anchors.length;
    const [min, med, max] = [Math.min(...counts), median(counts), Math.max(...counts)];
    const size = statSync(join(arenaDir, 'arena.sqlite')).size;
    const ladderSeconds = placedAt === 0 ? seconds : (Date.now() - placedAt) / 1000;
    console.log(
      [
        `arena load: ${subs.length} submissions (${ladder.length} in the ladder, ${subs.length - ladder.length} failed a stage), ${done} games done (${games} rated) in ${seconds.toFixed(0)} s`,
        `  ${((done / seconds) * 60).toFixed(0)} games/min overall; after placement ${placedAt === 0 ? 'n/a' : `${(count("SELECT count(*) AS n FROM games WHERE status = 'done' AND kind = 'ladder'") / ladderSeconds * 60).toFixed(0)} ladder games/min`} (2 workers, 2 cores, ${MS_PER_MOVE} ms a move)`,
        `  rated games per ladder submission: min ${min}, median ${med}, max ${max}`,
        `  database: ${(size / 1024 / 1024).toFixed(1)} MB (${size} bytes) for ${done} games`,
      ].join('\n'),
    );
    // The sanity stage (2 games against random, both to be won) is the players' own: one with up to
    // 25% random moves loses a game to random now and then (11 to 16 of the 50 here, which games
    // each plays depending on the order the workers finish them). Each such verdict must be a loss
    // at play, never a forfeit; and with about three in four passing, at least 25 reach the ladder.
    for (const s of subs.map((x) => arena.store.submission(x.id)!).filter((x) => x.status !== 'ladder')) {
      const f = JSON.parse(s.feedback ?? '{}') as { verdict?: string; sanity?: { wins: number; games: number; forfeits: string[] } };
      expect({ id: s.id, status: s.status, forfeits: f.sanity?.forfeits }, f.verdict).toEqual({ id: s.id, status: 'failed', forfeits: [] });
      expect(f.sanity!.wins * 2, f.verdict).toBeLessThanOrEqual(f.sanity!.games);
    }
    expect(ladder.length).toBeGreaterThanOrEqual(25);
    expect(min).toBeGreaterThanOrEqual(placement);
    // The fewest-games submission always plays next, so no one falls behind while others race ahead:
    // the spread is bounded by the pairs queued at once and the rating gap an opponent may be chosen over.
    // Ladder games scheduled after the last placement set was queued: every submission was in the ladder by then.
    const after = count(`SELECT count(*) AS n FROM games WHERE status = 'done' AND kind = 'ladder' AND id > (SELECT max(id) FROM games WHERE kind = 'placement')`);
    // slack of two pairs: games still queued when the run stopped (ladderAhead) were counted by the scheduler, not here
    const guaranteed = placement + 2 * (Math.floor(after / (2 * ladder.length)) - 2);
    console.log(`  ladder games after the last placement: ${after}; the fewest-games rule guarantees each submission at least ${guaranteed}`);
    expect(min).toBeGreaterThanOrEqual(guaranteed);
    arena.close();
  }, 25 * 60_000);
});
