/**
 * `mancala bench`'s source-similarity figure: a class of 200 Python programs, every pair compared
 * by Dolos (tokenized, fingerprinted, each pair's share and, for similar pairs, its fragments), as
 * pairs a second. The class is generated from a seed, so every run compares the same programs:
 * each program puts together the parts a Kalah homework has (sowing, an evaluation, a search, its
 * input and output), each part in one of a few ways of writing it, every name the student's own
 * choice, with helpers of the student's own, the functions in the student's order. Programs that
 * chose the same ways share much of their code, as a class built on one handout does.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRandom, randomInt, type RandomSource } from '../random.ts';
import { computeSimilarity } from './run.ts';

export interface SourceSimilaritySpeed {
  programs: number;
  pairs: number;
  /** pairs at FRAGMENTS_FROM or more, whose fragments were built */
  similar: number;
  ms: number;
  pairsPerSecond: number;
}

/** Each part of a homework, in the ways students write it; {names} are the student's. */
const PARTS: readonly (readonly string[])[] = [
  [
    'def {sow}({board}, {pit}, {player}):\n    {board} = list({board})\n    n = len({board}) // 2 - 1\n    stones = {board}[{pit}]\n    {board}[{pit}] = 0\n    i = {pit}\n    while stones > 0:\n        i = (i + 1) % len({board})\n        if i == (2 * n + 1 if {player} == 0 else n):\n            continue\n        {board}[i] += 1\n        stones -= 1\n    return {board}\n',
    'def {sow}({board}, {pit}, {player}):\n    out = {board}[:]\n    count, out[{pit}] = out[{pit}], 0\n    skip = len(out) - 1 if {player} == 0 else len(out) // 2 - 1\n    at = {pit}\n    for _ in range(count):\n        at = (at + 1) % len(out)\n        while at == skip:\n            at = (at + 1) % len(out)\n        out[at] += 1\n    return out\n',
  ],
  [
    'def {evaluate}({board}):\n    n = len({board}) // 2 - 1\n    return {board}[n] - {board}[2 * n + 1]\n',
    'def {evaluate}({board}):\n    half = len({board}) // 2\n    mine = {board}[half - 1] + sum({board}[:half - 1]) * 0.25\n    theirs = {board}[-1] + sum({board}[half:-1]) * 0.25\n    return mine - theirs\n',
  ],
  [
    'def {search}({board}, depth, maximizing):\n    if depth == 0:\n        return {evaluate}({board})\n    n = len({board}) // 2 - 1\n    first = 0 if maximizing else n + 1\n    values = [{search}({sow}({board}, p, 0 if maximizing else 1), depth - 1, not maximizing) for p in range(first, first + n) if {board}[p]]\n    if not values:\n        return {evaluate}({board})\n    return max(values) if maximizing else min(values)\n',
    'def {search}({board}, depth, alpha, beta, maximizing):\n    n = len({board}) // 2 - 1\n    moves = [p for p in range(0 if maximizing else n + 1, (0 if maximizing else n + 1) + n) if {board}[p] > 0]\n    if depth == 0 or not moves:\n        return {evaluate}({board})\n    best = float("-inf") if maximizing else float("inf")\n    for p in moves:\n        v = {search}({sow}({board}, p, 0 if maximizing else 1), depth - 1, alpha, beta, not maximizing)\n        if maximizing:\n            best, alpha = max(best, v), max(alpha, v)\n        else:\n            best, beta = min(best, v), min(beta, v)\n        if alpha >= beta:\n            break\n    return best\n',
    'def {search}({board}, depth, maximizing):\n    scores = {}\n    n = len({board}) // 2 - 1\n    for p in range(n):\n        if {board}[p]:\n            scores[p] = {evaluate}({sow}({board}, p, 0))\n    return max(scores.values()) if scores else {evaluate}({board})\n',
  ],
  [
    'import json\nimport sys\n\nfor line in sys.stdin:\n    {board} = json.loads(line)["board"]\n    n = len({board}) // 2 - 1\n    legal = [p for p in range(n) if {board}[p]]\n    print(json.dumps({"move": max(legal, key=lambda p: {evaluate}({sow}({board}, p, 0)))}), flush=True)\n',
    'with open("input.txt") as f:\n    rows = f.read().split("\\n")\n{board} = [int(x) for x in rows[1].split()] + [int(rows[3])] + [int(x) for x in rows[2].split()] + [int(rows[4])]\nn = len({board}) // 2 - 1\nchoice = max((p for p in range(n) if {board}[p]), key=lambda p: {evaluate}({sow}({board}, p, 0)))\nwith open("next_state.txt", "w") as f:\n    f.write(" ".join(map(str, {sow}({board}, choice, 0))) + "\\n")\n',
  ],
];

