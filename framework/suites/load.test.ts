/**
 * Loading suites: the two shipped suites load and resolve as their files say; each kind of
 * mistake in a manifest or a case file gives ONE line naming the file, the line and the field;
 * a case edited since it was blessed is detected.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { readBoardFile, stateToBoard } from '../games/mancala/board-io/index.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { blessSuite } from './bless.ts';
import { caseHash, isBlessed, orphanedExpected, unblessedCases } from './expected.ts';
import { caseGame } from './game.ts';
import { loadSuite } from './load.ts';
import { nodeCountsNote, withNodeCounts } from './node-counts.ts';
import type { Suite } from './types.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const basicsDir = join(root, 'testcases/kalah-basics');
const hiddenDir = join(root, 'testcases/hidden-example');
const work = mkdtempSync(join(tmpdir(), 'suite-load-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function byId(suite: Suite, id: string) {
  const c = suite.cases.find((k) => k.id === id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
}

describe('the shipped suites', () => {
  it('kalah-basics loads, resolves every position source, and is blessed', async () => {
    const suite = await loadSuite(basicsDir);
    const m = suite.manifest;
    expect(m.name).toBe('Kalah basics');
    expect(m.game).toMatchObject({ kind: 'mancala', profile: 'kalah', name: 'kalah(6,4)' });
    expect(m.visibility).toBe('visible');
    expect(m.limits).toEqual({ ms: 1000, memoryMb: 512 });
    expect(m.roles.agent).toMatchObject({ kind: 'agent', reference: 'alphabeta' });
    expect(m.roles.heuristic).toMatchObject({ kind: 'heuristic', reference: 'basic' });
    expect(suite.cases.length).toBeGreaterThanOrEqual(10);
    expect(suite.cases.length).toBeLessThanOrEqual(24);
    expect(suite.cases.every((c) => c.visibility === 'visible')).toBe(true);

    const game = new MancalaGame(PROFILES.kalah!.rules, 'kalah');
    // A csc384 board file, with the player the case names.
    const fromFile = byId(suite, 'midgame-csc384-file');
    const file = readBoardFile(join(basicsDir, 'boards/midgame.csc384.txt'), 'csc384');
    expect(fromFile.board).toEqual({ ...file, toMove: 1 });
    // The same board as text in the case, bottom to move.
    expect(byId(suite, 'midgame-text').board).toEqual({ ...file, toMove: 0 });
    // Moves played from the start: B2 earns a free turn, then B5.
    let s = game.initial();
    s = game.play(s, 2);
    s = game.play(s, 5);
    expect(byId(suite, 'after-opening-moves').board).toEqual(stateToBoard(game, s));
    expect(byId(suite, 'after-opening-moves').board.toMove).toBe(1);
    // The start position with the top player to move.
    expect(byId(suite, 'start-depth-2-top').board).toEqual({ top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0, toMove: 1 });
    // An inline board; options get the profile's conventions; file defaults apply.
    const endgame = byId(suite, 'endgame-capture-or-free-turn');
    expect(endgame.board).toEqual({ top: [1, 0, 3, 2, 0, 0], bottom: [0, 2, 0, 0, 1, 1], topStore: 18, bottomStore: 20, toMove: 0 });
    expect(endgame.options).toEqual({ depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: 'basic', seed: 1 });
    expect(endgame).toMatchObject({ role: 'agent', category: 'search values', points: 1, file: 'cases/positions.yaml', limits: { ms: 1000, memoryMb: 512 } });

    expect(unblessedCases(suite).map((c) => c.id)).toEqual([]);
    expect(orphanedExpected(suite)).toEqual([]);
  });

  it('kalah-basics mixes board sizes: each case plays the manifest\'s rules at its board\'s size, answered as a suite of that size answers it', async () => {
    const suite = await loadSuite(basicsDir);
    const sizes = new Map(suite.cases.map((c) => [c.id, c.board.top.length]));
    expect(sizes.get('four-pits')).toBe(4);
    expect(sizes.get('seven-pits-text')).toBe(7);
    expect(sizes.get('start-depth-2-top')).toBe(6);
    expect(caseGame(suite.manifest, byId(suite, 'four-pits'))).toMatchObject({ name: 'kalah(4,4)', rules: { ...PROFILES.kalah!.rules, pits: 4 } });
    // A case of the manifest's size plays the manifest's game itself (so its hash is as before).
    expect(caseGame(suite.manifest, byId(suite, 'start-depth-2-top'))).toBe(suite.manifest.game);

    // The same two cases in suites whose manifests say 4 and 7 pits: blessing them gives the answers kalah-basics holds.
    for (const [id, pits] of [['four-pits', 4], ['seven-pits-text', 7]] as const) {
      const dir = join(work, `sized-${pits}`);
      mkdirSync(join(dir, 'cases'), { recursive: true });
      const manifest = readFileSync(join(basicsDir, 'suite.yaml'), 'utf8').replace('pits: 6', `pits: ${pits}`);
      expect(manifest).toContain(`pits: ${pits}`);
      writeFileSync(join(dir, 'suite.yaml'), manifest);
      cpSync(join(basicsDir, 'cases/sizes.yaml'), join(dir, 'cases/sizes.yaml'));
      const sized = await loadSuite(dir);
      const blessed = await blessSuite(sized);
      expect(sized.manifest.game.name).toBe(`kalah(${pits},4)`);
      const { hash: _ignored, ...answer } = blessed.expected[id]!;
      const { hash: _hash, ...held } = suite.expected[id]!;
      expect(answer).toEqual(held);
      expect(Object.keys(answer).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('kalah-basics exercises every check, in every form', async () => {
    const suite = await loadSuite(basicsDir);
    const checks = suite.cases.map((c) => c.checks);
    for (const key of ['move', 'value', 'nodes', 'evaluations', 'trace', 'nextState', 'heuristicValue', 'time', 'playoff']) {
      expect(checks.some((c) => Object.hasOwn(c, key)), key).toBe(true);
    }
    expect(new Set(checks.flatMap((c) => (c.nodes ? [c.nodes.mode] : [])))).toEqual(new Set(['exact', 'at-most', 'ratio']));
    expect(new Set(checks.flatMap((c) => (c.trace ? [c.trace.format] : [])))).toEqual(new Set(['events', 'traverse-log']));
    expect(byId(suite, 'playoff-vs-random').checks.playoff).toEqual({ opponent: 'random', games: 6, winRate: 0.5, seed: 7, msPerMove: 200 });
    expect(byId(suite, 'heuristic-start').checks).toEqual({ heuristicValue: { reference: 'basic', tolerance: 0 } });
    expect(byId(suite, 'heuristic-start').options).toEqual({});
    // A heuristic's playoff: the reference alpha-beta's options, with the role as its heuristic.
    const heuristicPlayoff = byId(suite, 'heuristic-playoff-depth-4');
    expect(heuristicPlayoff.options).toEqual({ depth: 4, unit: 'move', terminal: 'score', caching: false, heuristic: 'role:heuristic' });
    expect(heuristicPlayoff.checks.playoff).toEqual({ opponent: 'alphabeta:depth=2', games: 6, winRate: 0.5, seed: 7, msPerMove: 500 });
    expect(byId(suite, 'nodes-ratio-caching').checks.nodes).toEqual({ mode: 'ratio', ratio: 2 });
    expect(byId(suite, 'depth-5-in-time').checks.time).toEqual({ ms: 500 });
  });

  it('hidden-example loads: hidden, one case after the due date, blessed', async () => {
    const suite = await loadSuite(hiddenDir);
    expect(suite.manifest.visibility).toBe('hidden');
    expect(suite.cases.filter((c) => c.visibility === 'after_due_date').map((c) => c.id)).toEqual(['own-heuristic-depth-3']);
    expect(suite.cases.filter((c) => c.visibility === 'hidden').length).toBe(suite.cases.length - 1);
    expect(byId(suite, 'own-heuristic-depth-3').options.heuristic).toBe('role:heuristic');
    // A file's defaults are merged field by field: the case adds a check to the defaults' two.
    expect(byId(suite, 'late-midgame-depth-6-counts').checks).toEqual({ move: true, nodes: { mode: 'exact' }, evaluations: { mode: 'exact' } });
    expect(byId(suite, 'late-midgame-depth-6-counts').limits.ms).toBe(2000);
    expect(unblessedCases(suite)).toEqual([]);
  });
});

describe('visibility: the case, else its category, else the suite', () => {
  it('a category may set it for its cases; a case (or its file\'s defaults) still overrides it', async () => {
    const dir = join(work, 'visibility-tiers');
    mkdirSync(join(dir, 'cases'), { recursive: true });
    writeFileSync(join(dir, 'suite.yaml'), MANIFEST.replace('{name: counts, weight: 5}', '{name: counts, weight: 5, visibility: after_due_date}'));
    const kase = (id: string, category: string, extra = '') => `  - {id: ${id}, role: agent, category: ${category}, position: {start: true}, options: {depth: 2}, checks: {move: true}${extra}}\n`;
    writeFileSync(join(dir, 'cases', 'all.yaml'), `cases:\n${kase('v1', 'values')}${kase('c1', 'counts')}${kase('c2', 'counts', ', visibility: hidden')}`);
    const suite = await loadSuite(dir);
    expect(Object.fromEntries(suite.cases.map((c) => [c.id, c.visibility]))).toEqual({ v1: 'visible', c1: 'after_due_date', c2: 'hidden' });
    expect(suite.manifest.categories.map((c) => c.visibility)).toEqual([undefined, 'after_due_date']);
  });
});

// ---- malformed suites ---------------------------------------------------------------------------

const MANIFEST = `name: t
game: {profile: kalah}
visibility: visible
roles:
  agent: {kind: agent, files: [agent.ts], reference: alphabeta}
  heuristic: {kind: heuristic, files: [heuristic.ts], reference: basic}
categories:
  - {name: values, weight: 10}
  - {name: counts, weight: 5}
`;

const GOOD_CASE = `id: good
role: agent
category: values
position: {start: true}
options: {depth: 2}
checks: {move: true}
`;

interface Malformed {
  name: string;
  /** files of the suite folder; suite.yaml defaults to MANIFEST, cases/good.yaml to GOOD_CASE */
  files: Record<string, string>;
  /** the message, with $ for the suite folder */
  message: string;
}

