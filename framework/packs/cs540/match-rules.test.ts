/**
 * The gauntlet's match rules (match-rules.ts): `project` (the default) and `course`, the course's
 * own Match — every game from the initial board, a 500 ms grace, a late side's previous move kept.
 * Nothing here depends on how fast the machine is: scripted players say how long they took, and
 * the sandboxed ones either answer at once or loop until they are stopped.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import { MancalaGame, type MancalaState } from '../../games/mancala/engine.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import { parseReport } from '../../grading/reporters/json.ts';
import { playMatch } from '../../matches/match.ts';
import { matchJson } from '../../matches/match-results.ts';
import { anytimeGraceMs, playGame, type PlayGameOptions } from '../../matches/play-game.ts';
import type { MatchPlayer, MoveAttempt } from '../../matches/types.ts';
import { hardLimitFor } from '../../sandbox/hard-limit.ts';
import { addGauntletCommand } from '../../cli/commands/gauntlet.ts';
import { CS540_OPPONENTS, GAUNTLET_DEFAULTS, runGauntlet } from './gauntlet.ts';
import { COURSE_GRACE_MS, matchRulesSettings, parseMatchRules } from './match-rules.ts';
import { gauntletReport, renderGauntlet, settingsLine } from './report.ts';
import { runCommand } from '../../../testcases/fixtures/run-command.ts';
import { submissionFolder } from '../../../testcases/fixtures/submission-folder.ts';

const cs540 = findProfile('cs540')!;
const game = new MancalaGame(cs540.rules, 'cs540(6,4)');
const dir = mkdtempSync(join(tmpdir(), 'cs540-match-rules-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const submission = (name: string, files: Record<string, string>) => submissionFolder(dir, name, files);

// Plays bin 0 from the start position, answering at once; anywhere else it loops without reporting.
const LATE_TS = submission('late-ts', {
  'agent.js': `export default {
  name: 'late-ts',
  chooseMove(ctx) {
    if (ctx.game.key(ctx.state) === ctx.game.key(ctx.game.initial())) return 0;
    for (;;) {}
  },
};
`,
});
// The same over stdio (protocol 1), in Python.
const LATE_PY = submission('late-py', {
  'agent.py': `from mancala_agent import run

def choose_move(request):
    if request["mine"] == [4] * 6 and request["theirs"] == [4] * 6 and request["myStore"] == 0 and request["theirStore"] == 0:
        return 0
    while True:
        pass

run(choose_move, "late-py")
`,
});
// Plays its last legal bin at once: from the top after bin 0, its sowing refills the bottom's bin 0.
const LAST_LEGAL = submission('last-legal', {
  'agent.js': `export default { name: 'last-legal', chooseMove: (ctx) => ctx.game.legalMoves(ctx.state).at(-1) };\n`,
});

/** The games that bin 0, then bin 0 whenever legal, makes against the last legal bin: A's moves carried and where it fails. */
const EXPECTED_MOVES = [0, 5, 0, 4, 0, 5, 3, 0, 5, 4];

