/**
 * The player runtime and player sessions: the reference alpha-beta with a submission's heuristic,
 * in a sandboxed process of its own. Its bundle holds the reference search (and the agent
 * runtime's still does not), it loads heuristic roles only, the agent process cannot read it,
 * it runs only where the network is cut off, and what its messages say is bounded.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameSpec, RoleSpec } from '../suites/types.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { boardToState, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import alphabeta from '../../agents/alphabeta.ts';
import basic from '../heuristics/basic.ts';
import type { Attempt, ChildRequest } from './exchange.ts';
import { prepareSubmission, type PreparedSubmission } from './submissions/prepare.ts';
import { childRuntime, runtimeFolder } from './runtime.ts';
import { PLAYER_MESSAGE_CHARS, SandboxSession } from './session.ts';

const kalah = PROFILES['kalah']!;
const GAME: GameSpec = { kind: 'mancala', profile: 'kalah', rules: kalah.rules, name: 'kalah(6,4)' };
const MIDGAME: BoardSpec = { top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], topStore: 9, bottomStore: 10, toMove: 1 };
const ROLES: Record<string, RoleSpec> = {
  agent: { kind: 'agent', files: ['agent.js'], reference: 'alphabeta' },
  heuristic: { kind: 'heuristic', files: ['heuristic.js'], reference: 'basic' },
};
/** Alice's heuristic, as plain JavaScript: the store difference, the same numbers as `basic`. */
const STORE_DIFFERENCE = 'export default { name: "diff", evaluate: (s, p, g) => g.store(s, p) - g.store(s, 1 - p) };\n';
const FIRST_LEGAL_AGENT = 'export default { name: "first", chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[0] };\n';

