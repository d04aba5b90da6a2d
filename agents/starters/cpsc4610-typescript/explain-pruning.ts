/**
 * Your pruning example for the writeup (Problem 2), without print statements to add to
 * your code and remove again: runs an alpha-beta agent on a position, collects the search events
 * it emits through ctx.trace, and prints every prune the way the seed does,
 *
 *   alpha is 50.0, score is 0.0. Aborted on move 2 in minValue on XX2 OO5 678
 *
 * Usage (from the project's root; the folder is yours, e.g. agents/students/<you>/):
 *   npx tsx agents/students/<you>/explain-pruning.ts                  # the seed's example XX_/_O_/___ with your alphabeta.ts
 *   npx tsx agents/students/<you>/explain-pruning.ts 'X__/_O_/__X'    # another Tic-Tac-Toe board (you need one of your own)
 *   npx tsx agents/students/<you>/explain-pruning.ts --reference      # the reference alpha-beta, to compare with
 *   npx tsx agents/students/<you>/explain-pruning.ts --mancala --moves 3,6 --depth 3     # cpsc4610 Mancala, after cups 3 and 6
 *   options: --agent FILE (default: alphabeta.ts beside this script), --depth D, --events (every event too)
 *
 * Values: Tic-Tac-Toe scores +1 / 0 / -1 for the player who chooses at the root; the seed's
 * player scores 100 / 50 / 0, shown in brackets. Mancala: the course's provided score itself,
 * 100 / 50 / 0, a finished game scored by it too (free turns ignored); moves are the mover's cups.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Agent } from '../../../framework/contracts/agent.ts';
import type { Game } from '../../../framework/contracts/game.ts';
import { MancalaGame } from '../../../framework/games/mancala/engine.ts';
import { findProfile } from '../../../framework/games/mancala/profiles.ts';
import { TicTacToeGame } from '../../../framework/games/tictactoe/game.ts';
import { createRandom } from '../../../framework/random.ts';
import { runAgent } from '../../../framework/search/run-agent.ts';
import { gameForSearch } from '../../../framework/contracts/search-conventions.ts';
import type { TraceEvent } from '../../../framework/contracts/search-trace.ts';
import basic from '../../../framework/heuristics/basic.ts';
import provided from '../../../framework/heuristics/cpsc4610-provided.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Where each prune happened: the node (the moves from the root), the move after which it stopped. */
export interface Prune {
  /** the moves from the root to the node that stopped early (names, as the events give them) */
  path: string[];
  /** the child it stopped after */
  lastMove: string;
  maximizing: boolean;
  value: number;
  alpha: number;
  beta: number;
  skipped: number;
}

/** The prunes of a search, from its events in the order they came. */
export function prunesOf(events: readonly TraceEvent[]): Prune[] {
  const names: string[] = [];
  const out: Prune[] = [];
  for (const e of events) {
    if (e.type === 'enter' || e.type === 'leaf' || e.type === 'cached') {
      names.length = e.level;
      names.push(e.name);
    } else if (e.type === 'prune') {
      out.push({
        path: names.slice(1, e.level + 1),
        lastMove: names[e.level + 1] ?? '?',
        maximizing: e.maximizing,
        value: e.value,
        alpha: e.alpha,
        beta: e.beta,
        skipped: e.skipped,
      });
    }
  }
  return out;
}

/** The board as the seed prints it: each row's cells, an empty one as its number ("XX2 OO5 678"). */
export function seedBoard(game: TicTacToeGame, s: ReturnType<TicTacToeGame['initial']>): string {
  let out = '';
  for (let i = 0; i < 9; i++) {
    if (i > 0 && i % 3 === 0) out += ' ';
    const who = game.cell(s, i);
    out += who === null ? String(i) : who === 0 ? 'X' : 'O';
  }
  return out;
}

