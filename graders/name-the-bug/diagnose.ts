/**
 * Name the bug (as CS188's autograder does): when a search case's move, value or node count is
 * wrong, rerun deliberately broken references (variants.ts) on the case's position and say which
 * one the submission's (move, value, nodes) matches. A variant matching all three is named; one
 * matching the move and the value but not the node count is mentioned as a possibility; otherwise
 * nothing is said, rather than a guess.
 *
 * Before trusting any variant, the unbroken mutant search must reproduce the blessed answer on the
 * position: if it does not (a reference this module cannot model), there is no diagnosis.
 */
import type { GradeInput } from '../../framework/grading/types.ts';
import { gameForSearch } from '../../framework/contracts/search-conventions.ts';
import { findHeuristic } from '../../framework/plugins/agents.ts';
import { casePosition, referencePlan } from '../case-context.ts';
import { mutantSearch, type Algorithm, type MutantResult, type MutantSearchConfig } from './mutant-search.ts';
import { pairsOf, variantsOf, type Variant } from './variants.ts';

/*
 * Budgets. The mutant search runs about half a million nodes a second, so a diagnosis costs at
 * most a few seconds, spent only on failed cases. Cases the reference searched with more nodes
 * than MAX_DIAGNOSED_NODES are not diagnosed; each variant may visit VARIANT_NODE_FACTOR times the
 * reference's nodes (no pruning visits many more), within the bounds, and all variants together
 * TOTAL_NODES (pairs of mistakes included); variants come most common bug first, so a spent
 * budget drops the rarer ones.
 */
export const MAX_DIAGNOSED_NODES = 100_000;
const VARIANT_NODE_FACTOR = 50;
const VARIANT_NODES_MIN = 100_000;
const VARIANT_NODES_MAX = 2_000_000;
const TOTAL_NODES = 2_500_000;

const ALGORITHMS: Record<string, Algorithm> = { minimax: 'minimax', greedy: 'minimax', alphabeta: 'alphabeta' };

type Field = 'move' | 'value' | 'nodes';
const FIELDS: readonly Field[] = ['move', 'value', 'nodes'];
const FIELD_WORDS: Record<Field, string> = { move: 'move', value: 'value', nodes: 'node count' };

export interface VariantMatch {
  variant: Variant;
  result: MutantResult;
}

export interface Matches {
  /** variants that agree with everything the submission reported of move, value and nodes (pairs of mistakes when no single one does) */
  full: VariantMatch[];
  /** when none agrees fully: variants with the submission's move and value but another node count */
  partial: VariantMatch[];
  /** the fields the submission reported */
  observed: Field[];
}

/** The reference's settings for the case as a mutant-search config, or undefined when the case is not a search this module models. */
export function baseConfig(input: GradeInput): { config: MutantSearchConfig<any>; state: unknown } | undefined {
  const plan = referencePlan(input.manifest, input.case);
  if (plan === undefined || plan.heuristicRole !== undefined) return undefined;
  const algorithm = ALGORITHMS[plan.agent];
  const heuristic = findHeuristic(plan.heuristic);
  if (algorithm === undefined || heuristic === undefined) return undefined;
  const position = casePosition(input.manifest, input.case);
  const state = position.state;
  if (position.game.isOver(state)) return undefined;
  // A reference that ignores free turns searches the same rules without them (conventions.ts).
  const game = gameForSearch(position.game, plan.freeTurns);
  const config: MutantSearchConfig<any> = { game, heuristic, algorithm, depth: plan.depth, unit: plan.unit, terminal: plan.terminal, caching: plan.caching };
  if (game !== position.game) config.freeTurnsIgnored = true;
  return { config, state };
}