const scratch: string[] = [];
const opened: { session: SandboxSession; sub: PreparedSubmission }[] = [];
afterAll(async () => {
  for (const { session, sub } of opened) {
    await session.close();
    await sub.dispose();
  }
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function submission(files: Record<string, string>, runtime: 'agent' | 'player', sandbox: 'full' | 'weak' = 'full'): Promise<{ session: SandboxSession; sub: PreparedSubmission }> {
  const folder = mkdtempSync(join(tmpdir(), 'player-test-'));
  scratch.push(folder);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  const sub = await prepareSubmission(folder, ROLES);
  const session = await SandboxSession.open(sub, { memoryMb: 128 }, { game: GAME, runtime, sandbox });
  const s = { session, sub };
  opened.push(s);
  return s;
}

function alphaBetaRequest(heuristic: string, board: BoardSpec = MIDGAME, role = 'builtin:alphabeta'): ChildRequest {
  return {
    type: 'move',
    role,
    game: GAME,
    board,
    player: board.toMove ?? 0,
    options: { depth: 4, unit: 'move', terminal: 'score', caching: false },
    heuristic,
    timeLimitMs: 5000,
    seed: 1,
    trace: false,
  };
}

function messageOf(a: Attempt): string {
  expect(a.status, JSON.stringify(a)).not.toBe('ok');
  return (a as { message: string }).message;
}

describe('the two runtimes', () => {
  it('the player runtime holds the reference alpha-beta and nothing else of agents/; the agent runtime holds none of it', async () => {
    const player = await childRuntime('player');
    const agent = await childRuntime('agent');
    expect(player.code).toContain('agents/reference/alphabeta.ts');
    expect(player.code).toContain('agents/reference/search-stack.ts');
    expect(player.code).not.toMatch(/agents\/(reference\/(minimax|iterative-deepening)|minimax|ids|strong|greedy|heuristics\/advanced)/);
    expect(agent.code).toContain('framework/heuristics/basic.ts');
    expect(agent.code).not.toContain('agents/');
    // Separate folders, neither a prefix of the other.
    expect(player.dir).toBe(runtimeFolder('player'));
    expect(agent.dir).toBe(runtimeFolder('agent'));
    expect(player.dir.startsWith(agent.dir)).toBe(false);
    expect(agent.dir.startsWith(player.dir)).toBe(false);
  });

  it('only the bootstrap is on disk: no runtime code in either folder, nothing of agents/ in the bootstrap', async () => {
    for (const kind of ['player', 'agent'] as const) {
      const runtime = await childRuntime(kind);
      expect(runtime.file.startsWith(runtime.dir)).toBe(true);
      for (const name of readdirSync(runtime.dir)) {
        const text = readFileSync(join(runtime.dir, name), 'utf8');
        expect(text).not.toContain('agents/');
        expect(text).not.toContain('AlphaBetaSearch');
      }
      expect(readFileSync(runtime.file, 'utf8')).toContain('new Script(');
    }
  });
});

describe('a player session', () => {
  it("plays the reference alpha-beta with the submission's heuristic: the same move, value and counts as in the grader's process", async () => {
    const { session } = await submission({ 'heuristic.js': STORE_DIFFERENCE, 'agent.js': FIRST_LEGAL_AGENT }, 'player');
    expect(session.runtime).toBe('player');
    for (const board of [MIDGAME, { ...MIDGAME, toMove: 0 as const }]) {
      const got = await session.request(alphaBetaRequest('role:heuristic', board), 10_000);
      const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
      const local = await runAgent(alphabeta, {
        game,
        state: boardToState(game, board, board.toMove),
        heuristic: basic,
        options: { depth: 4, unit: 'move', terminal: 'score', caching: false },
        random: createRandom(1),
      });
      expect(got, JSON.stringify(got)).toMatchObject({
        status: 'ok',
        observation: { move: local.choice.move, value: local.choice.value, nodes: local.nodes, evaluations: local.evaluations },
      });
    }
    // chooseMove (the playoff's MoveAsker) names the built-in agent itself.
    const asked = await session.chooseMove(MIDGAME, 1, { depth: 2, unit: 'move', terminal: 'score', heuristic: 'role:heuristic' }, 5000);
    expect(asked).toMatchObject({ status: 'ok', observation: { move: expect.any(Number) } });
  });

  it('refuses to load an agent role, as the agent or as the heuristic, before its code runs', async () => {
    // If this agent's module were imported, the process would exit with code 3.
    const { session } = await submission({ 'agent.js': 'process.exit(3);\nexport default { name: "x", chooseMove: () => 0 };\n', 'heuristic.js': STORE_DIFFERENCE }, 'player');
    expect(messageOf(await session.request({ ...alphaBetaRequest('basic'), role: 'agent' }, 5000))).toBe(
      'internal: a player session runs the reference alpha-beta with a heuristic role; it does not load the agent role "agent"',
    );
    expect(messageOf(await session.request(alphaBetaRequest('role:agent'), 5000))).toBe(
      'internal: a player session runs the reference alpha-beta with a heuristic role; it does not load the agent role "agent"',
    );
    expect(messageOf(await session.request(alphaBetaRequest('basic', MIDGAME, 'builtin:strong'), 5000))).toMatch(/offers builtin:alphabeta, not "builtin:strong"/);
    // The process never saw the agent: it still answers.
    expect(await session.request(alphaBetaRequest('role:heuristic'), 5000)).toMatchObject({ status: 'ok' });
  });

  it("cannot read the agent's bundle either (the heuristic's own folder holds it); an agent session has no built-in agents", async () => {
    // Bundles are numbered in role order: the agent's is 0-agent.mjs, next to the heuristic's.
    const peek = `import { readFileSync } from 'node:fs';\nexport default { name: "peek", evaluate: () => readFileSync(new URL('./0-agent.mjs', import.meta.url), 'utf8').length };\n`;
    const { session, sub } = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': peek }, 'player');
    expect((sub.roles.agent as { file: string }).file).toMatch(/[\\/]0-agent\.mjs$/);
    expect(messageOf(await session.request(alphaBetaRequest('role:heuristic'), 5000))).toMatch(/^role heuristic: evaluate failed: access denied by the sandbox \(FileSystemRead .*0-agent\.mjs\)/);
    // The same module in an agent session reads it (so the refusal above is the player session's doing).
    const agentSide = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': peek }, 'agent');
    expect(await agentSide.session.request({ type: 'evaluate', role: 'heuristic', game: GAME, board: MIDGAME, player: 0 }, 5000)).toMatchObject({ status: 'ok' });
    expect(messageOf(await agentSide.session.request(alphaBetaRequest('basic'), 5000))).toBe('internal: role "builtin:alphabeta": only a player session runs the reference agents');
  });

  it("words the heuristic's failures as its own, and cuts them short", async () => {
    const { session } = await submission(
      { 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': 'export default { name: "loud", evaluate: (s) => { throw new Error("x".repeat(5000)); } };\n' },
      'player',
    );
    const message = messageOf(await session.request(alphaBetaRequest('role:heuristic'), 5000));
    expect(message).toMatch(/^role heuristic: evaluate failed: Error: xxxx/);
    expect(message).toHaveLength(PLAYER_MESSAGE_CHARS);
    const words = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': 'export default { name: "words", evaluate: () => "good" };\n' }, 'player');
    expect(messageOf(await words.session.request(alphaBetaRequest('role:heuristic'), 5000))).toBe('role heuristic: evaluate must return a number, got "good"');
  });

  it('runs nothing where the network cannot be cut off', async () => {
    const { session } = await submission({ 'agent.js': FIRST_LEGAL_AGENT, 'heuristic.js': STORE_DIFFERENCE }, 'player', 'weak');
    expect(session.isolation.network).toBe(false);
    expect(messageOf(await session.request(alphaBetaRequest('role:heuristic'), 5000))).toMatch(
      /^internal: the grading machine cannot cut a process off the network.*so the reference alpha-beta is not run with submitted code here/,
    );
  });
});
