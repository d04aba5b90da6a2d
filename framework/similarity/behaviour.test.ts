/**
 * Behaviour fingerprints on real submissions, run sandboxed as grading runs them: a greedy agent
 * in TypeScript, the same rule rewritten with other names and structure, and the same rule in
 * Python over stdio are found alike (1.0) and apart from unrelated agents; two correct searches
 * (plain minimax in TypeScript, alpha-beta in Python) agree on everything and are flagged as
 * expected agreement; a submission that does not load gets a failure and the run goes on; the
 * same seed gives the same fingerprints; a csci561 program answers through its input.txt.
 * Few positions, to keep the test short.
 */
import { describe, expect, it } from 'vitest';
import { behaviourGame, behaviourPositions, compareFingerprints, fingerprintSubmissions, POSITION_KINDS, type Fingerprint } from './behaviour.ts';

const PLAIN = 'testcases/fixtures/behaviour/greedy-plain';
const DISGUISED = 'testcases/fixtures/behaviour/greedy-disguised';
const PYTHON_GREEDY = 'agents/examples/python-greedy';
const CAROL = 'agents/examples/carol'; // greedy by store gain: another rule
const ALICE = 'agents/examples/alice'; // alpha-beta with a heuristic of her own
const BOB = 'agents/examples/bob'; // plain minimax: moves and values right
const PYTHON_ALPHABETA = 'agents/examples/python-alphabeta'; // alpha-beta as the reference searches
const BROKEN = 'testcases/fixtures/hostile-agents/syntax-error'; // does not load
const THROWS = 'testcases/fixtures/hostile-agents/throws'; // loads, then throws on every move

const run = { rules: 'kalah', positions: 12, seed: 25, jobs: 2, weakSandbox: false };
const by = (fs: Fingerprint[], folder: string): Fingerprint => fs.find((f) => f.submission === folder)!;

describe('the position set', () => {
  const { game } = behaviourGame('kalah');

  it('is the same for the same seed, another for another, and a longer set begins with a shorter one', () => {
    const a = behaviourPositions(game, 20, 7);
    expect(behaviourPositions(game, 20, 7)).toEqual(a);
    expect(behaviourPositions(game, 10, 7)).toEqual(a.slice(0, 10));
    expect(behaviourPositions(game, 20, 8)).not.toEqual(a);
  });

  it('draws every kind, and only positions with a choice', () => {
    const ps = behaviourPositions(game, 40, 3);
    expect(new Set(ps.map((p) => p.kind))).toEqual(new Set(POSITION_KINDS));
    for (const p of ps) {
      const stones = p.board.top.reduce((s, x) => s + x, 0) + p.board.bottom.reduce((s, x) => s + x, 0);
      expect(stones).toBeGreaterThan(1);
      const mine = p.board.toMove === 0 ? p.board.bottom : p.board.top;
      expect(mine.filter((x) => x > 0).length).toBeGreaterThanOrEqual(2);
    }
    const plies = ps.map((p) => p.plies);
    expect(Math.max(...plies) - Math.min(...plies)).toBeGreaterThan(15);
  });

  it('refuses an unknown profile, a bad count or depth in one line', async () => {
    expect(() => behaviourGame('nope')).toThrow(/rules "nope": expected one of/);
    await expect(fingerprintSubmissions([PLAIN], { ...run, positions: 0 })).rejects.toThrow(/^positions: expected a whole number ≥ 1, got 0$/);
    await expect(fingerprintSubmissions([PLAIN], { ...run, depth: 0 })).rejects.toThrow(/^depth: expected a whole number from 1 to 20, got 0$/);
  });
});

