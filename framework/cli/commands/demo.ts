/**
 * `mancala demo` (what `npm start` runs): a search from the start position, then a seeded game
 * between two reference agents, printed move by move. A few seconds, no files needed.
 */
import { Option, type Command } from 'commander';
import type { Agent, AgentOptions } from '../../contracts/agent.ts';
import type { Player } from '../../contracts/game.ts';
import type { MancalaGame, MancalaState } from '../../games/mancala/engine.ts';
import { mancalaGame } from '../../games/mancala/profile-game.ts';
import { findProfile } from '../../games/mancala/profiles.ts';
import basic from '../../heuristics/basic.ts';
import { requireAgent } from '../../plugins/agents.ts';
import { createRandom } from '../../random.ts';
import { runAgent } from '../../search/run-agent.ts';
import { grouped, wholeNumber, type CliIo } from '../options.ts';

const PROFILE = 'kalah';
const SEARCH_DEPTH = 10;
/** A board picture every this many moves keeps the game readable without drowning it. */
const BOARD_EVERY = 12;
/** The first moves are drawn from the seeded random source, so each seed gives another game. */
const RANDOM_OPENING = 2;

interface Side {
  label: string;
  agent: Agent;
  options: AgentOptions;
}

const SIDE_NAME = ['bottom', 'top'] as const;

export async function runDemo(io: CliIo, seed: number): Promise<void> {
  const profile = findProfile(PROFILE)!;
  const game = mancalaGame(profile, profile.rules.pits, profile.rules.seeds);
  const heuristic = basic;
  const random = createRandom(seed);
  const start = game.initial();

  io.out(`== 1. A search from the start position: ${PROFILE} (${profile.summary}) ==\n\n`);
  io.out(game.render(start) + '\n\n');
  const search = await runAgent(requireAgent('alphabeta'), {
    game,
    state: start,
    heuristic,
    options: { depth: SEARCH_DEPTH, unit: 'move', terminal: 'score' },
    random,
  });
  io.out(
    `alpha-beta, depth ${SEARCH_DEPTH} (moves), store difference at the leaves: plays ${game.moveName(start, search.choice.move)} ` +
      `(pit index ${search.choice.move}), value ${search.choice.value} for bottom; ` +
      `${grouped(search.nodes)} positions visited in ${search.ms.toFixed(0)} ms\n\n`,
  );

  const sides: [Side, Side] = [
    { label: 'alphabeta depth 6', agent: requireAgent('alphabeta'), options: { depth: 6, unit: 'move', terminal: 'score' } },
    { label: 'greedy', agent: requireAgent('greedy'), options: { unit: 'move', terminal: 'score' } },
  ];
  io.out(`== 2. A game: bottom = ${sides[0].label}, top = ${sides[1].label}; ${RANDOM_OPENING} random opening moves (seed ${seed}) ==\n\n`);
  await playGame(io, game, start, sides, random);
}

async function playGame(io: CliIo, game: MancalaGame, start: MancalaState, sides: [Side, Side], random: () => number): Promise<void> {
  const heuristic = basic;
  let state = start;
  let ply = 0;
  const nodes = [0, 0];
  const opening = requireAgent('random');
  while (!game.isOver(state)) {
    const mover = game.toMove(state);
    const side = sides[mover];
    const inOpening = ply < RANDOM_OPENING;
    const agent = inOpening ? opening : side.agent;
    const outcome = await runAgent(agent, { game, state, heuristic, options: side.options, random });
    const move = outcome.choice.move;
    if (!game.isLegal(state, move)) throw new Error(`${inOpening ? 'random' : side.label} chose an illegal move ${move} in ${game.describe(state)}`);
    nodes[mover]! += outcome.nodes;
    const name = game.moveName(state, move);
    state = game.play(state, move);
    ply++;
    const notes: string[] = inOpening ? ['random opening'] : [];
    if (!game.isOver(state) && game.toMove(state) === mover) notes.push('free turn');
    if (game.isOver(state)) notes.push('game over');
    io.out(
      `${String(ply).padStart(3)}. ${SIDE_NAME[mover].padEnd(6)} ${name.padEnd(3)}  stores ${game.store(state, 0)}-${game.store(state, 1)}` +
        `${notes.length ? `  (${notes.join(', ')})` : ''}\n`,
    );
    if (ply % BOARD_EVERY === 0 && !game.isOver(state)) io.out('\n' + game.render(state) + '\n\n');
  }
  io.out('\n' + game.render(state) + '\n\n');
  const score = [game.finalStore(state, 0), game.finalStore(state, 1)];
  const winner: Player | null = score[0]! > score[1]! ? 0 : score[1]! > score[0]! ? 1 : null;
  io.out(`final score after the sweep: bottom ${score[0]}, top ${score[1]} in ${ply} moves\n`);
  io.out(
    winner === null
      ? 'a draw\n'
      : `winner: ${SIDE_NAME[winner]} (${sides[winner].label}) by ${Math.abs(score[0]! - score[1]!)}\n`,
  );
  io.out(`positions searched: bottom ${grouped(nodes[0]!)}, top ${grouped(nodes[1]!)}\n`);
}

export function addDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .summary('a search from the start position and a game between two reference agents')
    .description('A short tour: a reference alpha-beta search from the start of Kalah(6,4), then a seeded game, alpha-beta at depth 6 against greedy, printed move by move.')
    .addOption(new Option('--seed <n>', "seed of the agents' random source").argParser(wholeNumber(0, 2 ** 31 - 1, 'a seed')).default(1))
    .addHelpText('after', ['', 'Examples:', '  $ mancala demo', '  $ npm start'].join('\n'))
    .action((opts: { seed: number }) => runDemo(io, opts.seed));
}