describe('match rules: the options they stand for', () => {
  it('course: every game from the initial board, exactly 500 ms of grace, the previous move carried over', () => {
    expect(COURSE_GRACE_MS).toBe(500);
    for (const t of [1, 50, 100, 500, 1000, 2000, 8000, 60_000]) {
      const course = matchRulesSettings('course', t);
      expect(course.graceMs).toBe(500);
      expect(course.match).toEqual({ openings: { kind: 'random', plies: 0 }, anytime: true, graceMs: 500, carryMove: true });
    }
  });

  it("project (the default) is today's gauntlet: 2 random plies, the sandbox's hard limit as grace, no carrying over", () => {
    expect(GAUNTLET_DEFAULTS.matchRules).toBe('project');
    for (const t of [1, 50, 100, 500, 1000, 2000, 8000, 60_000]) {
      const project = matchRulesSettings('project', t);
      expect(project.graceMs).toBe(anytimeGraceMs(t));
      expect(t + project.graceMs).toBe(hardLimitFor(t));
      // No graceMs and no carryMove: playMatch's own defaults, as before match rules existed.
      expect(project.match).toEqual({ openings: { kind: 'random', plies: 2 }, anytime: true });
    }
    expect(matchRulesSettings('project', 100, { kind: 'random', plies: 5 }).match.openings).toEqual({ kind: 'random', plies: 5 });
  });

  it('refuses unknown match rules and openings under the course rules, in one line', () => {
    expect(parseMatchRules('course')).toBe('course');
    expect(parseMatchRules(' project ')).toBe('project');
    expect(() => parseMatchRules('java')).toThrow(UserError);
    expect(() => parseMatchRules('java')).toThrow(/^match rules "java": expected project \(.*\) or course \(.*\)$/);
    expect(() => matchRulesSettings('course', 100, { kind: 'random', plies: 2 })).toThrow(/^openings random:2: under the course's match rules every game starts from the initial board/);
    expect(matchRulesSettings('course', 100, { kind: 'random', plies: 0 }).match.openings).toEqual({ kind: 'random', plies: 0 });
  });
});

/** A player scripted for the test: each decision's attempt from the state and the number of the decision (0-based). */
function scripted(label: string, attempt: (s: MancalaState, k: number) => MoveAttempt): MatchPlayer {
  let k = 0;
  return { label, chooseMove: async (_g, s) => attempt(s, k++), close: async () => {} };
}

const late = (ms = 551, reported?: number): MoveAttempt => ({ status: 'timeout', message: 'no answer within 550 ms of CPU time: the process was stopped', ms, ...(reported !== undefined ? { reported: { move: reported } } : {}) });
const lastLegal = scripted('last-legal', (s) => ({ status: 'ok', move: game.legalMoves(s).at(-1)!, ms: 1 }));

describe('carrying the previous move over (playGame carryMove)', () => {
  const base: Omit<PlayGameOptions, 'players'> = { game, start: game.initial(), first: 'A', index: 1, timePerMoveMs: 50, seed: 1, forfeit: 'loss', anytime: true, graceMs: { A: 500, B: 500 } };

  it('a side with no report this turn plays its previous move while it is legal, then forfeits naming it', async () => {
    // Bin 0 in time, then late every time with nothing reported.
    const A = scripted('a', (_s, k) => (k === 0 ? { status: 'ok', move: 0, ms: 1 } : late()));
    const r = await playGame({ ...base, players: { A, B: lastLegal }, carryMove: true });
    expect(r.moves).toEqual(EXPECTED_MOVES);
    expect(r.carriedMoves).toEqual([3, 0]);
    expect(r.deadlineMoves).toEqual([3, 0]);
    expect(r.forfeit).toEqual({
      side: 'A',
      reason: 'timeout',
      message: 'at move 11: no answer within 550 ms of CPU time: the process was stopped; it reported no move this turn (ctx.report), so there was no move to play; its previous move B0 (index 0) is not legal here either',
    });
    // The project's rule: the same player forfeits at its second decision.
    const project = await playGame({ ...base, players: { A: scripted('a', (_s, k) => (k === 0 ? { status: 'ok', move: 0, ms: 1 } : late())), B: lastLegal } });
    expect(project.moves).toEqual([0, 5]);
    expect(project.forfeit).toMatchObject({ side: 'A', reason: 'timeout' });
    expect(project.carriedMoves).toBeUndefined();
  });

  it("the previous move is the one last played for the side: a report this turn comes first, and a rescued report counts", async () => {
    // Decision 1 late with bin 1 reported (played); decision 2 late with nothing: bin 1 again (refilled by the top's sowing).
    const A = scripted('a', (s, k) => (k === 0 ? late(551, 1) : k === 1 ? late() : late(551, game.legalMoves(s)[0])));
    const r = await playGame({ ...base, players: { A, B: lastLegal }, carryMove: true });
    expect(r.moves.slice(0, 3)).toEqual([1, 5, 1]);
    // From decision 3 on, its report of that turn is played, never the previous move: every decision is a deadline move, one carried.
    expect(r.forfeit).toBeNull();
    expect(r.deadlineMoves![0]).toBe(r.decisions![0]);
    expect(r.carriedMoves).toEqual([1, 0]);
  });

  it('with nothing played before, a late side forfeits, saying so', async () => {
    const r = await playGame({ ...base, players: { A: scripted('a', () => late()), B: lastLegal }, carryMove: true });
    expect(r.forfeit!.message).toMatch(/; it has played no earlier move to fall back on$/);
  });

  it('a side is stopped at its grace when asked to: the players are told the grace', async () => {
    const graces: (number | undefined)[] = [];
    const spy: MatchPlayer = { label: 'spy', chooseMove: async (_g, s, _t, _seed, graceMs) => (graces.push(graceMs), { status: 'ok', move: game.legalMoves(s)[0]!, ms: 1 }), close: async () => {} };
    await playGame({ ...base, players: { A: spy, B: lastLegal }, stopAtGrace: true });
    await playGame({ ...base, players: { A: spy, B: lastLegal } });
    const stopped = graces.splice(0, graces.indexOf(undefined));
    expect(stopped.length).toBeGreaterThan(0);
    expect(new Set(stopped)).toEqual(new Set([500]));
    expect(new Set(graces)).toEqual(new Set([undefined]));
  });
});

describe('course match rules with sandboxed agents', () => {
  it('a TypeScript agent late on its second turn has its first move played while legal; it is stopped 500 ms after its time', async () => {
    const course = matchRulesSettings('course', 50).match;
    const [r, project] = await Promise.all([
      playMatch({ A: LATE_TS, B: LAST_LEGAL, rules: 'cs540', games: 1, timePerMoveMs: 50, ...course }),
      playMatch({ A: LATE_TS, B: LAST_LEGAL, rules: 'cs540', games: 1, timePerMoveMs: 50, openings: { kind: 'random', plies: 0 } }),
    ]);
    const g = r.games[0]!;
    expect(g.moves).toEqual(EXPECTED_MOVES);
    expect(g.carriedMoves).toEqual([3, 0]);
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/^at move 11: no answer within 550 ms of CPU time: .*; its previous move B0 \(index 0\) is not legal here either$/) });
    expect(r.match).toMatchObject({ graceMs: 500, carryMove: true, openings: 'random:0' });
    expect(JSON.parse(matchJson(r)).match).toMatchObject({ graceMs: 500, carryMove: true });
    // The project's rules: stopped at the sandbox's hard limit, and no move to play.
    expect(project.games[0]!.moves).toEqual([0, 5]);
    expect(project.games[0]!.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(new RegExp(`no answer within ${hardLimitFor(50)} ms of CPU time: .*; it reported no move this turn`)) });
    expect(project.match.graceMs).toBeUndefined();
  });

  it('so does a program over stdio', async () => {
    const r = await playMatch({ A: LATE_PY, B: LAST_LEGAL, rules: 'cs540', games: 1, timePerMoveMs: 50, ...matchRulesSettings('course', 50).match });
    const g = r.games[0]!;
    expect(g.moves).toEqual(EXPECTED_MOVES);
    expect(g.carriedMoves).toEqual([3, 0]);
    expect(g.forfeit).toMatchObject({ side: 'A', reason: 'timeout', message: expect.stringMatching(/no answer within 550 ms .*; its previous move B0 \(index 0\) is not legal here either$/) });
  });
});