/** The variants that match the submission's answer, or undefined when there is nothing to diagnose. */
export function matchVariants(input: GradeInput): Matches | undefined {
  const base = baseConfig(input);
  if (base === undefined) return undefined;
  const { expected, observation } = input;
  if (expected.nodes !== undefined && expected.nodes > MAX_DIAGNOSED_NODES) return undefined;
  const maxNodes = Math.min(VARIANT_NODES_MAX, Math.max(VARIANT_NODES_MIN, VARIANT_NODE_FACTOR * (expected.nodes ?? 0)));

  const reference = mutantSearch({ ...base.config, maxNodes }, base.state);
  if (reference === undefined) return undefined;
  // The unbroken search must reproduce the blessed answer, or its variants mean nothing.
  for (const f of FIELDS) if (expected[f] !== undefined && expected[f] !== reference[f]) return undefined;

  const tolerance = input.case.checks.value?.tolerance ?? 0;
  const got: Partial<Record<Field, number>> = { move: observation.move ?? observation.reported?.move, value: observation.value, nodes: observation.nodes };
  const observed = FIELDS.filter((f) => got[f] !== undefined);
  if (got.move === undefined || observed.length < 2) return undefined;
  const agrees = (r: MutantResult, f: Field): boolean => (f === 'value' ? Math.abs(r.value - got.value!) <= tolerance : r[f] === got[f]);
  if (observed.every((f) => agrees(reference, f))) return undefined; // nothing wrong in move, value or nodes

  let left = TOTAL_NODES;
  const run = (variants: readonly Variant[]): VariantMatch[] => {
    const out: VariantMatch[] = [];
    for (const variant of variants) {
      const budget = Math.min(maxNodes, left);
      if (budget <= 0) break;
      const result = mutantSearch({ ...variant.apply(base.config), maxNodes: budget }, base.state);
      left -= result?.nodes ?? budget;
      if (result !== undefined) out.push({ variant, result });
    }
    return out;
  };
  const matchesAll = ({ result }: VariantMatch) => observed.every((f) => agrees(result, f));
  const singles = variantsOf(base.config);
  const results = run(singles);
  let full = results.filter(matchesAll);
  // Two mistakes at once only when no single one explains the answer.
  if (full.length === 0) full = run(pairsOf(singles)).filter(matchesAll);
  const moveAndValueWrong = !agrees(reference, 'move') || (got.value !== undefined && !agrees(reference, 'value'));
  const partial =
    full.length === 0 && observed.length === 3 && moveAndValueWrong
      ? results.filter(({ result }) => agrees(result, 'move') && agrees(result, 'value'))
      : [];
  return { full, partial, observed };
}

function listWords(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * One or two sentences naming the submission's likely bug, e.g. "Your search matches the reference
 * with pruning on > / < instead of >= / <= (same move, value and node count).", or undefined.
 */
export function diagnose(input: GradeInput): string | undefined {
  const matches = matchVariants(input);
  if (matches === undefined) return undefined;
  const { full, partial, observed } = matches;
  if (full.length > 0) {
    const same = listWords(observed.map((f) => FIELD_WORDS[f]));
    const missing = FIELDS.filter((f) => !observed.includes(f)).map((f) => `your ${FIELD_WORDS[f]} was not reported`);
    let text = `Your search matches the reference with ${full[0]!.variant.description} (same ${same}${missing.length > 0 ? `; ${missing.join(', ')}` : ''}).`;
    const others = full.slice(1, 4).map((m) => m.variant.description);
    if (full.length > 4) others.push(`${full.length - 4} more`);
    if (others.length > 0) text += ` It matches equally the reference with ${listWords(others)}.`;
    return text;
  }
  if (partial.length > 0) {
    const nodes = input.observation.nodes!;
    const shown = partial.slice(0, 2).map((m) => `${m.variant.description} (which visits ${m.result.nodes.toLocaleString('en-US')} nodes)`);
    return (
      `Your move and value match the reference with ${listWords(shown)}, though not your node count (${nodes.toLocaleString('en-US')}): ` +
      'that may be one of your bugs, with another one changing the count.'
    );
  }
  return undefined;
}
