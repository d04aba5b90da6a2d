/**
 * Each grader passes on the reference's own answer and fails, with a message naming what was
 * expected and what came, the position, the options and the reproducing command, on wrong ones.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../framework/errors.ts';
import type { TraceEvent } from '../framework/contracts/search-trace.ts';
import type { Observation } from '../framework/sandbox/exchange.ts';
import alphabetaAgent from '../agents/alphabeta.ts';
import minimaxAgent from '../agents/minimax.ts';
import { compareCount, ratioRange } from './count.ts';
import evaluations from './evaluations.ts';
import heuristicValue from './heuristic-value.ts';
import { caseMessage, CHECK_ORDER, DIAGNOSIS_PREFIX, gradeCase, GRADERS } from './index.ts';
import move from './move.ts';
import nextState from './next-state.ts';
import nodes from './nodes.ts';
import { reproduceLines } from './reproduce.ts';
import time from './time.ts';
import trace, { eventText } from './trace.ts';
import value from './value.ts';
import { gradeInput, mancalaSpec, observe, startBoard, testCase, testManifest } from './testing.ts';

const kalah = testManifest(mancalaSpec('kalah', 6, 4));
const SEARCH = { depth: 4, unit: 'move', terminal: 'score', heuristic: 'basic' } as const;
/** A mid-game Kalah board, top to move. */
const MIDGAME = { top: [3, 0, 5, 1, 0, 6], bottom: [2, 4, 0, 3, 1, 5], topStore: 7, bottomStore: 11, toMove: 1 as const };