/** The moves of every replay under `root`, by file, without the times (which vary run to run). */
function replayGames(root: string): Map<string, { before: unknown; move: number; by?: string }[]> {
  const games = new Map<string, { before: unknown; move: number; by?: string }[]>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const lines = readFileSync(p, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; before: unknown; move: number; by?: string });
        games.set(p.slice(root.length), lines.filter((l) => l.type === 'move').map(({ before, move, by }) => ({ before, move, ...(by !== undefined ? { by } : {}) })));
      }
    }
  };
  walk(root);
  return games;
}

describe('the gauntlet under course match rules', () => {
  // Reference agents answer at once: the games do not depend on the machine's speed.
  const opponents = CS540_OPPONENTS.map((o) => (o.name === 'advanced' ? { ...o, spec: 'advanced:depth=4' } : o));
  const options = { submission: 'simple', stones: [3, 5], timesPerMoveMs: [200], gamesPerSetting: 2, seed: 7, opponents };

  it('starts every game from the initial board, and the same seed gives the same games', async () => {
    const [a, b, project] = [join(dir, 'course-a'), join(dir, 'course-b'), join(dir, 'project')];
    const r = await runGauntlet({ ...options, matchRules: 'course', replays: a });
    await runGauntlet({ ...options, matchRules: 'course', replays: b });
    await runGauntlet({ ...options, replays: project });
    const games = replayGames(a);
    expect(games.size).toBe(3 * 2 * 2);
    for (const [file, moves] of games) {
      const stones = Number(/(\d)-stones-200ms/.exec(file)![1]);
      expect(moves[0]!.before, file).toEqual({ top: Array(6).fill(stones), bottom: Array(6).fill(stones), stores: { top: 0, bottom: 0 }, toMove: 'bottom' });
      expect(moves.filter((m) => m.by === 'opening'), file).toEqual([]);
    }
    expect(replayGames(b)).toEqual(games);
    // The project's gauntlet opens each pair of games with 2 random moves.
    for (const moves of replayGames(project).values()) expect(moves.slice(0, 2).map((m) => m.by)).toEqual(['opening', 'opening']);

    expect(r.matchRules).toBe('course');
    expect(r.graceMs).toEqual([500]);
    expect(r.openings).toEqual({ kind: 'random', plies: 0 });
    expect(settingsLine(r)).toMatch(/^cs540 rules; match rules course \(as the course's Match\); stones 3, 5; 200 ms a move \+ 500 ms grace \(anytime: .* else its previous move if legal\); .*; every game from the initial board; seed 7$/);
    const report = gauntletReport([{ result: r, id: 'simple' }], { network: true });
    expect(report.submissions[0]!.notes[0]).toBe(settingsLine(r));
    expect(renderGauntlet(r)).toContain(`\n${settingsLine(r)}\n`);
  }, 60_000);

  it('refuses openings under the course rules, and unknown match rules, before any game', async () => {
    await expect(runGauntlet({ ...options, matchRules: 'course', openings: { kind: 'random', plies: 2 } })).rejects.toThrow(UserError);
    await expect(runGauntlet({ ...options, matchRules: 'java' as 'course' })).rejects.toThrow(/^match rules "java"/);
  });
});

describe('mancala gauntlet --match-rules', () => {
  const mancala = (...args: string[]) => runCommand(addGauntletCommand, ['gauntlet', ...args]);

  it('prints and records the match rules used; project is the default', async () => {
    const json = join(dir, 'course.json');
    const replays = join(dir, 'cli-replays');
    const course = await mancala('simple', '--match-rules', 'course', '--stones', '4', '--time-per-move', '200', '--json', json, '--replays', replays, '--no-progress');
    expect(course.code, course.err).toBe(0);
    expect(course.out).toContain("\ncs540 rules; match rules course (as the course's Match); stones 4; 200 ms a move + 500 ms grace");
    expect(course.err).toContain(`wrote the games' replays to ${replays}\n`);
    expect(readdirSync(join(replays, 'simple'))).toEqual(['advanced', 'random', 'simple']);
    const report = parseReport(readFileSync(json, 'utf8'), json);
    expect(report.notes).toEqual([expect.stringMatching(/^match rules course: every game played as the course's own Match/)]);
    expect(report.submissions[0]!.notes[0]).toMatch(/match rules course/);
    const project = await mancala('simple', '--stones', '4', '--time-per-move', '200', '--games', '2', '--no-progress');
    expect(project.out).toContain(`\ncs540 rules; match rules project; stones 4; 200 ms a move + ${anytimeGraceMs(200)} ms grace`);
    expect(project.out).toContain('; openings random:2; seed 1\n');
  }, 60_000);

  it('an unknown value, or --openings with course, is one line and exit 2', async () => {
    const bad = await mancala('simple', '--match-rules', 'java');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe("mancala: option '--match-rules <rules>' argument 'java' is invalid. Allowed choices are project, course.\n");
    const both = await mancala('simple', '--match-rules', 'course', '--openings', 'random:2');
    expect(both.code).toBe(2);
    expect(both.err).toBe('mancala: options --openings and --match-rules course: the course starts every game from the initial board; give one of them\n');
    const help = await mancala('--help');
    expect(help.out).toMatch(/--match-rules <rules> +project: .*course: as the course's/s);
  });
});
