/**
 * The deliberately broken references "name the bug" compares a failed submission with: each one
 * mistake students make, as a change to the reference's search settings (mutant-search.ts).
 * A variant is offered only where it can differ from the reference (no unit variant without free
 * turns, no depth variant without a depth limit, …). Two mistakes of different kinds combine
 * (`combine`): a submission may well search without pruning and without its cache.
 */
import type { CaptureRule, MancalaRules } from '../../framework/games/mancala/rules.ts';
import { MancalaGame } from '../../framework/games/mancala/engine.ts';
import type { MutantSearchConfig } from './mutant-search.ts';

type Config = MutantSearchConfig<any>;

export interface Variant {
  /** stable name, e.g. "strict-pruning", "depth-1", "capture-opposite-only"; "a+b" for two combined */
  id: string;
  /** what it changes (depth, pruning, capture, …): two variants of one kind do not combine */
  kinds: string[];
  /** completes "Your search matches the reference with …" */
  description: string;
  /** the reference's settings with the mistake made */
  apply(config: Config): Config;
}

const CAPTURE_WORDS: Record<CaptureRule, string> = {
  'last-and-opposite': 'captures taking the last stone along with the opposite pit',
  'opposite-only': 'captures leaving the last stone in its pit',
  none: 'no captures',
};

/** The same settings on a game whose rules have one flag changed. */
function withRules(config: Config, change: Partial<MancalaRules>): Config {
  const game = config.game as MancalaGame;
  return { ...config, game: new MancalaGame({ ...game.rules, ...change }, `${game.name}*`) };
}

/** Every single-mistake variant of `base` (the reference's own settings) that can behave differently from it. */
export function variantsOf(base: Config): Variant[] {
  const out: Variant[] = [];
  const add = (id: string, kind: string, description: string, apply: (c: Config) => Config) => out.push({ id, kinds: [kind], description, apply });
  const mancala = base.game instanceof MancalaGame ? (base.game as MancalaGame) : undefined;
  const freeTurns = mancala?.rules.freeTurn === true;

  if (typeof base.depth === 'number' && base.depth >= 0) {
    const d = base.depth;
    if (d >= 1) add('depth-1', 'depth', `depth ${d - 1} instead of ${d}, the depth off by one`, (c) => ({ ...c, depth: d - 1 }));
    add('depth+1', 'depth', `depth ${d + 1} instead of ${d}, the depth off by one`, (c) => ({ ...c, depth: d + 1 }));
  }
  if (base.algorithm === 'alphabeta') {
    add('no-pruning', 'pruning', 'no pruning, plain minimax where alpha-beta is expected', (c) => ({ ...c, algorithm: 'minimax' }));
    add('strict-pruning', 'pruning', 'pruning on > / < instead of >= / <=', (c) => ({ ...c, strictPruning: true }));
  } else {
    add('pruning', 'pruning', 'alpha-beta pruning where plain minimax is expected', (c) => ({ ...c, algorithm: 'alphabeta' }));
  }
  if (freeTurns) {
    add('alternate-by-ply', 'max-min', "max and min alternating by ply, a free turn treated as the opponent's move", (c) => ({ ...c, alternateByPly: true }));
    const other = base.unit === 'turn' ? 'move' : 'turn';
    const why = other === 'move' ? 'a free turn using up a level' : 'a free turn keeping its depth';
    add(`unit-${other}`, 'unit', `depth counted in ${other}s instead of ${base.unit}s, ${why}`, (c) => ({ ...c, unit: other }));
  }
  if (mancala !== undefined) {
    // (The heuristic at a finished position is no separate mistake: `basic` is the stores as
    // they stand, and `advanced` values a finished game by its outcome, as the score does.)
    if (base.terminal === 'score') {
      add('terminal-stores', 'terminal', 'finished positions valued on the stores as they stand, without the end-of-game sweep', (c) => ({ ...c, terminal: 'stores-as-they-stand' }));
    } else {
      add('terminal-score', 'terminal', 'finished positions valued by the final score after the sweep instead of the heuristic on the board as it stands', (c) => ({ ...c, terminal: 'score' }));
    }
    const rules = mancala.rules;
    for (const capture of ['last-and-opposite', 'opposite-only', 'none'] as const) {
      if (capture === rules.capture) continue;
      add(`capture-${capture}`, 'capture', `${CAPTURE_WORDS[capture]} instead of ${CAPTURE_WORDS[rules.capture]}`, (c) => withRules(c, { capture }));
    }
    if (rules.capture !== 'none') {
      const flip = !rules.captureEmptyOpposite;
      add(
        flip ? 'capture-empty-opposite' : 'capture-needs-stones',
        'capture-empty',
        flip ? 'a capture opposite an empty pit, where these rules capture only opposite a non-empty pit' : 'no capture opposite an empty pit, where these rules capture too',
        (c) => withRules(c, { captureEmptyOpposite: flip }),
      );
    }
    add(
      freeTurns ? 'no-free-turn' : 'free-turn',
      'free-turn',
      freeTurns
        ? "no free turns, where these rules give one when the last stone lands in the mover's store"
        : base.freeTurnsIgnored
          ? 'free turns honoured (the same player moves again), where this search ignores them and players alternate every move'
          : 'free turns, which these rules do not have',
      (c) => withRules(c, { freeTurn: !freeTurns }),
    );
  }
  add('last-best-move', 'ties', 'ties going to the last best move instead of the first', (c) => ({ ...c, lastBestMove: true }));
  add(
    base.caching ? 'no-caching' : 'caching',
    'caching',
    base.caching ? 'no transposition table where caching is expected' : 'a transposition table where no caching is expected',
    (c) => ({ ...c, caching: !base.caching }),
  );
  return out;
}

/** Both mistakes at once, or undefined when they are of one kind (two depths, two capture rules). */
export function combine(a: Variant, b: Variant): Variant | undefined {
  if (a.kinds.some((k) => b.kinds.includes(k))) return undefined;
  return { id: `${a.id}+${b.id}`, kinds: [...a.kinds, ...b.kinds], description: `${a.description}, and ${b.description}`, apply: (c) => b.apply(a.apply(c)) };
}

/** Every pair of single mistakes of different kinds, in the order of `singles`. */
export function pairsOf(singles: readonly Variant[]): Variant[] {
  const out: Variant[] = [];
  for (let i = 0; i < singles.length; i++) {
    for (let j = i + 1; j < singles.length; j++) {
      const v = combine(singles[i]!, singles[j]!);
      if (v !== undefined) out.push(v);
    }
  }
  return out;
}