async function searchInput(observation?: (o: Observation) => Observation, checks = { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' as const } }) {
  const c = testCase(kalah, { board: MIDGAME, options: SEARCH, checks });
  const right = await observe(kalah, c, alphabetaAgent);
  return gradeInput(kalah, c, observation ? observation(right) : right);
}

/** The context every failure message ends with. */
function expectContext(message: string) {
  expect(message).toContain('position: kalah(6,4): top [3 0 5 1 0 6] store 7, bottom [2 4 0 3 1 5] store 11, top to move');
  expect(message).toContain('options: alphabeta, depth 4 (unit move), terminal score, heuristic basic, no caching');
  expect(message).toContain('reproduce: save the board as board.json: {"top":[3,0,5,1,0,6],"bottom":[2,4,0,3,1,5],"stores":{"top":7,"bottom":11},"toMove":"top"}');
  expect(message).toContain(
    'then run: npx mancala search --rules kalah --board board.json --board-format json --algo alphabeta --depth 4 --unit move --terminal score --heuristic basic --json',
  );
}

describe('move', () => {
  it("passes on the reference's move", async () => {
    const input = await searchInput();
    expect(await move.grade(input)).toEqual({ check: 'move', passed: true, message: '' });
  });

  it('fails on another legal move, naming both moves', async () => {
    const input = await searchInput();
    const other = input.expected.move === 0 ? 2 : 0;
    input.observation = { ...input.observation, move: other };
    const r = await move.grade(input);
    expect(r.passed).toBe(false);
    expect(r.message).toMatch(new RegExp(`^move: expected T${input.expected.move} \\(index ${input.expected.move}\\), got T${other} \\(index ${other}\\)`));
    expectContext(r.message);
  });

  it('names an illegal move and the legal ones', async () => {
    const input = await searchInput((o) => ({ ...o, move: 1 })); // top's T1 is the empty pit at left-to-right position 4
    const r = await move.grade(input);
    expect(r.passed).toBe(false);
    expect(r.message).toContain('move: T1 (index 1) is not a legal move in this position');
    expect(r.message).toContain('legal moves: T0 (index 0), T2 (index 2), T3 (index 3), T5 (index 5)');
    const far = await move.grade({ ...input, observation: { ...input.observation, move: 17 } });
    expect(far.message).toContain('move: 17 (not a pit index) is not a legal move');
  });

  it('falls back on the last reported move, and says so', async () => {
    const input = await searchInput();
    const { move: _m, ...rest } = input.observation;
    const r = await move.grade({ ...input, observation: { ...rest, reported: { move: input.expected.move === 0 ? 2 : 0 } } });
    expect(r.message).toContain('(the last move reported with ctx.report)');
  });

  it('stops the run when the suite was blessed without a move (the suite author must fix it)', async () => {
    const input = await searchInput();
    const { move: _m, ...expected } = input.expected;
    expect(() => move.grade({ ...input, expected })).toThrow(UserError);
  });
});

describe('value', () => {
  it('passes on the reference value and within the tolerance', async () => {
    const input = await searchInput();
    expect((await value.grade(input)).passed).toBe(true);
    const near = { ...input, case: { ...input.case, checks: { value: { tolerance: 1 } } }, observation: { ...input.observation, value: input.expected.value! + 1 } };
    expect((await value.grade(near)).passed).toBe(true);
  });

  it('fails outside the tolerance with both values', async () => {
    const input = await searchInput();
    const want = input.expected.value!;
    const r = await value.grade({ ...input, observation: { ...input.observation, value: want + 3 } });
    expect(r.passed).toBe(false);
    expect(r.message).toContain(`value: expected ${want}, got ${want + 3}, off by 3`);
    expectContext(r.message);
  });

  it('fails when no value was returned', async () => {
    const input = await searchInput();
    const { value: _v, ...rest } = input.observation;
    const r = await value.grade({ ...input, observation: rest });
    expect(r.message).toContain('got no value: chooseMove must return { move, value }');
  });
});

describe('count comparison (nodes, evaluations)', () => {
  it('exact: only the same count', () => {
    expect(compareCount({ mode: 'exact' }, 100, 100).passed).toBe(true);
    expect(compareCount({ mode: 'exact' }, 100, 99).passed).toBe(false);
    expect(compareCount({ mode: 'exact' }, 100, 101).passed).toBe(false);
  });

  it('at-most: the count or fewer', () => {
    expect(compareCount({ mode: 'at-most' }, 100, 100).passed).toBe(true);
    expect(compareCount({ mode: 'at-most' }, 100, 1).passed).toBe(true);
    expect(compareCount({ mode: 'at-most' }, 100, 101).passed).toBe(false);
  });

  it('ratio: both ends of the band included', () => {
    const r = { mode: 'ratio' as const, ratio: 2 };
    expect([49, 50, 200, 201].map((n) => compareCount(r, 100, n).passed)).toEqual([false, true, true, false]);
    expect(ratioRange(100, 1.5)).toEqual({ low: 67, high: 150 });
    expect([66, 67, 150, 151].map((n) => compareCount({ mode: 'ratio', ratio: 1.5 }, 100, n).passed)).toEqual([false, true, true, false]);
    expect(ratioRange(1000, 1.1)).toEqual({ low: 910, high: 1100 });
    expect(ratioRange(100, 0.5)).toEqual({ low: 50, high: 200 }); // a factor below 1 is its inverse
  });
});

describe('nodes and evaluations', () => {
  it('pass on the reference counts', async () => {
    const input = await searchInput(undefined, { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' }, evaluations: { mode: 'exact' } } as never);
    expect((await nodes.grade(input)).passed).toBe(true);
    expect((await evaluations.grade(input)).passed).toBe(true);
  });

  it('fail with the expectation, the count and the difference', async () => {
    const input = await searchInput();
    const want = input.expected.nodes!;
    const r = await nodes.grade({ ...input, observation: { ...input.observation, nodes: want + 6 } });
    expect(r.passed).toBe(false);
    expect(r.message).toContain(`nodes: expected exactly ${want.toLocaleString('en-US')} (the reference's count), got ${(want + 6).toLocaleString('en-US')} (6 more than the reference)`);
    expectContext(r.message);

    const atMost = { ...input, case: { ...input.case, checks: { nodes: { mode: 'at-most' as const } } } };
    expect((await nodes.grade({ ...atMost, observation: { ...input.observation, nodes: want - 1 } })).passed).toBe(true);
    expect((await nodes.grade({ ...atMost, observation: { ...input.observation, nodes: want + 1 } })).message).toContain(`expected at most ${want.toLocaleString('en-US')}`);

    const evals = input.expected.evaluations!;
    const e = await evaluations.grade({ ...input, case: { ...input.case, checks: { evaluations: { mode: 'ratio', ratio: 2 } } }, observation: { ...input.observation, evaluations: evals * 3 } });
    expect(e.passed).toBe(false);
    expect(e.message).toContain(`evaluations (heuristic calls): expected ${Math.ceil(evals / 2)} to ${evals * 2} (the reference's ${evals} within a factor of 2), got ${evals * 3}`);
  });
});

describe('nodes, informational (node_counts: informational)', () => {
  const informational = <T extends { case: object }>(input: T): T => ({ ...input, case: { ...input.case, nodeCounts: 'informational' as const } });
  const n = (x: number) => x.toLocaleString('en-US');

  it('passes whatever the count; a count the check would refuse is told as information, one the check accepts says nothing', async () => {
    const input = informational(await searchInput());
    const want = input.expected.nodes!;
    expect(await nodes.grade(input)).toEqual({ check: 'nodes', passed: true, message: '', informational: true });
    const r = await nodes.grade({ ...input, observation: { ...input.observation, nodes: want + 6 } });
    expect(r).toEqual({
      check: 'nodes',
      passed: true,
      message: `nodes: your search visited ${n(want + 6)} nodes; the reference ${n(want)} (informational, not graded)`,
      informational: true,
    });
    // not counted at all (a program over stdio that gives none)
    const none = await nodes.grade({ ...input, observation: { ...input.observation, nodes: undefined } });
    expect([none.passed, none.message]).toEqual([true, `nodes: your search's nodes were not counted; the reference visited ${n(want)} (informational, not graded)`]);
  });

  it('says what a graded check would accept when it is not exact', async () => {
    const input = informational(await searchInput());
    const want = input.expected.nodes!;
    const atMost = { ...input, case: { ...input.case, checks: { nodes: { mode: 'at-most' as const } } } };
    expect((await nodes.grade({ ...atMost, observation: { ...input.observation, nodes: want - 1 } })).message).toBe('');
    expect((await nodes.grade({ ...atMost, observation: { ...input.observation, nodes: want + 1 } })).message).toBe(
      `nodes: your search visited ${n(want + 1)} nodes; the reference ${n(want)} (informational, not graded; graded, it would need at most ${n(want)})`,
    );
    const ratio = { ...input, case: { ...input.case, checks: { nodes: { mode: 'ratio' as const, ratio: 2 } } } };
    const { low, high } = ratioRange(want, 2);
    expect((await nodes.grade({ ...ratio, observation: { ...input.observation, nodes: high } })).message).toBe('');
    expect((await nodes.grade({ ...ratio, observation: { ...input.observation, nodes: high + 1 } })).message).toBe(
      `nodes: your search visited ${n(high + 1)} nodes; the reference ${n(want)} (informational, not graded; graded, it would need ${n(low)} to ${n(high)})`,
    );
  });

  it('gradeCase: right move and value with a wrong count passes, the bug named in the information; graded, the same answer fails', async () => {
    const c = testCase(kalah, { board: MIDGAME, options: SEARCH, checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } } });
    // Plain minimax where alpha-beta is expected: same move and value, more nodes.
    const graded = await gradeInput(kalah, c, await observe(kalah, c, minimaxAgent));
    const want = graded.expected.nodes!;
    const got = graded.observation.nodes!;
    expect(got).toBeGreaterThan(want);

    const results = await gradeCase(informational(graded));
    expect(results.map((r) => [r.check, r.passed, r.informational === true])).toEqual([
      ['move', true, false],
      ['value', true, false],
      ['nodes', true, true],
    ]);
    expect(results[2]!.message.split('\n')).toEqual([
      `nodes: your search visited ${n(got)} nodes; the reference ${n(want)} (informational, not graded)`,
      `${DIAGNOSIS_PREFIX}Your search matches the reference with no pruning, plain minimax where alpha-beta is expected (same move, value and node count).`,
    ]);
    expect(caseMessage(results)).toBe('');

    for (const asGraded of [graded, { ...graded, case: { ...graded.case, nodeCounts: 'graded' as const } }]) {
      const failed = await gradeCase(asGraded);
      expect(failed.map((r) => r.passed)).toEqual([true, true, false]);
      expect(caseMessage(failed)).toMatch(/^nodes: expected exactly [\d,]+ \(the reference's count\), got [\d,]+/);
    }
  });

  it('a wrong move is still a failure, named as before; the node count beside it stays information', async () => {
    const c = { ...testCase(kalah, { board: MIDGAME, options: SEARCH, checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } } }), nodeCounts: 'informational' as const };
    const input = await gradeInput(kalah, c, await observe(kalah, c, alphabetaAgent, { ...SEARCH, depth: 3 }));
    const results = await gradeCase(input);
    expect(results.filter((r) => !r.passed).map((r) => r.check)).toEqual(['value']);
    const message = caseMessage(results);
    expect(message.split('\n')[1]).toMatch(/^likely bug: Your search matches the reference with depth 3 instead of 4/);
    expect(message).not.toContain('nodes:');
    expect(results[2]!.message).toMatch(/^nodes: your search visited [\d,]+ nodes; the reference [\d,]+ \(informational, not graded\)$/);
  });
});

describe('trace', () => {
  async function traceInput(format: 'events' | 'traverse-log', agent = alphabetaAgent) {
    const c = testCase(kalah, { board: MIDGAME, options: { ...SEARCH, depth: 2 }, checks: { trace: { format } } });
    return gradeInput(kalah, c, await observe(kalah, c, agent));
  }

  it("passes on the reference's events, also after a trip through JSON (which drops the infinities)", async () => {
    const input = await traceInput('events');
    expect((await trace.grade(input)).passed).toBe(true);
    const viaJson = JSON.parse(JSON.stringify(input.observation.trace)) as TraceEvent[];
    expect(JSON.stringify(viaJson)).toContain('null');
    expect((await trace.grade({ ...input, observation: { ...input.observation, trace: viaJson } })).passed).toBe(true);
  });

  it('reports the first differing event, its index, both versions and both lengths', async () => {
    const input = await traceInput('events');
    const events = input.observation.trace!;
    const changed = events.map((e, i) => (i === 5 ? { ...e, value: 99 } : e)) as TraceEvent[];
    const r = await trace.grade({ ...input, observation: { ...input.observation, trace: changed } });
    expect(r.passed).toBe(false);
    expect(r.message).toContain(`trace: first difference at event 6: expected ${eventText(events[5])}, got ${eventText(changed[5])}`);
    expect(r.message).toContain(`the reference has ${events.length} events, yours ${events.length}`);
    expect(r.message).toContain(`the event before, the same in both: ${eventText(events[4])}`);

    const short = await trace.grade({ ...input, observation: { ...input.observation, trace: events.slice(0, 10) } });
    expect(short.message).toContain(`first difference at event 11: expected ${eventText(events[10])}, got nothing (your trace ends after 10 events)`);
    expect(short.message).toContain(`the reference has ${events.length} events, yours 10`);
  });

  it('compares traverse logs line by line, from the events rendered as a log', async () => {
    const input = await traceInput('traverse-log');
    expect((await trace.grade(input)).passed).toBe(true);
    const lines = input.expected.trace as string[];
    expect(lines[0]).toBe('Node,Depth,Value,Alpha,Beta');
    // Events that lack alpha and beta cannot be written as a five-column log.
    const mm = await observe(kalah, input.case, minimaxAgent);
    const r = await trace.grade({ ...input, observation: { ...input.observation, trace: mm.trace } });
    expect(r.message).toContain('trace: your events cannot be written as a traverse log');
    // A search one level shallower: the logs part where the first leaf appears.
    const shallow = await observe(kalah, input.case, alphabetaAgent, { ...SEARCH, depth: 1 });
    const s = await trace.grade({ ...input, observation: { ...input.observation, trace: shallow.trace } });
    expect(s.message).toMatch(/trace: first difference at line 3 of the traverse log \(lines differ\): expected T0,1,-?Infinity,-Infinity,Infinity, got T0,1,-?\d+,/);
    expect(s.message).toMatch(new RegExp(`the reference's log has ${lines.length} lines, yours \\d+`));
  });

  it('fails when no trace came', async () => {
    const input = await traceInput('events');
    const { trace: _t, ...rest } = input.observation;
    expect((await trace.grade({ ...input, observation: rest })).message).toContain('got no trace: emit search events through ctx.trace');
  });
});

describe('nextState', () => {
  // Bottom's B2 (1 stone) lands in the empty B3 opposite 5 stones: a capture of 6.
  const CAPTURE = { top: [1, 0, 0, 5, 0, 0], bottom: [0, 0, 1, 0, 0, 2], topStore: 10, bottomStore: 9, toMove: 0 as const };

  async function captureInput(moveIndex?: number) {
    const c = testCase(kalah, { board: CAPTURE, options: { ...SEARCH, depth: 1 }, checks: { nextState: true } });
    const o = await observe(kalah, c, alphabetaAgent);
    return gradeInput(kalah, c, moveIndex === undefined ? o : { ...o, move: moveIndex });
  }

  it('passes when the move captures as the reference did', async () => {
    const input = await captureInput();
    expect(input.expected.move).toBe(2);
    expect(input.expected.nextState).toMatchObject({ top: [1, 0, 0, 0, 0, 0], bottom: [0, 0, 0, 0, 0, 2], bottomStore: 15, topStore: 10 });
    expect((await nextState.grade(input)).passed).toBe(true);
  });

  it('fails on another move, naming each differing pit and showing both boards', async () => {
    const input = await captureInput(5);
    const r = await nextState.grade(input);
    expect(r.passed).toBe(false);
    expect(r.message).toContain('next state after your move B5 (index 5) (the reference played B2 (index 2)):');
    expect(r.message).toContain('T0 expected 0, got 1'); // T0 is the top pit at the right end, opposite B5
    expect(r.message).toContain('T2 expected 0, got 5');
    expect(r.message).toContain('B2 expected 0, got 1');
    expect(r.message).toContain("bottom's store expected 15, got 10");
    expect(r.message).toContain('expected board:');
    expect(r.message).toContain('your board:');
    expect(r.message).toContain('reproduce: save the board as board.json');
  });

  it('accepts the swept board when the move ends the game', async () => {
    // Bottom's last stone: B5 sows into the store, the bottom row empties, top's 4 stones are swept to top.
    const board = { top: [1, 0, 0, 3, 0, 0], bottom: [0, 0, 0, 0, 0, 1], topStore: 20, bottomStore: 24, toMove: 0 as const };
    const c = testCase(kalah, { board, options: { ...SEARCH, depth: 1 }, checks: { nextState: true } });
    const input = await gradeInput(kalah, c, await observe(kalah, c, alphabetaAgent));
    expect((await nextState.grade(input)).passed).toBe(true);
    const swept = { top: [0, 0, 0, 0, 0, 0], bottom: [0, 0, 0, 0, 0, 0], topStore: 24, bottomStore: 25 };
    expect((await nextState.grade({ ...input, expected: { ...input.expected, nextState: swept } })).passed).toBe(true);
    const wrong = await nextState.grade({ ...input, expected: { ...input.expected, nextState: { ...swept, topStore: 23, bottomStore: 26 } } });
    expect(wrong.message).toContain("after the end-of-game sweep: top's store expected 23, got 24; bottom's store expected 26, got 25");
  });

  it('rejects an illegal move', async () => {
    const r = await nextState.grade(await captureInput(0));
    expect(r.message).toContain('next state: B0 (index 0) is not a legal move in this position');
    expect(r.message).toContain('legal moves: B2 (index 2), B5 (index 5)');
  });
});

describe('heuristicValue and time', () => {
  const roles = { h: { kind: 'heuristic' as const, files: ['heuristic.ts'], reference: 'basic' } };
  const manifest = testManifest(mancalaSpec('csc384', 6, 4), roles);

  it('heuristicValue compares with the reference heuristic, from the side to move', async () => {
    const c = testCase(manifest, { role: 'h', board: { ...MIDGAME, toMove: 1 }, checks: { heuristicValue: { reference: 'basic', tolerance: 0 } } });
    const input = await gradeInput(manifest, c, { heuristicValue: -4, ms: 0 });
    expect(input.expected.heuristicValue).toBe(7 - 11);
    expect((await heuristicValue.grade(input)).passed).toBe(true);
    const r = await heuristicValue.grade({ ...input, observation: { heuristicValue: 4, ms: 0 } });
    expect(r.passed).toBe(false);
    expect(r.message).toContain('heuristic value: expected -4 (the reference heuristic basic), got 4');
    expect(r.message).toContain("options: evaluate the board from top's point of view");
    expect(r.message).toContain('reproduce: no mancala command evaluates a board alone; the reference is the heuristic basic');
  });

  it('time passes within the bound and fails over it', async () => {
    const input = await searchInput();
    const c = { ...input.case, checks: { time: { ms: 50 } } };
    expect((await time.grade({ ...input, case: c, observation: { ...input.observation, ms: 50 } })).passed).toBe(true);
    const r = await time.grade({ ...input, case: c, observation: { ...input.observation, ms: 73.44 } });
    expect(r.message).toContain('time: expected an answer within 50 ms, took 73.4 ms');
    expectContext(r.message);
  });
});

describe('reproduce', () => {
  it('uses --pits/--seeds for a start position, with --player top when top moves', () => {
    const c = testCase(kalah, { board: startBoard(kalah.game, 1), options: { depth: 6, unit: 'move', terminal: 'score', caching: true }, checks: { move: true } });
    expect(reproduceLines(kalah, c)).toEqual([
      'reproduce: npx mancala search --rules kalah --pits 6 --seeds 4 --player top --algo alphabeta --depth 6 --unit move --terminal score --heuristic basic --caching --json',
    ]);
  });

  it("fills in the profile's conventions and the role's reference options; -1 for no depth limit", () => {
    const m = testManifest(mancalaSpec('csc384', 4, 3), { a: { kind: 'agent', files: ['a.ts'], reference: 'minimax:caching' } });
    const c = testCase(m, { role: 'a', checks: { move: true } });
    expect(reproduceLines(m, c)).toEqual([
      'reproduce: npx mancala search --rules csc384 --pits 4 --seeds 3 --algo minimax --depth -1 --unit move --terminal heuristic --heuristic basic --caching --json',
    ]);
  });

  it('says so when the suite changes the rules or the reference cannot be run by mancala search', () => {
    const game = mancalaSpec('kalah');
    const changed = testManifest({ ...game, rules: { ...(game as { rules: object }).rules, freeTurn: false } } as never);
    const lines = reproduceLines(changed, testCase(changed, { checks: { move: true } }));
    expect(lines[1]).toContain("note: the suite changes the kalah profile's rules (freeTurn: false)");
    const ids = testManifest(game, { agent: { kind: 'agent', files: ['a.ts'], reference: 'ids:ms=100' } });
    expect(reproduceLines(ids, testCase(ids, { checks: { move: true } }))[0]).toContain('the reference agent is "ids:ms=100", which `mancala search` cannot run');
  });
});

describe('gradeCase', () => {
  it('runs the checks the case has, in the fixed order, skipping a check set to false', async () => {
    const c = testCase(kalah, {
      board: MIDGAME,
      options: SEARCH,
      checks: { time: { ms: 60_000 }, nodes: { mode: 'exact' }, move: true, nextState: false, value: { tolerance: 0 } },
    });
    const input = await gradeInput(kalah, c, await observe(kalah, c, alphabetaAgent));
    const results = await gradeCase(input);
    expect(results.map((r) => r.check)).toEqual(['move', 'value', 'nodes', 'time']);
    expect(results.every((r) => r.passed)).toBe(true);
    expect(Object.keys(GRADERS).sort()).toEqual([...CHECK_ORDER].sort());
    for (const name of CHECK_ORDER) expect(GRADERS[name].check).toBe(name);
  });

  it("adds name the bug's sentence to the first failed search check, before the position", async () => {
    const c = testCase(kalah, { board: MIDGAME, options: SEARCH, checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } } });
    // Plain minimax where alpha-beta is expected: same move and value, more nodes.
    const input = await gradeInput(kalah, c, await observe(kalah, c, minimaxAgent));
    const results = await gradeCase(input);
    expect(results.map((r) => r.passed)).toEqual([true, true, false]);
    const lines = results[2]!.message.split('\n');
    expect(lines[0]).toMatch(/^nodes: expected exactly/);
    expect(lines[1]).toBe(`${DIAGNOSIS_PREFIX}Your search matches the reference with no pruning, plain minimax where alpha-beta is expected (same move, value and node count).`);
    expect(lines[2]).toMatch(/^position: /);
  });
});