describe('fingerprints of real submissions', () => {
  it('finds a greedy agent rewritten, and ported to Python, by its play; unrelated agents stay apart; a broken one fails alone', async () => {
    const progress: number[] = [];
    const fs = await fingerprintSubmissions([PLAIN, DISGUISED, BROKEN, PYTHON_GREEDY, THROWS, CAROL, ALICE], { ...run, onProgress: (done) => progress.push(done) });
    expect(progress.at(-1)).toBe(7);
    expect(by(fs, BROKEN).failure).toMatch(/could not be bundled/);
    expect(by(fs, THROWS).failure).toMatch(/^no answer on the first 3 positions: /);
    for (const broken of [BROKEN, THROWS]) expect(by(fs, broken).failure).not.toMatch(/\n/);
    for (const f of fs.filter((f) => f.submission !== BROKEN && f.submission !== THROWS)) {
      expect(f.failure, f.submission).toBeUndefined();
      expect(f.answers).toHaveLength(run.positions);
      expect(f.answers.every((a) => a.move !== null)).toBe(true);
    }
    expect(by(fs, PYTHON_GREEDY).role).toMatch(/^stdio agent/);
    expect(by(fs, PLAIN).role).toBe('agent');
    for (const [a, b] of [[PLAIN, DISGUISED], [PLAIN, PYTHON_GREEDY], [DISGUISED, PYTHON_GREEDY]] as const) {
      const c = compareFingerprints(by(fs, a), by(fs, b));
      expect(c.behaviour, `${a} ~ ${b}`).toBe(1);
      expect(c.sameValue).toBe(1);
      expect(c.expectedAgreement).toBeNull();
      // They depart from the reference search they most resemble, and in the same places.
      expect(c.offReferencePositions).toBeGreaterThan(0);
      expect(c.offReference).toBe(1);
    }
    for (const other of [CAROL, ALICE]) {
      const c = compareFingerprints(by(fs, PLAIN), by(fs, other));
      expect(c.behaviour!, other).toBeLessThan(0.75);
    }
    // The broken one is compared with nothing.
    expect(compareFingerprints(by(fs, PLAIN), by(fs, BROKEN)).behaviour).toBeNull();
  });

  it('flags two correct searches of the same depth as expected agreement, not as copies', async () => {
    const fs = await fingerprintSubmissions([BOB, PYTHON_ALPHABETA, PLAIN], { ...run, positions: 8 });
    const bob = by(fs, BOB);
    const py = by(fs, PYTHON_ALPHABETA);
    expect(bob.reference).toMatchObject({ search: 'alphabeta:depth=4', share: 1 });
    expect(py.reference).toMatchObject({ search: 'alphabeta:depth=4', share: 1 });
    const c = compareFingerprints(bob, py);
    expect(c.behaviour).toBe(1);
    expect(c.sameValue).toBe(1);
    expect(c.expectedAgreement).toMatch(/reference alphabeta:depth=4.*expected, not a sign of copying/);
    // Nothing off the reference to weigh: neither departs from it anywhere.
    expect(c.offReference).toBeNull();
    expect(compareFingerprints(bob, by(fs, PLAIN)).expectedAgreement).toBeNull();
  });

  it('gives the same fingerprints for the same seed, whatever --jobs', async () => {
    const o = { ...run, positions: 6, jobs: 1 };
    const a = await fingerprintSubmissions([PLAIN, ALICE], o);
    const b = await fingerprintSubmissions([PLAIN, ALICE], { ...o, jobs: 2 });
    expect(b).toEqual(a);
    expect(a[1]!.answers.every((x) => x.nodes! > 0)).toBe(true);
  });

  it("asks a course's own API through its bridge, and knows a search that ignores free turns as the provided minimax does", async () => {
    // CPSC 4610 tournament entry: alpha-beta to 4 plies on the store difference, players alternating every move.
    const daves = 'testcases/fixtures/course-apis/cpsc4610/DavesPlayer';
    const [f] = await fingerprintSubmissions([daves], { ...run, rules: 'cpsc4610', positions: 6, jobs: 1 });
    expect(f!.role).toMatch(/^stdio agent \(DavesPlayer\.py/);
    expect(f!.answers.every((a) => a.move !== null && /^[1-6]$/.test(a.move))).toBe(true);
    expect(f!.reference!.share).toBe(1);
    expect([f!.reference!.search, ...(f!.reference!.tied ?? [])]).toContain('alphabeta:depth=4,freeTurns=ignore');
  });

  it('asks a csci561 program through an input.txt a position, as csci561-grade does', async () => {
    const program = 'agents/examples/csci561-reference/program';
    const [f] = await fingerprintSubmissions([program], { ...run, rules: 'csci561', positions: 4, programPositions: 3, jobs: 1 });
    expect(f!.role).toBe('program');
    expect(f!.failure).toBeUndefined();
    // A run a position: it answers the first programPositions, the rest are left unanswered.
    expect(f!.answers).toHaveLength(4);
    expect(f!.answers[3]!.move).toBeNull();
    expect(f!.answers.slice(0, 3).every((a) => a.move !== null && a.value !== undefined && a.nodes! > 0)).toBe(true);
    expect(f!.reference).toMatchObject({ search: 'alphabeta:depth=2', share: 1 });
  });
});

describe('compareFingerprints', () => {
  const f = (answers: Fingerprint['answers'], reference?: Fingerprint['reference']): Fingerprint => ({ submission: 's', role: 'agent', answers, ...(reference ? { reference } : {}) });

  it('counts only the positions both answered, and values and node counts only where both report them', () => {
    const a = f([{ move: 'B1', value: 1, nodes: 5, usual: true }, { move: 'B2', value: 2, nodes: 7, usual: false }, { move: null }, { move: 'B4', usual: true }]);
    const b = f([{ move: 'B1', value: 1, nodes: 6, usual: true }, { move: 'B2', value: 3, nodes: 7, usual: true }, { move: 'B3', usual: true }, { move: 'B5', usual: true }]);
    expect(compareFingerprints(a, b)).toEqual({ behaviour: 2 / 3, sameValue: 0.5, sameNodes: 0.5, expectedAgreement: null, offReference: 1, offReferencePositions: 1, compared: 3 });
  });

  it('notes expected agreement when both play as one reference search, ties included; a failure compares nothing', () => {
    const answers = [{ move: 'B1' }, { move: 'B2' }];
    const x = f(answers, { search: 'alphabeta:depth=3', share: 1, tied: ['alphabeta:depth=4'] });
    const y = f(answers, { search: 'alphabeta:depth=4', share: 0.95 });
    expect(compareFingerprints(x, y).expectedAgreement).toMatch(/^both choose the reference alphabeta:depth=4's move on 100% and 95% of the positions/);
    expect(compareFingerprints(x, f(answers, { search: 'alphabeta:depth=4', share: 0.5 })).expectedAgreement).toBeNull();
    expect(compareFingerprints(x, { ...y, failure: 'no agent' })).toEqual({ behaviour: null, sameValue: null, sameNodes: null, expectedAgreement: null, compared: 0 });
  });
});
