/**
 * The `mancala search` command line that reproduces the reference's answer for a case, so a
 * student can run the reference on the very position their agent failed and compare.
 *
 * `mancala search` reads a position only from a file (`--board FILE`), so for any board other than
 * the start position the lines say to save the board, given as one line of JSON, as board.json.
 * The start position needs no file: `--pits N --seeds S` (and `--player top` when top moves).
 */
import type { Player } from '../framework/contracts/game.ts';
import type { BoardSpec } from '../framework/games/mancala/board-io/index.ts';
import { findProfile } from '../framework/games/mancala/profiles.ts';
import type { MancalaRules } from '../framework/games/mancala/rules.ts';
import type { GameSpec, Manifest, SuiteCase } from '../framework/suites/types.ts';
import { caseGame } from '../framework/suites/game.ts';
import { studentKitCourse } from '../framework/plugins/student-kit.ts';
import { heuristicNames } from '../framework/plugins/agents.ts';
import { casePlayer, referencePlan, type ReferencePlan } from './case-context.ts';

/** The agents `mancala search --algo` runs. */
const SEARCH_ALGOS = new Set(['greedy', 'minimax', 'alphabeta']);

/** A board as one line of the JSON board format (`--board-format json`), with the side to move. */
export function boardJson(board: BoardSpec, player: Player): string {
  return JSON.stringify({
    top: board.top,
    bottom: board.bottom,
    stores: { top: board.topStore, bottom: board.bottomStore },
    toMove: player === 0 ? 'bottom' : 'top',
  });
}

/** True when `board` is the game's start position (every pit holds `seeds`, both stores empty). */
function isStartPosition(board: BoardSpec, rules: MancalaRules): boolean {
  const full = (row: number[]) => row.length === rules.pits && row.every((x) => x === rules.seeds);
  return full(board.top) && full(board.bottom) && board.topStore === 0 && board.bottomStore === 0;
}

/** Rule flags the suite sets differently from its profile (other than the board's size). */
function rulesChanged(spec: Extract<GameSpec, { kind: 'mancala' }>): string[] {
  const profile = findProfile(spec.profile);
  if (profile === undefined) return [`profile ${spec.profile} is unknown`];
  const changed: string[] = [];
  for (const key of Object.keys(spec.rules) as (keyof MancalaRules)[]) {
    if (key === 'pits' || key === 'seeds') continue;
    if (spec.rules[key] !== profile.rules[key]) changed.push(`${key}: ${String(spec.rules[key])}`);
  }
  return changed;
}

/** The search flags after the position's: --algo, --depth, --unit, --terminal, --heuristic, --caching. */
function searchFlags(plan: ReferencePlan): string {
  const flags = [`--algo ${plan.agent}`];
  if (plan.agent !== 'greedy') flags.push(`--depth ${plan.depth === null ? -1 : plan.depth}`);
  flags.push(`--unit ${plan.unit}`, `--terminal ${plan.terminal}`, `--heuristic ${plan.heuristic}`);
  if (plan.caching) flags.push('--caching');
  if (plan.freeTurns === 'ignore') flags.push('--free-turns ignore');
  flags.push('--json');
  return flags.join(' ');
}

/**
 * The lines that tell how to reproduce the reference's answer, each starting with "reproduce:" or
 * indented under it. For cases no command can reproduce, one line that says why; none in a
 * student kit, which holds no reference.
 */
export function reproduceLines(manifest: Manifest, c: SuiteCase): string[] {
  // A student kit holds no reference to run: no command there reproduces its answer.
  if (studentKitCourse() !== undefined) return [];
  const plan = referencePlan(manifest, c);
  const game = caseGame(manifest, c);
  if (plan === undefined) {
    const reference = manifest.roles[c.role]?.reference ?? '?';
    const where = game.kind === 'mancala' ? `; the board: ${boardJson(c.board, casePlayer(c))}` : '';
    return [`reproduce: no mancala command evaluates a board alone; the reference is the heuristic ${reference} (agents/heuristics/${reference}.ts)${where}`];
  }
  if (!SEARCH_ALGOS.has(plan.agent)) {
    return [`reproduce: the reference agent is "${plan.spec}", which \`mancala search\` cannot run (its --algo is greedy, minimax or alphabeta)`];
  }
  const notes: string[] = [];
  if (!heuristicNames().includes(plan.heuristic)) notes.push(`the reference heuristic ${plan.heuristic} is not one --heuristic offers`);
  if (plan.depth === 0) notes.push('the reference searched to depth 0, which --depth does not accept');
  if (game.kind === 'tictactoe') {
    if (c.tictactoe !== undefined && c.tictactoe.replace(/[^XOxo]/g, '') !== '') {
      return [`reproduce: \`mancala search --game tictactoe\` starts from the empty board only; this case's board is ${c.tictactoe}`];
    }
    return [`reproduce: npx mancala search --game tictactoe ${searchFlags(plan)}`, ...notes.map((n) => `  note: ${n}`)];
  }
  const changed = rulesChanged(game);
  if (changed.length > 0) notes.push(`the suite changes the ${game.profile} profile's rules (${changed.join(', ')}); the command plays the profile's`);
  const player = casePlayer(c);
  const lines: string[] = [];
  if (isStartPosition(c.board, game.rules)) {
    const side = player === 1 ? ' --player top' : '';
    lines.push(`reproduce: npx mancala search --rules ${game.profile} --pits ${game.rules.pits} --seeds ${game.rules.seeds}${side} ${searchFlags(plan)}`);
  } else {
    lines.push(`reproduce: save the board as board.json: ${boardJson(c.board, player)}`);
    lines.push(`  then run: npx mancala search --rules ${game.profile} --board board.json --board-format json ${searchFlags(plan)}`);
  }
  return [...lines, ...notes.map((n) => `  note: ${n}`)];
}
