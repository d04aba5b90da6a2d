/**
 * What student code in the sandboxed process can do to the runtime beside it: look for a reference
 * search while the grader's search asks it for values (it must find nothing), forge the runtime's answers on fd 3 (they
 * must be dropped, without a word), and replace the built-ins a program sends messages with (it
 * must be judged on its own answer). Hostile submissions come from testcases/fixtures/hostile-agents/, graded
 * through a real session as in session.test.ts.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { GameSpec, RoleSpec } from '../suites/types.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import type { Attempt, ChildRequest } from './exchange.ts';
import { prepareSubmission, type PreparedSubmission } from './submissions/prepare.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { boardToState } from '../games/mancala/board-io/board.ts';
import { PROJECT_ROOT } from './paths.ts';
import { childRuntime } from './runtime.ts';
import { SandboxSession } from './session.ts';

const ZOO = join(dirname(fileURLToPath(import.meta.url)), '../../testcases/fixtures/hostile-agents');
const GAME: GameSpec = { kind: 'mancala', profile: 'kalah', rules: PROFILES['kalah']!.rules, name: 'kalah(6,4)' };
const START: BoardSpec = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };
const MIDGAME: BoardSpec = { top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], topStore: 9, bottomStore: 10, toMove: 1 };

const AGENT: RoleSpec = { kind: 'agent', files: ['agent.js'], reference: 'random' };
const HEURISTIC: RoleSpec = { kind: 'heuristic', files: ['heuristic.js'], reference: 'basic' };
const LIMIT_MS = 1000;
const HARD_LIMIT_MS = 1500;

/**
 * Code of agents/reference/alphabeta.ts as esbuild bundles it (checked below, so the test means
 * something); the hostile heuristic looks for the same strings.
 */
const MARKERS = ['hit.bound === EXACT', 'this.leafCounters !== void 0 && table === void 0'];

const scratch: string[] = [];
const open: { session: SandboxSession; sub: PreparedSubmission }[] = [];
afterEach(async () => {
  for (const { session, sub } of open.splice(0)) {
    await session.close();
    await sub.dispose();
  }
});
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A session of zoo/NAME (plus `extra` files) with `roles`. */
async function zooSession(name: string, roles: Record<string, RoleSpec>, extra: Record<string, string> = {}) {
  const folder = mkdtempSync(join(tmpdir(), `channel-${name}-`));
  scratch.push(folder);
  if (name !== '') cpSync(join(ZOO, name), folder, { recursive: true });
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(folder, file), text);
  const sub = await prepareSubmission(folder, roles);
  const session = await SandboxSession.open(sub, { memoryMb: 256 }, { game: GAME });
  open.push({ session, sub });
  return session;
}

function moveRequest(board: BoardSpec = START): ChildRequest {
  return { type: 'move', role: 'agent', game: GAME, board, player: board.toMove ?? 0, options: { depth: 2 }, heuristic: 'basic', timeLimitMs: LIMIT_MS, seed: 1, trace: false };
}

function messageOf(a: Attempt): string {
  expect(a.status, JSON.stringify(a)).not.toBe('ok');
  return (a as { message: string }).message;
}