/** The names a student may choose, by what they name. */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  sow: ['sow', 'play_move', 'apply', 'make_move', 'do_move', 'move_stones'],
  evaluate: ['evaluate', 'heuristic', 'score', 'utility', 'value_of', 'h'],
  search: ['minimax', 'search', 'negamax_like', 'best_value', 'look_ahead', 'solve'],
  board: ['board', 'state', 'cells', 'b', 'pits_list', 'position'],
  pit: ['pit', 'house', 'i', 'idx', 'p', 'choice_pit'],
  player: ['player', 'side', 'who', 'turn', 'me', 'mover'],
};

const pick = <T>(rand: RandomSource, list: readonly T[]): T => list[randomInt(rand, list.length)]!;

/** An expression of the student's own: its shape is what Dolos sees (names and numbers aside), and shapes vary. */
function expression(rand: RandomSource, depth: number): string {
  if (depth === 0) return pick(rand, ['x', 'y', 'board', String(randomInt(rand, 10)), '"k"']);
  const e = () => expression(rand, depth - 1);
  switch (randomInt(rand, 9)) {
    case 0:
      return `(${e()} + ${e()})`;
    case 1:
      return `max(${e()}, ${e()})`;
    case 2:
      return `${e()}[${e()}]`;
    case 3:
      return `[${e()}, ${e()}]`;
    case 4:
      return `(${e()} if ${e()} else ${e()})`;
    case 5:
      return `-${e()}`;
    case 6:
      return `len(${e()})`;
    case 7:
      return `{${e()}: ${e()}}`;
    default:
      return `(${e()} < ${e()})`;
  }
}

/** A statement of the student's own. */
function statement(rand: RandomSource): string {
  const e = () => expression(rand, 1 + randomInt(rand, 2));
  switch (randomInt(rand, 4)) {
    case 0:
      return `x = ${e()}`;
    case 1:
      return `if ${e()}:\n        y = ${e()}`;
    case 2:
      return `for v in ${e()}:\n        total += ${e()}`;
    default:
      return `while ${e()}:\n        break`;
  }
}

/** A helper of the student's own: a few statements of its own. */
function ownHelper(rand: RandomSource, name: string): string {
  const body = Array.from({ length: 3 + randomInt(rand, 4) }, () => `    ${statement(rand)}`);
  return `def ${name}(board, x, y):\n    total = 0\n${body.join('\n')}\n    return total\n`;
}

/** Program `k` of the class of `seed`. */
export function generatedProgram(seed: number, k: number): string {
  const rand = createRandom(seed * 7919 + k);
  const names = Object.fromEntries(Object.entries(NAMES).map(([what, list]) => [what, pick(rand, list)]));
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (whole, what: string) => names[what] ?? whole);
  const parts = PARTS.map((ways) => fill(pick(rand, ways)));
  // The functions in the student's order, their own helpers among them; the script's main part last.
  const functions = [...parts.slice(0, -1), ...Array.from({ length: 5 + randomInt(rand, 4) }, (_, h) => ownHelper(rand, `helper_${h}`))];
  for (let i = functions.length - 1; i > 0; i--) {
    const j = randomInt(rand, i + 1);
    [functions[i], functions[j]] = [functions[j]!, functions[i]!];
  }
  return `${[...functions, parts.at(-1)!].join('\n\n')}`;
}

/** Compares every pair of a generated class of `programs`; the best of `runs` (the machine is shared). */
export async function measureSourceSimilarity(programs = 200, runs = 1, seed = 2025): Promise<SourceSimilaritySpeed> {
  const dir = mkdtempSync(join(tmpdir(), 'mancala-similarity-bench-'));
  try {
    const folders = Array.from({ length: programs }, (_, k) => {
      const folder = join(dir, `student-${String(k + 1).padStart(3, '0')}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'agent.py'), generatedProgram(seed, k));
      return folder;
    });
    let best: SourceSimilaritySpeed | undefined;
    for (let r = 0; r < runs; r++) {
      const start = performance.now();
      // No starter: a course the kits do not have (templateSource: none).
      const part = await computeSimilarity({ submissions: folders, rules: 'generated-class' });
      const ms = performance.now() - start;
      const similar = part.pairs.filter((p) => p.fragments.length > 0).length;
      const result = { programs, pairs: part.pairs.length, similar, ms, pairsPerSecond: part.pairs.length / (ms / 1000) };
      if (best === undefined || result.ms < best.ms) best = result;
    }
    return best!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
