/**
 * Fair clocks for every runtime (framework/sandbox/meters/runtime-clock.ts): what the JVM spends on
 * itself (its JIT compilers, its collector) is not a Java student's time, which stays the CPU time
 * of the program's tree measured from outside. Shown with the project's anytime player
 * (testcases/fixtures/fair-clock/): iterative deepening alpha-beta under CS540's rules that stops at
 * 0.7 of the move's time by its own CPU clock, in C++ and in Java over the stdio protocol, and as a
 * CS540 player through the course's bridge. At the same time per move their results against
 * `simple` agree, on the cgroup meter and on the /proc meter.
 *
 * The games are the strict kind a graded playoff plays (graders/playoff.ts): an answer later than
 * the time per move loses the game (no grace, no anytime rescue). Each game is a match of its own,
 * so each starts a fresh JVM, whose first moves are when HotSpot compiles the search: charged to
 * the program, those 60-200 ms of compiler threads put the Java player's answer over its time and
 * it forfeits (measured: 0 of 4 games won, each lost at its first move, on both meters), while the
 * C++ twin, doing the same work, never does.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playMatch } from '../framework/matches/match.ts';
import { mechanisms, POLLING_METER_ENV } from '../framework/sandbox/jail/mechanisms.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'testcases/fixtures/fair-clock');
const CPP = join(FIXTURES, 'cpp-ids');
const JAVA = join(FIXTURES, 'java-ids-stdio');
const CS540 = join(FIXTURES, 'java-ids');

const runs = (cmd: string, arg: string) => spawnSync(cmd, [arg]).status === 0;
const tools = runs('javac', '-version') && runs('g++', '--version');
const cgroups = (await mechanisms()).cgroups !== undefined;

/** The time per move: where a cold JVM's compiling is a large share of the move, which is where it cost games. */
const MS_PER_MOVE = 200;
/** 3, 4 and 5 stones a bin (the course's settings), twice each with other openings. */
const GAMES = [3, 4, 5, 3, 4, 5].map((stones, k) => ({ stones, seed: 11 + k }));

interface Tally {
  wins: number;
  forfeits: number;
  /** each forfeit's reason */
  why: string[];
  /** mean and longest CPU ms a move, as the grader charged them */
  meanMs: number;
  maxMs: number;
}

/** `player` against simple, one game a match (a fresh program each game), in the strict playoff's rules. */
async function against(player: string): Promise<Tally> {
  const t: Tally = { wins: 0, forfeits: 0, why: [], meanMs: 0, maxMs: 0 };
  let decisions = 0;
  let ms = 0;
  for (const { stones, seed } of GAMES) {
    const r = await playMatch({ A: player, B: 'simple', rules: 'cs540', seeds: stones, games: 1, timePerMoveMs: MS_PER_MOVE, seed, anytime: false, graceMs: 0 });
    const g = r.games[0]!;
    if (g.winner === 'A') t.wins++;
    if (g.forfeit !== null) {
      t.forfeits++;
      t.why.push(`${g.forfeit.side}: ${g.forfeit.message}`);
    }
    decisions += g.decisions?.[0] ?? 0;
    ms += g.time[0];
    t.maxMs = Math.max(t.maxMs, Math.round(g.maxMoveMs?.[0] ?? 0));
  }
  t.meanMs = Math.round(ms / Math.max(1, decisions));
  return t;
}

/** Within noise: a busy 2-core machine may cost either player one game in six, never the whole match. */
function agree(java: Tally, cpp: Tally, label: string): void {
  const detail = `${label}: java ${JSON.stringify(java)}, c++ ${JSON.stringify(cpp)}`;
  console.log(detail);
  expect(java.forfeits, detail).toBeLessThanOrEqual(1);
  expect(Math.abs(java.wins - cpp.wins), detail).toBeLessThanOrEqual(2);
}

const meters = [
  { name: 'cgroup', forced: undefined, present: cgroups },
  { name: '/proc', forced: 'proc', present: true },
] as const;

for (const meter of meters) {
  describe.runIf(tools && meter.present)(`on the ${meter.name} meter`, () => {
    const before = process.env[POLLING_METER_ENV];
    beforeAll(() => {
      if (meter.forced === undefined) delete process.env[POLLING_METER_ENV];
      else process.env[POLLING_METER_ENV] = meter.forced;
    });
    afterAll(() => {
      if (before === undefined) delete process.env[POLLING_METER_ENV];
      else process.env[POLLING_METER_ENV] = before;
    });

    let cpp: Tally;
    it('the C++ twin beats simple, never over its time', async () => {
      cpp = await against(CPP);
      console.log(`${meter.name}: c++ ${JSON.stringify(cpp)}`);
      expect(cpp.forfeits, cpp.why.join('; ')).toBe(0);
      expect(cpp.wins).toBeGreaterThanOrEqual(GAMES.length - 1);
    });

    it("the Java twin over stdio: the C++ twin's results, the JVM's compiling not charged to its moves", async () => {
      agree(await against(JAVA), cpp, `${meter.name}, stdio`);
    });

    it("the CS540 player through the bridge: the C++ twin's results (the bridge's clock leaves out what the grader leaves out, and answers in time)", async () => {
      agree(await against(CS540), cpp, `${meter.name}, cs540 bridge`);
    });
  });
}