describe('caseMessage', () => {
  it("lists each failure's difference, then the case's context once", async () => {
    const c = testCase(kalah, { board: MIDGAME, options: SEARCH, checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } } });
    const input = await gradeInput(kalah, c, await observe(kalah, c, alphabetaAgent, { ...SEARCH, depth: 3 }));
    const results = await gradeCase(input);
    const text = caseMessage(results);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^value: expected/);
    expect(lines[1]).toMatch(/^likely bug: Your search matches the reference with depth 3 instead of 4, the depth off by one \(same move, value and node count\)\.$/);
    expect(lines[2]).toMatch(/^nodes: expected exactly/);
    expect(lines.filter((l) => l.startsWith('position: '))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('reproduce: '))).toHaveLength(1);
    expect(caseMessage(results.filter((r) => r.passed))).toBe('');
  });
});

describe('an example submission', () => {
  it("bob's plain minimax, graded on an alpha-beta case: right move and value, node count wrong, and the bug named", async () => {
    const bob = (await import('../agents/examples/bob/agent.ts')).default;
    const c = testCase(kalah, { board: MIDGAME, options: SEARCH, checks: { move: true, value: { tolerance: 0 }, nodes: { mode: 'exact' } } });
    const results = await gradeCase(await gradeInput(kalah, c, await observe(kalah, c, bob)));
    expect(results.map((r) => r.passed)).toEqual([true, true, false]);
    expect(results[2]!.message).toContain('likely bug: Your search matches the reference with no pruning, plain minimax where alpha-beta is expected');
  });
});
