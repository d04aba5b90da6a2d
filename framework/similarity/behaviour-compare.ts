/**
 * Two fingerprints side by side: on the positions both answered, the share with the same move
 * (and the same value, the same node count, where both report them); and whether that agreement
 * is expected. Two correct searches of the same depth agree on everything, so a pair that both
 * play as the same reference search is noted as expected, not suspicious; what remains to weigh is
 * their agreement where at least one of them departs from the reference search it most resembles
 * (offReference), which is where a heuristic or custom player shows whose it is.
 */
import type { BehaviourAgreement, BehaviourAnswer, Fingerprint } from './behaviour-types.ts';

/** Both play as the same reference search on at least this share of their positions: agreement expected. */
export const EXPECTED_SHARE = 0.9;

const share = (hits: number, of: number): number | null => (of === 0 ? null : hits / of);
const percent = (x: number): string => `${Math.round(x * 100)}%`;

export function compareFingerprints(a: Fingerprint, b: Fingerprint): BehaviourAgreement {
  const pairs: [BehaviourAnswer, BehaviourAnswer][] = [];
  if (a.failure === undefined && b.failure === undefined) {
    for (let i = 0; i < Math.min(a.answers.length, b.answers.length); i++) {
      const x = a.answers[i]!;
      const y = b.answers[i]!;
      if (x.move !== null && y.move !== null) pairs.push([x, y]);
    }
  }
  const count = (keep: (x: BehaviourAnswer, y: BehaviourAnswer) => boolean, hit: (x: BehaviourAnswer, y: BehaviourAnswer) => boolean) => {
    const kept = pairs.filter(([x, y]) => keep(x, y));
    return { of: kept.length, hits: kept.filter(([x, y]) => hit(x, y)).length };
  };
  const moves = count(() => true, (x, y) => x.move === y.move);
  const values = count((x, y) => x.value !== undefined && y.value !== undefined, (x, y) => Math.abs(x.value! - y.value!) < 1e-9);
  const nodes = count((x, y) => x.nodes !== undefined && y.nodes !== undefined, (x, y) => x.nodes === y.nodes);
  const withReferences = pairs.length > 0 && pairs.every(([x, y]) => x.usual !== undefined && y.usual !== undefined);
  const off = count((x, y) => x.usual === false || y.usual === false, (x, y) => x.move === y.move);
  return {
    behaviour: share(moves.hits, moves.of),
    sameValue: share(values.hits, values.of),
    sameNodes: share(nodes.hits, nodes.of),
    expectedAgreement: pairs.length === 0 ? null : expectedNote(a, b),
    ...(withReferences ? { offReference: share(off.hits, off.of), offReferencePositions: off.of } : {}),
    compared: pairs.length,
  };
}

/** The note when both play as the same reference search; null otherwise. */
function expectedNote(a: Fingerprint, b: Fingerprint): string | null {
  const x = a.reference;
  const y = b.reference;
  if (x === undefined || y === undefined || x.share < EXPECTED_SHARE || y.share < EXPECTED_SHARE) return null;
  // The search both play as: the first of x's best that is among y's best too (searches tie on few positions).
  const theirs = new Set([y.search, ...(y.tied ?? [])]);
  const search = [x.search, ...(x.tied ?? [])].find((s) => theirs.has(s));
  if (search === undefined) return null;
  const how = x.share === 1 && y.share === 1 ? 'on every position' : `on ${percent(x.share)} and ${percent(y.share)} of the positions`;
  return (
    `both choose the reference ${search}'s move ${how}: correct searches of the same depth agree on everything, ` +
    `so this agreement is expected, not a sign of copying (weigh their agreement off the reference instead)`
  );
}
