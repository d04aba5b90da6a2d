/**
 * A suite's expected answers (`expected.json`, written by `suite bless`) and their staleness:
 * `caseHash` is taken over a case's resolved content, so a case whose hash differs from its entry
 * has been edited since it was blessed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalJson } from './canonical-json.ts';
import { caseGame } from './game.ts';
import { expectedFileSchema } from './schema.ts';
import { issueError, readSource } from './source.ts';
import type { Expected, Manifest, Suite, SuiteCase } from './types.ts';

export const EXPECTED_FILE = 'expected.json';

/** The suite's expected.json (absent: nothing blessed yet). */
export function readExpected(dir: string): Record<string, Expected> {
  const absolute = join(resolve(dir), EXPECTED_FILE);
  if (!existsSync(absolute)) return {};
  const source = readSource(absolute, join(dir, EXPECTED_FILE), 'the expected answers');
  const parsed = expectedFileSchema.safeParse(source.data ?? {});
  if (!parsed.success) throw issueError(source, [], parsed.error.issues);
  return parsed.data as Record<string, Expected>;
}

/**
 * A stable hash of everything that decides a case's expected answers: the game, the role's kind
 * and reference (and the reference heuristic a `role:NAME` heuristic stands for), the position,
 * the resolved options and the checks. Not its id, description, points, category, limits or
 * visibility: changing those needs no new bless.
 */
export function caseHash(c: SuiteCase, manifest: Manifest): string {
  const role = manifest.roles[c.role];
  const heuristic = c.options.heuristic;
  const content = {
    version: 1,
    game: caseGame(manifest, c),
    role: role === undefined ? c.role : { kind: role.kind, reference: role.reference },
    heuristicReference: heuristic?.startsWith('role:') ? manifest.roles[heuristic.slice('role:'.length)]?.reference : undefined,
    board:
      c.tictactoe === undefined
        ? { top: c.board.top, bottom: c.board.bottom, topStore: c.board.topStore, bottomStore: c.board.bottomStore, toMove: c.board.toMove ?? 0 }
        : undefined,
    tictactoe: c.tictactoe,
    options: c.options,
    checks: c.checks,
  };
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16);
}

/** True when expected.json holds answers for the case as it is now. */
export function isBlessed(suite: Suite, c: SuiteCase): boolean {
  const entry = Object.hasOwn(suite.expected, c.id) ? suite.expected[c.id] : undefined;
  return entry !== undefined && entry.hash === caseHash(c, suite.manifest);
}

/** Cases never blessed, or edited since: the runner refuses to grade them ("run mancala suite bless"). */
export function unblessedCases(suite: Suite): SuiteCase[] {
  return suite.cases.filter((c) => !isBlessed(suite, c));
}

/** Ids in expected.json that no case has any more (bless removes them). */
export function orphanedExpected(suite: Suite): string[] {
  const ids = new Set(suite.cases.map((c) => c.id));
  return Object.keys(suite.expected).filter((id) => !ids.has(id)).sort();
}