describe("a heuristic asked for values finds no reference search in its process", () => {
  it('the markers are code of the reference alpha-beta as bundled, and not in the sandbox runtime', async () => {
    const built = await build({ entryPoints: [join(PROJECT_ROOT, 'agents/alphabeta.ts')], bundle: true, format: 'cjs', platform: 'node', write: false, logLevel: 'silent' });
    const runtime = await childRuntime();
    for (const marker of MARKERS) {
      expect(built.outputFiles[0]!.text).toContain(marker);
      expect(runtime.code).not.toContain(marker);
    }
  });

  it('a heuristic that tries every way to read it finds it nowhere (files, /proc, functions, stack frames, modules, globals, the heap)', async () => {
    // A decoy in the submission holds the markers: the heuristic must report it, which shows its file probe works.
    const decoy = `notes copied from the lecture: ${MARKERS.join('; ')}\n`;
    const session = await zooSession('reads-reference-source', { heuristic: HEURISTIC }, { 'decoy.txt': decoy });
    const game = new MancalaGame(PROFILES['kalah']!.rules, GAME.name);
    const attempt = await session.evaluateMany('heuristic', GAME, 1, [boardToState(game, MIDGAME, 1)], 30_000);
    expect(attempt.status, JSON.stringify(attempt)).not.toBe('ok');
    const message = (attempt as { message: string }).message;
    expect(message).toMatch(/^role heuristic: evaluate failed: Error: probes: decoy=\d+ files=\d+ proc=\d+ arguments=\d+ caller=1 stack=\d+ modules=\d+ globals=\d+ heap=0; leaks: decoy \(at heuristic\.js:\d+:\d+\)$/);
    // Every probe ran and looked at something (heap=0: the snapshot was refused).
    for (const probe of ['files', 'arguments', 'stack', 'globals']) expect(Number(new RegExp(`${probe}=(\\d+)`).exec(message)![1])).toBeGreaterThan(0);
    const output = JSON.stringify(session.output());
    for (const marker of MARKERS) {
      expect(message).not.toContain(marker);
      expect(output).not.toContain(marker);
    }
  });
});

describe("the runtime's answers cannot be forged", () => {
  it('forged ready, loaded, report and result lines for every id, garbage and an unfinished line are dropped: the real answer counts', async () => {
    const session = await zooSession('forges-channel', { agent: AGENT });
    const first = await session.request(moveRequest(), HARD_LIMIT_MS);
    expect(first, JSON.stringify(first)).toMatchObject({ status: 'ok', observation: { move: 1, value: 7, nodes: 1 } });
    expect(first.status === 'ok' && first.observation.reported).toBe(undefined);
    // The same process goes on answering with its own moves.
    expect(await session.request(moveRequest(MIDGAME), HARD_LIMIT_MS)).toMatchObject({ status: 'ok', observation: { move: 1 } });
  });

  it('a forged line is no message to the student: the case is judged on what the agent did (here: never answering)', async () => {
    const session = await zooSession('forged-message', { agent: AGENT });
    const message = messageOf(await session.request(moveRequest(), 300));
    expect(message).toMatch(/^no answer within 300 ms/);
    expect(message).not.toMatch(/malformed|forged|\b(ready|report|loaded|result|failed)\b|"/);
  });

  it('an agent that replaces JSON, console, toJSON, Buffer.from and string and byte methods at import is judged on its illegal move', async () => {
    const session = await zooSession('replaces-json', { agent: AGENT });
    const a = await session.request(moveRequest(), HARD_LIMIT_MS);
    expect(a, JSON.stringify(a)).toMatchObject({ status: 'ok', observation: { move: 99 } });
  });
});

describe('where an error happened', () => {
  it('is named once, from the stack frames, even when the message names a submission path', async () => {
    const agent = [
      'import { readFileSync } from "node:fs";',
      'export default { name: "x", chooseMove(ctx) {',
      '  if (ctx.options.depth === 1) readFileSync("no-such-file.json");',
      '  throw new Error("bad (see /submission/notes.txt)\\n    more text (with parens)");',
      '} };',
      '',
    ].join('\n');
    const session = await zooSession('', { agent: AGENT }, { 'agent.js': agent });
    const thrown = messageOf(await session.request(moveRequest(), HARD_LIMIT_MS));
    expect(thrown).toBe('role agent: chooseMove failed: Error: bad (see /submission/notes.txt)\n    more text (with parens) (at agent.js:4:9)');
    const missing = messageOf(await session.request({ ...moveRequest(), options: { depth: 1 } } as ChildRequest, HARD_LIMIT_MS));
    expect(missing).toMatch(/^role agent: chooseMove failed: Error: ENOENT: no such file or directory, open 'no-such-file\.json' \(ENOENT\) \(at agent\.js:3:\d+\)$/);
    expect(missing.split('(at ')).toHaveLength(2);
  });
});