/** The seed's line for one prune, from the position the search started at. */
export function pruneLine<S>(game: Game<S>, root: S, p: Prune): string {
  let s = root;
  for (const name of p.path) {
    const move = game.parseMove(s, name);
    if (move === undefined || !game.isLegal(s, move)) return `(a prune at ${p.path.join(' ')}: move ${name} is not legal there)`;
    s = game.play(s, move);
  }
  const ttt = game instanceof TicTacToeGame;
  const shown = (v: number) => (Math.abs(v) >= 1e9 ? (v > 0 ? 'inf' : '-inf') : ttt ? `${v} [${(50 + 50 * v).toFixed(1)}]` : String(v));
  const bound = p.maximizing ? `beta is ${shown(p.beta)}` : `alpha is ${shown(p.alpha)}`;
  const board = ttt ? seedBoard(game, s as never) : (game as unknown as MancalaGame).describe(s as never);
  const where = p.path.length === 0 ? 'the root' : p.path.join(' ');
  return `${bound}, score is ${shown(p.value)}. Aborted on move ${p.lastMove} in ${p.maximizing ? 'maxValue' : 'minValue'} on ${board} (after ${where}; ${p.skipped} move${p.skipped === 1 ? '' : 's'} not tried)`;
}

async function loadAgent(file: string): Promise<Agent> {
  const module = (await import(pathToFileURL(resolve(file)).href)) as { default?: Agent };
  if (module.default === undefined || typeof module.default.chooseMove !== 'function') {
    throw new Error(`${file}: expected \`export default { name, chooseMove }\``);
  }
  return module.default;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      agent: { type: 'string' },
      reference: { type: 'boolean' },
      mancala: { type: 'boolean' },
      moves: { type: 'string' },
      depth: { type: 'string' },
      events: { type: 'boolean' },
    },
  });
  const depth = values.depth === undefined ? undefined : Number(values.depth);
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1)) throw new Error(`--depth: expected a whole number ≥ 1, got ${values.depth}`);

  let game: Game<any>;
  let state: any;
  let label: string;
  if (values.mancala) {
    const mancala = new MancalaGame(findProfile('cpsc4610')!.rules, 'cpsc4610(6,4)');
    game = mancala;
    state = mancala.initial();
    for (const name of (values.moves ?? '').split(',').filter((x) => x !== '')) {
      const move = mancala.parseMove(state, name);
      if (move === undefined || !mancala.isLegal(state, move)) throw new Error(`--moves: ${name} is not a legal move in ${mancala.describe(state)}`);
      state = mancala.play(state, move);
    }
    label = `Mancala (cpsc4610): ${mancala.describe(state)}`;
  } else {
    const ttt = new TicTacToeGame();
    game = ttt;
    state = ttt.fromString(positionals[0] ?? 'XX_/_O_/___');
    label = `Tic-Tac-Toe ${ttt.toBoardString(state)}, ${ttt.toMove(state) === 0 ? 'X' : 'O'} to move`;
  }
  if (game.isOver(state)) throw new Error(`${label}: the game is over`);

  const file = values.reference ? resolve(here, '../../alphabeta.ts') : (values.agent ?? resolve(here, 'alphabeta.ts'));
  const agent = await loadAgent(file);
  const events: TraceEvent[] = [];
  // Mancala: the provided score at every position where the search stops, as the cpsc4610 suites
  // hand it; Tic-Tac-Toe: +1 / 0 / -1 (the same order as the seed's 100 / 50 / 0).
  const terminal = values.mancala ? ('heuristic' as const) : ('score' as const);
  const options = values.reference
    ? { depth: depth ?? (values.mancala ? 5 : null), unit: 'move' as const, terminal, freeTurns: 'ignore' }
    : { depth: depth ?? (values.mancala ? 5 : null), unit: 'move' as const, terminal };
  const heuristic = values.mancala ? provided : basic;
  const outcome = await runAgent(agent, { game, state, heuristic, options, random: createRandom(1), trace: (e) => void events.push(e) });

  const lines = [
    label,
    `agent ${values.reference ? 'reference alpha-beta (free turns ignored)' : file}, ${options.depth === null ? 'no depth limit' : `depth ${options.depth}`}`,
    `move ${game.moveName(state, outcome.choice.move)}, value ${outcome.choice.value ?? '(none)'}, ${outcome.nodes} positions visited, ${events.length} events`,
  ];
  if (values.events) lines.push(...events.map((e) => JSON.stringify(e)));
  // The searches play free turns the way they searched them: replay paths on the same game.
  const replay = values.mancala ? gameForSearch(game, 'ignore') : game;
  const prunes = prunesOf(events);
  lines.push(prunes.length === 0 ? 'no prunes (no events, or nothing pruned)' : `${prunes.length} prunes:`);
  lines.push(...prunes.map((p) => '  ' + pruneLine(replay, state, p)));
  process.stdout.write(lines.join('\n') + '\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    process.stderr.write(`explain-pruning: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  });
}
