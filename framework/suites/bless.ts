/**
 * `suite bless`: the expected answers of a suite, computed by running each role's reference in
 * this process (trusted code: the agents plugin, framework/plugins/agents.ts) exactly as the framework runs a submission's
 * agent (runAgent: instrumented game, counted heuristic, seeded random), and written to
 * `expected.json`. Instructors write positions and checks; answers come only from here.
 *
 * Only what a case's checks compare is stored (hidden answers stay as small as they can be), and
 * the output is deterministic: the same suite blesses to the same bytes (keys sorted, no
 * timestamps). A reference must itself be deterministic for that: every search agent is; an
 * anytime agent (ids, strong) is only when a depth limit rather than `ms` bounds it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentOptions } from '../contracts/agent.ts';
import type { Game } from '../contracts/game.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import type { TraceEvent } from '../contracts/search-trace.ts';
import { UserError } from '../errors.ts';
import { stateToBoard } from '../games/mancala/board-io/index.ts';
import type { MancalaGame, MancalaState } from '../games/mancala/engine.ts';
import { parseAgentSpec, requireHeuristic } from '../plugins/agents.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import { INFINITE_VALUE, renderTraverseLog } from '../search/traverse-log.ts';
import { canonicalJson, formatCanonicalJson } from './canonical-json.ts';
import { GameCache } from './game.ts';
import { blessMoveValues } from './bless-quality.ts';
import { caseHash, EXPECTED_FILE } from './expected.ts';
import { caseState } from './position.ts';
import type { Expected, Manifest, Suite, SuiteCase } from './types.ts';

export interface BlessResult {
  /** every case's entry, by id (what expected.json will hold) */
  expected: Record<string, Expected>;
  /** ids whose entry is new, differs from expected.json, or is removed: empty means nothing to write */
  changed: string[];
  /** of `changed`: cases expected.json did not have */
  added: string[];
  /** of `changed`: entries of cases that no longer exist */
  removed: string[];
}

export async function blessSuite(suite: Suite): Promise<BlessResult> {
  const games = new GameCache();
  const expected: Record<string, Expected> = {};
  const changed: string[] = [];
  const added: string[] = [];
  for (const c of suite.cases) {
    const entry = await blessCase(suite.manifest, games, c);
    expected[c.id] = entry;
    const old = Object.hasOwn(suite.expected, c.id) ? suite.expected[c.id] : undefined;
    if (old === undefined) added.push(c.id);
    if (old === undefined || canonicalJson(old) !== canonicalJson(entry)) changed.push(c.id);
  }
  const removed = Object.keys(suite.expected).filter((id) => !Object.hasOwn(expected, id)).sort();
  return { expected, changed: [...changed, ...removed], added, removed };
}

/**
 * The reference answers of one case: what its checks compare, and its hash. `work`, when given,
 * is told what the reference did for them: the nodes its search visited (0: no search, a heuristic
 * evaluated once), left unset when nothing of the reference ran (the time budget's default,
 * grading/reference-work.ts).
 */
export async function blessCase(manifest: Manifest, games: GameCache, c: SuiteCase, work?: { nodes?: number }): Promise<Expected> {
  const role = manifest.roles[c.role]!;
  const entry: Expected = { hash: caseHash(c, manifest) };
  const { game, state } = caseState(manifest, games, c);
  const checks = c.checks;

  if (role.kind === 'heuristic') {
    if (checks.heuristicValue) {
      if (work !== undefined) work.nodes = 0;
      const h = requireHeuristic(checks.heuristicValue.reference);
      entry.heuristicValue = h.evaluate(game.clone(state), game.toMove(state), game);
    }
    return entry;
  }

  if (checks.quality) entry.moveValues = blessMoveValues(game as MancalaGame, state as MancalaState, `${c.file}: case ${c.id}`);
  const needsSearch = checks.move || checks.value || checks.nodes || checks.evaluations || checks.trace || checks.nextState;
  if (!needsSearch) return entry; // time and playoff compare with no reference answer

  const reference = parseAgentSpec(role.reference);
  const o = c.options;
  const options: AgentOptions = { ...reference.options, depth: o.depth ?? null, unit: o.unit, caching: o.caching, terminal: o.terminal };
  if (o.ms !== undefined) options.ms = o.ms;
  const events: TraceEvent[] = [];
  const outcome = await runAgent(reference.agent, {
    game,
    state,
    heuristic: referenceHeuristic(manifest, o.heuristic),
    options,
    random: createRandom(o.seed ?? 1),
    ...(checks.trace ? { trace: (e: TraceEvent) => void events.push(e) } : {}),
  });
  if (work !== undefined) work.nodes = outcome.nodes;
  const move = outcome.choice.move;
  const where = `${c.file}: case ${c.id}`;
  if (!game.isLegal(state, move)) throw new Error(`${where}: the reference ${role.reference} chose ${move}, not a legal move`);

  if (checks.move) {
    entry.move = move;
    entry.moveName = game.moveName(state, move);
  }
  if (checks.value) {
    if (outcome.choice.value === undefined) throw new UserError(`${where}: checks.value: the reference ${role.reference} returned no value`);
    entry.value = outcome.choice.value;
  }
  if (checks.nodes) entry.nodes = outcome.nodes;
  if (checks.evaluations) entry.evaluations = outcome.evaluations;
  if (checks.trace) {
    entry.trace =
      checks.trace.format === 'events'
        ? canonicalTrace(events)
        : renderTraverseLog(events, { alphaBeta: events.some((e) => 'alpha' in e && e.alpha !== undefined) });
  }
  if (checks.nextState) entry.nextState = stateToBoard(game as MancalaGame, (game as MancalaGame).play(state as never, move));
  return entry;
}

/** The reference heuristic a case's agent is given: by name, or `role:NAME` as that role's reference. */
function referenceHeuristic(manifest: Manifest, name: string | undefined): Heuristic {
  const given = name ?? 'basic';
  if (!given.startsWith('role:')) return requireHeuristic(given);
  return requireHeuristic(manifest.roles[given.slice('role:'.length)]!.reference);
}

/**
 * Trace events as expected.json stores them and as a grader should compare them: JSON has no
 * Infinity, and the searches start a node at ±1e9 (alpha-beta) or ±Infinity (minimax), so any
 * value of magnitude ≥ 1e9 becomes ±1e9; fields left undefined are dropped.
 */
export function canonicalTrace(events: readonly TraceEvent[]): TraceEvent[] {
  const clamp = (v: number) => (v >= INFINITE_VALUE ? INFINITE_VALUE : v <= -INFINITE_VALUE ? -INFINITE_VALUE : v);
  return events.map((e) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(e)) {
      if (v === undefined) continue;
      out[k] = (k === 'value' || k === 'alpha' || k === 'beta') && typeof v === 'number' ? clamp(v) : v;
    }
    return out as TraceEvent;
  });
}

/** expected.json's text: keys sorted, one field a line down to each case's fields, a final newline. */
export function formatExpected(expected: Record<string, Expected>): string {
  return formatCanonicalJson(expected, 2);
}

export function writeExpected(dir: string, expected: Record<string, Expected>): void {
  writeFileSync(join(dir, EXPECTED_FILE), formatExpected(expected));
}