/** A case file of several cases whose second case is `body` (indented under the list). */
function secondCase(body: string): string {
  const indented = body
    .trim()
    .split('\n')
    .map((l, i) => (i === 0 ? `  - ${l}` : `    ${l}`))
    .join('\n');
  return `cases:\n  - id: first\n    role: agent\n    category: values\n    checks: {move: true}\n${indented}\n`;
}

const AGENT_CASE = (extra: string) => `id: bad\nrole: agent\ncategory: values\n${extra}`;
const HEURISTIC_CASE = (extra: string) => `id: bad\nrole: heuristic\ncategory: values\n${extra}`;

const MALFORMED: Malformed[] = [
  // the manifest
  {
    name: 'no manifest',
    files: { 'suite.yaml': '' },
    message: '$/suite.yaml: expected a suite manifest, but the file is empty',
  },
  {
    name: 'YAML syntax',
    files: { 'suite.yaml': 'name: t\ngame: [kalah\nvisibility: visible\n' },
    message: '$/suite.yaml:3: expected valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ])',
  },
  {
    name: 'misspelt manifest field',
    files: { 'suite.yaml': MANIFEST.replace('visibility:', 'visibilty:') },
    message:
      '$/suite.yaml:3: visibilty: unknown field: expected one of name, description, game, roles, categories, limits, visibility, cases, node_counts (did you mean "visibility"?)',
  },
  {
    name: 'missing visibility',
    files: { 'suite.yaml': MANIFEST.replace('visibility: visible\n', '') },
    message: '$/suite.yaml:1: visibility: expected one of visible, hidden, after_due_date, but it is missing',
  },
  {
    name: 'unknown profile',
    files: { 'suite.yaml': MANIFEST.replace('{profile: kalah}', '{profile: kalahh}') },
    message: `$/suite.yaml:2: game.profile: expected a rules profile: ${Object.keys(PROFILES).join(', ')}, got "kalahh"`,
  },
  {
    name: 'pits out of range',
    files: { 'suite.yaml': MANIFEST.replace('{profile: kalah}', '{profile: kalah, pits: 30}') },
    message: '$/suite.yaml:2: game.pits: expected pits a side: a whole number from 1 to 20, got 30',
  },
  {
    name: 'negative weight',
    files: { 'suite.yaml': MANIFEST.replace('weight: 5', 'weight: -5') },
    message: '$/suite.yaml:9: categories[1].weight: expected the weight (points in the total): a number ≥ 0, got -5',
  },
  {
    name: 'duplicate category',
    files: { 'suite.yaml': MANIFEST.replace('name: counts', 'name: values') },
    message: '$/suite.yaml:9: categories[1].name: duplicate category "values" (also categories[0])',
  },
  {
    name: 'unknown reference agent',
    files: { 'suite.yaml': MANIFEST.replace('reference: alphabeta', 'reference: alphabta') },
    message:
      '$/suite.yaml:5: roles.agent.reference: agent spec "alphabta": unknown agent "alphabta": expected one of random, greedy, minimax, alphabeta, ids, strong, perfect, simple, advanced',
  },
  {
    name: 'bad reference option',
    files: { 'suite.yaml': MANIFEST.replace('reference: alphabeta', 'reference: "alphabeta:depth=x"') },
    message: '$/suite.yaml:5: roles.agent.reference: agent spec "alphabeta:depth=x": option "depth" expects a whole number ≥ 0, or -1 for no limit, got "x"',
  },
  {
    name: 'unknown reference heuristic',
    files: { 'suite.yaml': MANIFEST.replace('reference: basic', 'reference: fancy') },
    message: '$/suite.yaml:6: roles.heuristic.reference: expected a reference heuristic (basic, advanced, cpsc4610-provided), got "fancy"',
  },
  {
    name: 'bad role kind',
    files: { 'suite.yaml': MANIFEST.replace('kind: agent', 'kind: agnet') },
    message: '$/suite.yaml:5: roles.agent.kind: expected agent or heuristic, got "agnet"',
  },
  {
    name: 'memory limit too small',
    files: { 'suite.yaml': `${MANIFEST}limits: {ms: 500, memory_mb: 8}\n` },
    message: '$/suite.yaml:10: limits.memory_mb: expected the memory limit in MB: a whole number ≥ 16, got 8',
  },
  {
    name: 'no case files',
    files: { 'suite.yaml': `${MANIFEST}cases: [tests/*.yaml]\n` },
    message: '$/suite.yaml: cases: no case files match tests/*.yaml in $',
  },
  // case files
  {
    name: 'count check spelt wrong',
    files: { 'cases/a.yaml': secondCase('id: second\nrole: agent\ncategory: counts\nchecks:\n  nodes: exactly') },
    message: '$/cases/a.yaml:10: cases[1].checks.nodes: expected exact, at-most or {ratio: N}, got "exactly"',
  },
  {
    name: 'ratio below 1',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {nodes: {ratio: 0.5}}\n') },
    message: '$/cases/a.yaml:4: checks.nodes.ratio: expected the ratio: a number ≥ 1, got 0.5',
  },
  {
    name: 'misspelt check',
    files: { 'cases/a.yaml': AGENT_CASE('checks:\n  move: true\n  nodess: exact\n') },
    message:
      '$/cases/a.yaml:6: checks.nodess: unknown field: expected one of move, value, quality, nodes, evaluations, trace, next_state, heuristic_value, time, playoff (did you mean "nodes"?)',
  },
  {
    name: 'camelCase check',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {nextState: true}\n') },
    message:
      '$/cases/a.yaml:4: checks.nextState: unknown field: expected one of move, value, quality, nodes, evaluations, trace, next_state, heuristic_value, time, playoff (did you mean "next_state"? fields are snake_case)',
  },
  {
    name: 'unknown category',
    files: { 'cases/a.yaml': 'id: bad\nrole: agent\ncategory: value\nchecks: {move: true}\n' },
    message: '$/cases/a.yaml:3: category: expected one of the suite\'s categories (values, counts), got "value"',
  },
  {
    name: 'unknown role',
    files: { 'cases/a.yaml': 'id: bad\nrole: agnt\ncategory: values\nchecks: {move: true}\n' },
    message: '$/cases/a.yaml:2: role: expected one of the suite\'s roles (agent, heuristic), got "agnt"',
  },
  {
    name: 'missing role with several roles',
    files: { 'cases/a.yaml': 'id: bad\ncategory: values\nchecks: {move: true}\n' },
    message: '$/cases/a.yaml:1: role: expected a role (the suite has several: agent, heuristic), but it is missing',
  },
  {
    name: 'duplicate id across files',
    files: { 'cases/b.json': '{\n  "id": "good",\n  "role": "agent",\n  "category": "values",\n  "checks": {"move": true}\n}\n' },
    message: '$/cases/good.yaml:1: id: duplicate case id "good": also the id of a case in $/cases/b.json',
  },
  {
    name: 'bad id',
    files: { 'cases/a.yaml': 'id: "bad id"\nrole: agent\ncategory: values\nchecks: {move: true}\n' },
    message: '$/cases/a.yaml:1: id: expected a case id: letters, digits, ".", "_" and "-", starting with a letter or digit, got "bad id"',
  },
  {
    name: 'two position sources',
    files: { 'cases/a.yaml': AGENT_CASE('position: {start: true, file: b.txt}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: position: expected one of start, board, file, text, tictactoe, got both start and file',
  },
  {
    name: 'board whose rows differ in size',
    files: {
      'cases/a.yaml': AGENT_CASE('position:\n  board:\n    top: [4, 4, 4, 4, 4]\n    bottom: [4, 4, 4, 4, 4, 4]\n    top_store: 0\n    bottom_store: 0\nchecks: {move: true}\n'),
    },
    message: '$/cases/a.yaml:7: position.board.bottom: expected as many pits as top (5), got 6',
  },
  {
    name: 'board text whose rows differ in size',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  format: csc384\n  text: "4,4,4\\n4,4,4,4\\n0\\n0\\n"\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:6: position.text: line 2 of the text: expected 3 pockets (as many as line 1), got 4',
  },
  {
    name: 'board file of more pits than a board has',
    files: {
      'cases/a.yaml': AGENT_CASE('position: {file: big.json}\nchecks: {move: true}\n'),
      'cases/big.json': JSON.stringify({ top: Array(21).fill(1), bottom: Array(21).fill(1), top_store: 0, bottom_store: 0 }),
    },
    message: '$/cases/a.yaml:4: position.file: $/cases/big.json: field "top": expected a list of 1 to 20 pit counts, got a list of 21',
  },
  {
    name: 'board with a negative count',
    files: {
      'cases/a.yaml': AGENT_CASE('position:\n  board:\n    top: [4, 4, 4, 4, 4, 4]\n    bottom: [4, 4, -4, 4, 4, 4]\n    top_store: 0\n    bottom_store: 0\nchecks: {move: true}\n'),
    },
    message: '$/cases/a.yaml:7: position.board.bottom[2]: expected a stone count: a whole number from 0 to 40000, got -4',
  },
  {
    name: 'player contradicts the board',
    files: {
      'cases/a.yaml': AGENT_CASE(
        'player: top\nposition:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], top_store: 0, bottom_store: 0, to_move: bottom}\nchecks: {move: true}\n',
      ),
    },
    message: '$/cases/a.yaml:4: player: says top, but position.board.to_move says bottom: give one of them',
  },
  {
    name: 'player contradicts a JSON-form board',
    files: {
      'cases/a.yaml': AGENT_CASE('player: top\nposition:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], stores: {top: 0, bottom: 0}, toMove: bottom}\nchecks: {move: true}\n'),
    },
    message: '$/cases/a.yaml:4: player: says top, but position.board.toMove says bottom: give one of them',
  },
  {
    name: 'board mixing the two forms (stores with to_move)',
    files: {
      'cases/a.yaml': AGENT_CASE('position:\n  board:\n    top: [4, 4, 4, 4, 4, 4]\n    bottom: [4, 4, 4, 4, 4, 4]\n    to_move: top\n    stores: {top: 0, bottom: 0}\nchecks: {move: true}\n'),
    },
    message:
      '$/cases/a.yaml:9: position.board.stores: mixes two board forms (this board also has to_move): write top_store, bottom_store and to_move, or stores: {top, bottom} and toMove as a JSON board file does',
  },
  {
    name: 'board mixing the two forms (top_store with toMove)',
    files: {
      'cases/a.json':
        '{\n  "id": "bad", "role": "agent", "category": "values", "checks": {"move": true},\n  "position": {"board": {\n    "top": [4, 4, 4, 4, 4, 4], "bottom": [4, 4, 4, 4, 4, 4],\n    "top_store": 0, "bottom_store": 0,\n    "toMove": "top"\n  }}\n}\n',
    },
    message:
      '$/cases/a.json:6: position.board.toMove: mixes two board forms (this board also has top_store): write top_store, bottom_store and to_move, or stores: {top, bottom} and toMove as a JSON board file does',
  },
  {
    name: 'JSON-form board without its stores',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], toMove: top}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:5: position.board.stores: expected the stores: {top, bottom} (with toMove, as in a JSON board file), but it is missing',
  },
  {
    name: 'JSON-form board missing a store',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], stores: {top: 0}}\nchecks: {move: true}\n') },
    message: "$/cases/a.yaml:5: position.board.stores.bottom: expected the bottom player's store: a whole number from 0 to 40000, but it is missing",
  },
  {
    name: 'JSON-form board with a misspelt store',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], stores: {top: 0, botom: 0}}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:5: position.board.stores.botom: unknown field: expected one of top, bottom (did you mean "bottom"?)',
  },
  {
    name: 'JSON-form board with a bad toMove',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], stores: {top: 0, bottom: 0}, toMove: up}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:5: position.board.toMove: expected bottom or top, got "up"',
  },
  {
    name: 'case-form board without a store',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], top_store: 0}\nchecks: {move: true}\n') },
    message: "$/cases/a.yaml:5: position.board.bottom_store: expected the bottom player's store (or, as in a JSON board file, stores: {top, bottom}), but it is missing",
  },
  {
    name: 'illegal move',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  start: true\n  moves: [B2, B9]\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:6: position.moves[1]: expected a legal move for bottom here: one of B0 (index 0), B1 (index 1), B3 (index 3), B4 (index 4), B5 (index 5); got "B9"',
  },
  {
    name: 'missing board file',
    files: { 'cases/a.yaml': AGENT_CASE('position: {file: ../boards/none.txt}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: position.file: $/boards/none.txt: cannot read the board file: no such file',
  },
  {
    name: 'malformed board file',
    files: {
      'boards/b.txt': '4,4,4,4,4,4\n4,4,x,4,4,4\n0\n0\n',
      'cases/a.yaml': AGENT_CASE('position: {file: ../boards/b.txt, format: csc384}\nchecks: {move: true}\n'),
    },
    message: '$/cases/a.yaml:4: position.file: $/boards/b.txt:2: expected the bottom pockets as whole numbers separated by commas, got "4,4,x,4,4,4"',
  },
  {
    name: 'malformed board text',
    files: { 'cases/a.yaml': AGENT_CASE('position:\n  format: csc384\n  text: "4,4,4,4,4,4\\n4,4,4\\n0\\n0\\n"\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:6: position.text: line 2 of the text: expected 6 pockets (as many as line 1), got 3',
  },
  {
    name: 'board text without a format',
    files: { 'cases/a.yaml': AGENT_CASE('position: {text: "4,4,4,4,4,4"}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: position.format: expected the format of the board text (json, csc384, csci561), but it is missing',
  },
  {
    name: 'finished game for an agent',
    files: {
      'cases/a.yaml': AGENT_CASE('position:\n  board: {top: [0, 0, 0, 0, 0, 0], bottom: [1, 0, 0, 0, 0, 0], top_store: 20, bottom_store: 27}\nchecks: {move: true}\n'),
    },
    message: '$/cases/a.yaml:4: position: the game is over in this position: an agent has no move to choose',
  },
  {
    name: 'heuristic check on an agent',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {move: true, heuristic_value: true}\n') },
    message: '$/cases/a.yaml:4: checks.heuristic_value: does not apply to an agent role ("agent"): expected one of move, value, quality, nodes, evaluations, trace, next_state, time, playoff',
  },
  {
    name: 'node count on a heuristic',
    files: { 'cases/a.yaml': HEURISTIC_CASE('checks: {heuristic_value: true, nodes: exact}\n') },
    message: '$/cases/a.yaml:4: checks.nodes: does not apply to a heuristic role ("heuristic"): expected one of heuristic_value, time, playoff',
  },
  {
    name: "a heuristic playoff's option the reference alpha-beta does not take",
    files: { 'cases/a.yaml': HEURISTIC_CASE('options: {depth: 3, heuristic: basic}\nchecks:\n  playoff: {opponent: alphabeta:depth=2, games: 4, win_rate: 0.5}\n') },
    message:
      '$/cases/a.yaml:4: options.heuristic: role "heuristic" is a heuristic: a playoff case\'s options are the reference alpha-beta\'s (depth, unit, terminal, caching), which plays with role:heuristic',
  },
  {
    name: 'a heuristic playoff without a depth limit',
    files: { 'cases/a.yaml': HEURISTIC_CASE('options: {depth: -1}\nchecks:\n  playoff: {opponent: alphabeta:depth=2, games: 4, win_rate: 0.5}\n') },
    message: "$/cases/a.yaml:4: options.depth: expected the reference alpha-beta's depth: a whole number ≥ 1 (a playoff needs a depth limit), got -1",
  },
  {
    name: 'a heuristic playoff from a finished game',
    files: {
      'cases/a.yaml': HEURISTIC_CASE(
        'position:\n  board: {top: [0, 0, 0, 0, 0, 0], bottom: [1, 0, 0, 0, 0, 0], top_store: 20, bottom_store: 27}\nchecks:\n  playoff: {opponent: random, games: 2, win_rate: 0.5}\n',
      ),
    },
    message: '$/cases/a.yaml:4: position: the game is over in this position: a playoff has no game to play',
  },
  {
    name: 'a bad opponent of a heuristic playoff',
    files: { 'cases/a.yaml': HEURISTIC_CASE('checks:\n  playoff: {opponent: "alphabeta:depth=x", games: 4, win_rate: 0.5}\n') },
    message: '$/cases/a.yaml:5: checks.playoff.opponent: agent spec "alphabeta:depth=x": option "depth" expects a whole number ≥ 0, or -1 for no limit, got "x"',
  },
  {
    name: 'options on a heuristic',
    files: { 'cases/a.yaml': HEURISTIC_CASE('options: {depth: 3}\nchecks: {heuristic_value: true}\n') },
    message: '$/cases/a.yaml:4: options.depth: role "heuristic" is a heuristic: its cases evaluate the position and take no options',
  },
  {
    name: 'no checks',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {move: false}\n') },
    message:
      '$/cases/a.yaml:4: checks: expected at least one check (move, value, quality, nodes, evaluations, trace, next_state, time, playoff) for role "agent", but none is on',
  },
  {
    name: 'a reference heuristic the sandbox does not hold',
    files: { 'cases/a.yaml': AGENT_CASE('options: {heuristic: advanced}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: options.heuristic: expected a heuristic the sandbox offers: basic, cpsc4610-provided, or role:heuristic; got "advanced"',
  },
  {
    name: 'unknown heuristic role',
    files: { 'cases/a.yaml': AGENT_CASE('options: {heuristic: "role:h"}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: options.heuristic: expected a heuristic role of the suite (basic, cpsc4610-provided, or role:heuristic), got "role:h"',
  },
  {
    name: 'fractional depth',
    files: { 'cases/a.yaml': AGENT_CASE('options: {depth: 2.5}\nchecks: {move: true}\n') },
    message: '$/cases/a.yaml:4: options.depth: expected a depth: a whole number ≥ 0, or -1 or null for no limit, got 2.5',
  },
  {
    name: 'bad playoff opponent',
    files: { 'cases/a.yaml': AGENT_CASE('checks:\n  playoff: {opponent: randm, games: 4, win_rate: 0.5}\n') },
    message:
      '$/cases/a.yaml:5: checks.playoff.opponent: agent spec "randm": unknown agent "randm": expected one of random, greedy, minimax, alphabeta, ids, strong, perfect, simple, advanced',
  },
  {
    name: 'win rate above 1',
    files: { 'cases/a.yaml': AGENT_CASE('checks:\n  playoff: {opponent: random, games: 4, win_rate: 50}\n') },
    message: '$/cases/a.yaml:5: checks.playoff.win_rate: expected the win rate: a number from 0 to 1, got 50',
  },
  {
    name: 'traverse log with caching',
    files: { 'cases/a.yaml': AGENT_CASE('options: {depth: 2, caching: true}\nchecks: {trace: traverse-log}\n') },
    message: '$/cases/a.yaml:5: checks.trace: traverse-log needs options.caching false: a cache hit hides a subtree the log must show',
  },
  {
    name: 'trace of a reference that does not search',
    files: {
      'suite.yaml': MANIFEST.replace('reference: alphabeta', 'reference: random'),
      'cases/good.yaml': AGENT_CASE('checks: {trace: true}\n'),
    },
    message: '$/cases/good.yaml:4: checks.trace: needs a reference that traces its search (greedy, minimax, alphabeta); role "agent" has random',
  },
  {
    name: 'time over the case limit',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {time: 5000}\n') },
    message: "$/cases/a.yaml:4: checks.time: expected at most the case's time limit (1000 ms; over it the case is a timeout), got 5000",
  },
  {
    name: 'error in the defaults',
    files: { 'cases/a.yaml': 'defaults:\n  category: valeus\n  role: agent\ncases:\n  - id: x\n    checks: {move: true}\n' },
    message: '$/cases/a.yaml:2: defaults.category: expected one of the suite\'s categories (values, counts), got "valeus"',
  },
  {
    name: 'id in the defaults',
    files: { 'cases/a.yaml': 'defaults:\n  id: x\ncases:\n  - id: y\n' },
    message:
      '$/cases/a.yaml:2: defaults.id: unknown field: expected one of description, category, role, position, player, options, checks, node_counts, points, limits, visibility',
  },
  // node_counts: graded or informational, in the manifest or a case
  {
    name: 'node_counts in the manifest: not a policy',
    files: { 'suite.yaml': `${MANIFEST}node_counts: info\n` },
    message:
      '$/suite.yaml:10: node_counts: expected graded (a wrong node count fails the case) or informational (the count is reported, not graded), got "info"',
  },
  {
    name: 'node_counts misspelt in the manifest',
    files: { 'suite.yaml': `${MANIFEST}node_count: graded\n` },
    message:
      '$/suite.yaml:10: node_count: unknown field: expected one of name, description, game, roles, categories, limits, visibility, cases, node_counts (did you mean "node_counts"?)',
  },
  {
    name: 'node_counts in a case: not a policy',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {nodes: exact}\nnode_counts: true\n') },
    message: '$/cases/a.yaml:5: node_counts: expected graded (a wrong node count fails the case) or informational (the count is reported, not graded), got true',
  },
  {
    name: 'node_counts in a case that checks no node count',
    files: { 'cases/a.yaml': AGENT_CASE('checks: {move: true}\nnode_counts: informational\n') },
    message: '$/cases/a.yaml:5: node_counts: applies to a case with a nodes check, and this case checks no node count',
  },
  {
    name: 'JSON syntax',
    files: { 'cases/a.json': '{\n  "id": "x",\n  "checks": {"move": true,}\n}\n' },
    message: '$/cases/a.json:3: expected valid JSON (Expected double-quoted property name)',
  },
  {
    name: 'JSON field error has its line',
    files: { 'cases/a.json': '{\n  "id": "x",\n  "role": "agent",\n  "category": "values",\n  "checks": {"move": "yes"}\n}\n' },
    message: '$/cases/a.json:5: checks.move: expected true or false, got "yes"',
  },
  {
    name: 'empty case file',
    files: { 'cases/a.yaml': '# nothing yet\n' },
    message: '$/cases/a.yaml: expected a case, a list of cases, or {defaults, cases}, but the file is empty',
  },
  {
    name: 'duplicate YAML key',
    files: { 'cases/a.yaml': 'id: a\nid: b\n' },
    message: '$/cases/a.yaml:2: expected valid YAML (Map keys must be unique)',
  },
  {
    name: 'malformed expected.json',
    files: { 'expected.json': '{\n  "good": {"hash": 5}\n}\n' },
    message: '$/expected.json:2: good.hash: expected the hash of the blessed case, got 5',
  },
];

function writeSuite(dir: string, files: Record<string, string>): void {
  const all = { 'suite.yaml': MANIFEST, 'cases/good.yaml': GOOD_CASE, ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('malformed suites: one line naming the file, the line and the field', () => {
  it('the base suite of the table is valid', async () => {
    const dir = join(work, 'base');
    writeSuite(dir, {});
    const suite = await loadSuite(dir);
    expect(suite.cases.map((c) => c.id)).toEqual(['good']);
  });

  it.each(MALFORMED.map((m, i) => [m.name, i] as const))('%s', async (_name, i) => {
    const m = MALFORMED[i]!;
    const dir = join(work, `malformed-${i}`);
    writeSuite(dir, m.files);
    const error = await loadSuite(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    const message = (error as UserError).message;
    expect(message).not.toContain('\n');
    expect(message).toBe(m.message.replaceAll('$', dir));
  });

  it('a folder without a manifest', async () => {
    const dir = join(work, 'no-manifest');
    mkdirSync(dir, { recursive: true });
    await expect(loadSuite(dir)).rejects.toThrow(`${dir}: not a suite folder: expected a manifest, suite.yaml or suite.yml or suite.json`);
    await expect(loadSuite(join(work, 'nowhere'))).rejects.toThrow(`${join(work, 'nowhere')}: no such suite folder`);
  });

  it("a folder of the course's own files: says it is graded with csci561-grade", async () => {
    const dir = join(work, 'course-files');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'testInput_1.txt'), '1\n1\n2\n1 1 1\n1 1 1\n0\n0\n');
    await expect(loadSuite(dir)).rejects.toThrow(
      `${dir}: not a suite folder: expected a manifest, suite.yaml or suite.yml or suite.json (it holds the course's testInput_K.txt files: grade programs on it with \`mancala csci561-grade\`)`,
    );
  });

  it('names files relative to the folder as it was given', async () => {
    writeSuite(join(work, 'relative'), { 'cases/a.yaml': AGENT_CASE('checks: {move: maybe}\n') });
    const cwd = process.cwd();
    process.chdir(work);
    try {
      await expect(loadSuite('relative')).rejects.toThrow(/^relative\/cases\/a\.yaml:4: checks\.move: expected true or false, got "maybe"$/);
      await expect(loadSuite('./relative/')).rejects.toThrow(/^relative\/cases\/a\.yaml:4: /);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('inline boards: one board form everywhere', () => {
  it("a case's board may be written as a JSON board file writes it (stores, toMove), and a JSON board file or text as a case writes it", async () => {
    const dir = join(work, 'board-forms');
    const caseForm = '{top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], top_store: 9, bottom_store: 10, to_move: top}';
    const jsonForm = '{"top": [0, 5, 1, 6, 2, 0], "bottom": [3, 0, 7, 1, 0, 4], "stores": {"top": 9, "bottom": 10}, "toMove": "top"}';
    const snakeJson = '{"top": [0, 5, 1, 6, 2, 0], "bottom": [3, 0, 7, 1, 0, 4], "top_store": 9, "bottom_store": 10, "to_move": "top"}';
    const kase = (id: string, position: string) => `  - id: ${id}\n    position: ${position}\n`;
    writeSuite(dir, {
      'cases/good.yaml': GOOD_CASE,
      'cases/forms.yaml':
        'defaults: {role: agent, category: values, options: {depth: 2}, checks: {move: true}}\ncases:\n' +
        kase('case-form', `{board: ${caseForm}}`) +
        kase('json-form', `{board: ${jsonForm}}`) +
        kase('json-form-four-pits', '{board: {top: [1, 2, 3, 4], bottom: [4, 3, 2, 1], stores: {top: 0, bottom: 1}}}') +
        kase('json-text-case-form', `{format: json, text: '${snakeJson}'}`) +
        kase('json-file-case-form', '{file: ../boards/snake.json}'),
      'boards/snake.json': snakeJson,
    });
    const suite = await loadSuite(dir);
    const expected = { top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], topStore: 9, bottomStore: 10, toMove: 1 };
    for (const id of ['case-form', 'json-form', 'json-text-case-form', 'json-file-case-form']) expect(byId(suite, id).board, id).toEqual(expected);
    // the form is how the file says it, not part of the case: the same board is the same case
    expect(caseHash(byId(suite, 'json-form'), suite.manifest)).toBe(caseHash(byId(suite, 'case-form'), suite.manifest));
    // a board's length still sets its case's size; no toMove: the bottom player moves
    expect(byId(suite, 'json-form-four-pits').board).toEqual({ top: [1, 2, 3, 4], bottom: [4, 3, 2, 1], topStore: 0, bottomStore: 1, toMove: 0 });
    expect(caseGame(suite.manifest, byId(suite, 'json-form-four-pits'))).toMatchObject({ name: 'kalah(4,4)' });
  });
});

// ---- staleness ----------------------------------------------------------------------------------

describe('staleness', () => {
  it('a case edited since it was blessed is not blessed; a description or points change is no edit', async () => {
    const dir = join(work, 'stale');
    cpSync(basicsDir, dir, { recursive: true });
    const before = await loadSuite(dir);
    expect(unblessedCases(before)).toEqual([]);

    const file = join(dir, 'cases/counts.yaml');
    const text = readFileSync(file, 'utf8');
    // The depth of one case: its answers change.
    writeFileSync(file, text.replace('options: {depth: 3}', 'options: {depth: 4}'));
    let suite = await loadSuite(dir);
    expect(unblessedCases(suite).map((c) => c.id)).toEqual(['nodes-exact-depth-3']);

    // Back, plus a new description and points: nothing to bless.
    writeFileSync(file, text.replace('  - id: nodes-exact-depth-3\n', '  - id: nodes-exact-depth-3\n    description: new words\n    points: 3\n'));
    suite = await loadSuite(dir);
    expect(unblessedCases(suite)).toEqual([]);
    expect(byId(suite, 'nodes-exact-depth-3').points).toBe(3);

    // A board file the case reads: the resolved position changes, so the case is stale.
    const board = join(dir, 'boards/endgame.json');
    writeFileSync(board, readFileSync(board, 'utf8').replace('"top": 21', '"top": 22'));
    suite = await loadSuite(dir);
    expect(unblessedCases(suite).map((c) => c.id).sort()).toEqual(['endgame-json-file', 'trace-events-depth-2', 'traverse-log-depth-3']);
  });

  it('the game and the role reference are part of every hash', async () => {
    const suite = await loadSuite(basicsDir);
    const c = byId(suite, 'start-depth-4');
    const hash = caseHash(c, suite.manifest);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(caseHash(structuredClone(c), structuredClone(suite.manifest))).toBe(hash);
    const otherGame = { ...suite.manifest, game: { ...suite.manifest.game, profile: 'kalah-empty-capture' } as typeof suite.manifest.game };
    expect(caseHash(c, otherGame)).not.toBe(hash);
    const otherReference = { ...suite.manifest, roles: { ...suite.manifest.roles, agent: { ...suite.manifest.roles.agent!, reference: 'minimax' } } };
    expect(caseHash(c, otherReference)).not.toBe(hash);
    expect(caseHash({ ...c, options: { ...c.options, depth: 5 } }, suite.manifest)).not.toBe(hash);
    expect(caseHash({ ...c, description: 'x', points: 9, visibility: 'hidden' }, suite.manifest)).toBe(hash);
    // isBlessed compares with expected.json's entry.
    expect(isBlessed(suite, c)).toBe(true);
    expect(isBlessed({ ...suite, expected: {} }, c)).toBe(false);
  });

  it('an entry whose case is gone is reported as orphaned', async () => {
    const suite = await loadSuite(basicsDir);
    const extra = { ...suite, expected: { ...suite.expected, 'gone-case': { hash: '0' } } };
    expect(orphanedExpected(extra)).toEqual(['gone-case']);
  });
});

describe('node_counts: whether a wrong node count fails a case', () => {
  const counted = (id: string) => `  - id: ${id}\n    role: agent\n    category: counts\n    options: {depth: 2}\n    checks: {move: true, nodes: exact}\n`;

  it('graded unless the manifest or the case says informational; the case (or its file\'s defaults) over the manifest; only on cases that check nodes', async () => {
    const dir = join(work, 'node-counts');
    writeSuite(dir, {
      'cases/counts.yaml': `cases:\n${counted('plain')}${counted('graded-here')}    node_counts: graded\n${counted('informational-here')}    node_counts: informational\n`,
      'cases/defaults.yaml': `defaults: {node_counts: graded}\ncases:\n${counted('from-defaults')}  - {id: no-nodes, role: agent, category: values, checks: {move: true}}\n`,
    });
    const policies = (suite: Suite) => Object.fromEntries(suite.cases.map((c) => [c.id, c.nodeCounts]));
    let suite = await loadSuite(dir);
    expect(suite.manifest.nodeCounts).toBeUndefined();
    expect(policies(suite)).toEqual({
      'plain': 'graded',
      'graded-here': 'graded',
      'informational-here': 'informational',
      'from-defaults': 'graded',
      'no-nodes': undefined,
      'good': undefined,
    });

    writeFileSync(join(dir, 'suite.yaml'), `${MANIFEST}node_counts: informational\n`);
    suite = await loadSuite(dir);
    expect(suite.manifest.nodeCounts).toBe('informational');
    expect(policies(suite)).toEqual({
      'plain': 'informational',
      'graded-here': 'graded',
      'informational-here': 'informational',
      'from-defaults': 'graded',
      'no-nodes': undefined,
      'good': undefined,
    });
  });

  it('is not part of a case\'s hash: it changes no expected answer, so switching it needs no bless', async () => {
    const suite = await loadSuite(basicsDir);
    const c = byId(suite, 'nodes-exact-depth-3');
    expect(c.nodeCounts).toBe('graded');
    expect(caseHash({ ...c, nodeCounts: 'informational' }, suite.manifest)).toBe(caseHash(c, suite.manifest));
    expect(caseHash(c, { ...suite.manifest, nodeCounts: 'informational' })).toBe(caseHash(c, suite.manifest));
  });

  it('--node-counts: every case that checks nodes set for the run, with a note saying how many changed', async () => {
    const suite = await loadSuite(basicsDir);
    const checking = suite.cases.filter((c) => c.checks.nodes !== undefined);
    expect(checking.length).toBeGreaterThan(0);

    const same = withNodeCounts(suite, 'graded');
    expect(same.suite).toBe(suite);
    expect(same.changed).toEqual([]);
    expect(nodeCountsNote('graded', same.changed)).toBeUndefined();

    const { suite: informational, changed } = withNodeCounts(suite, 'informational');
    expect(changed.map((c) => c.id)).toEqual(checking.map((c) => c.id));
    expect(informational.cases.filter((c) => c.nodeCounts === 'informational').map((c) => c.id)).toEqual(checking.map((c) => c.id));
    expect(informational.cases.filter((c) => c.checks.nodes === undefined).every((c) => c.nodeCounts === undefined)).toBe(true);
    // the loaded suite is left as it was, and stays blessed
    expect(suite.cases.every((c) => c.nodeCounts !== 'informational')).toBe(true);
    expect(unblessedCases(informational)).toEqual([]);
    expect(nodeCountsNote('informational', changed)).toBe(
      `node counts informational for this run (--node-counts informational): in ${changed.length} cases whose suite grades them, a wrong count is reported and fails nothing`,
    );
    const back = withNodeCounts(informational, 'graded');
    expect(nodeCountsNote('graded', back.changed.slice(0, 1))).toBe(
      'node counts graded for this run (--node-counts graded): in 1 case whose suite has them informational, a wrong count fails the case',
    );
  });
});

describe('playoffs of heuristic roles', () => {
  it('take the reference alpha-beta\'s depth (default 4), unit, terminal and caching; the profile fills the rest', async () => {
    const dir = join(work, 'heuristic-playoffs');
    writeSuite(dir, {
      'suite.yaml': MANIFEST.replace('game: {profile: kalah}', 'game: {profile: csc384}'),
      'cases/a.yaml': `- id: plain
  role: heuristic
  category: values
  checks:
    playoff: {opponent: alphabeta:depth=4, games: 20, win_rate: 0.5}
- id: deeper
  role: heuristic
  category: values
  options: {depth: 6, unit: turn, caching: true}
  checks:
    heuristic_value: true
    playoff: {opponent: alphabeta:depth=2, games: 4, win_rate: 0.75, seed: 3, ms_per_move: 300}
`,
    });
    const suite = await loadSuite(dir);
    // csc384: no depth limit by default, so the playoff's own default depth; the stores as they stand.
    expect(byId(suite, 'plain').options).toEqual({ depth: 4, unit: 'move', terminal: 'heuristic', caching: false, heuristic: 'role:heuristic' });
    expect(byId(suite, 'plain').checks).toEqual({ playoff: { opponent: 'alphabeta:depth=4', games: 20, winRate: 0.5, seed: 1, msPerMove: 1000 } });
    expect(byId(suite, 'deeper').options).toEqual({ depth: 6, unit: 'turn', terminal: 'heuristic', caching: true, heuristic: 'role:heuristic' });
    expect(byId(suite, 'deeper').checks).toEqual({
      heuristicValue: { reference: 'basic', tolerance: 0 },
      playoff: { opponent: 'alphabeta:depth=2', games: 4, winRate: 0.75, seed: 3, msPerMove: 300 },
    });
    // The search options are part of the hash: another depth is another case.
    const other = { ...byId(suite, 'deeper'), options: { ...byId(suite, 'deeper').options, depth: 5 } };
    expect(caseHash(other, suite.manifest)).not.toBe(caseHash(byId(suite, 'deeper'), suite.manifest));
  });

  it('apply to Mancala suites only', async () => {
    const dir = join(work, 'ttt-heuristic-playoff');
    writeSuite(dir, {
      'suite.yaml': 'name: t\ngame: tictactoe\nvisibility: hidden\nroles:\n  h: {kind: heuristic, files: h.ts, reference: basic}\ncategories: [{name: values, weight: 1}]\n',
      'cases/good.yaml': 'id: good\ncategory: values\nchecks:\n  playoff: {opponent: random, games: 2, win_rate: 0.5}\n',
    });
    await expect(loadSuite(dir)).rejects.toThrow(
      `${dir}/cases/good.yaml:4: checks.playoff: applies to Mancala suites (the reference alpha-beta plays Mancala games with the heuristic)`,
    );
  });
});

describe('Tic-Tac-Toe suites', () => {
  it('load a board string and moves', async () => {
    const dir = join(work, 'ttt');
    writeSuite(dir, {
      'suite.yaml': 'name: t\ngame: tictactoe\nvisibility: hidden\nroles:\n  agent: {kind: agent, files: agent.ts, reference: minimax}\ncategories: [{name: values, weight: 1}]\n',
      'cases/good.yaml': 'id: good\ncategory: values\nposition: {tictactoe: "XO_/___/___", moves: [4]}\nchecks: {move: true, value: true}\n',
    });
    const suite = await loadSuite(dir);
    const c = suite.cases[0]!;
    expect(c.tictactoe).toBe('XO_/_X_/___');
    expect(c.board.toMove).toBe(1);
    expect(c.role).toBe('agent');
    expect(c.options).toMatchObject({ depth: null, unit: 'move', terminal: 'score' });
  });

  it('reject a Mancala board', async () => {
    const dir = join(work, 'ttt-bad');
    writeSuite(dir, {
      'suite.yaml': 'name: t\ngame: tictactoe\nvisibility: hidden\nroles:\n  agent: {kind: agent, files: agent.ts, reference: minimax}\ncategories: [{name: values, weight: 1}]\n',
      'cases/good.yaml': 'id: good\ncategory: values\nposition: {file: b.txt}\nchecks: {move: true}\n',
    });
    await expect(loadSuite(dir)).rejects.toThrow(
      `${dir}/cases/good.yaml:3: position.file: applies to Mancala suites; this suite plays Tic-Tac-Toe (use tictactoe: "XO_/___/___")`,
    );
  });
});

