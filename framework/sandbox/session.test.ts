/**
 * The hostile-agent zoo (testcases/fixtures/hostile-agents/) against a real sandbox session: each hostile
 * agent gets the right status and a clear message, writes nothing, leaves the grader alive, and
 * the same session answers a normal request afterwards.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GameSpec, RoleSpec } from '../suites/types.ts';
import { MancalaGame } from '../games/mancala/engine.ts';
import { boardToState, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { PROFILES } from '../games/mancala/profiles.ts';
import { TicTacToeGame } from '../games/tictactoe/game.ts';
import { createRandom } from '../random.ts';
import { runAgent } from '../search/run-agent.ts';
import basic from '../../agents/heuristics/basic.ts';
import normalAgent from '../../testcases/fixtures/hostile-agents/normal/agent.ts';
import type { Attempt, ChildRequest } from './exchange.ts';
import { prepareSubmission, type PreparedSubmission } from './submissions/prepare.ts';
import { OUTPUT_LIMIT_BYTES, OUTPUT_TAIL_BYTES } from './sandboxed-process.ts';
import { SandboxSession } from './session.ts';

// Which limit a leak meets first, and what a coarse poll saw, hang on how fast this VM faults pages in:
// measured to vary run to run on the 2-core machine (the unchanged code too), so these few retry.
const LIMIT_RETRY = { retry: 3 };

const ZOO = join(dirname(fileURLToPath(import.meta.url)), '../../testcases/fixtures/hostile-agents');

const kalah = PROFILES['kalah']!;
const GAME: GameSpec = { kind: 'mancala', profile: 'kalah', rules: kalah.rules, name: 'kalah(6,4)' };
const START: BoardSpec = { top: [4, 4, 4, 4, 4, 4], bottom: [4, 4, 4, 4, 4, 4], topStore: 0, bottomStore: 0 };
const MIDGAME: BoardSpec = { top: [0, 5, 1, 6, 2, 0], bottom: [3, 0, 7, 1, 0, 4], topStore: 9, bottomStore: 10, toMove: 1 };

/** `agent`: the hostile module; `normal`: a plain agent added next to it (first legal move). */
const ROLES: Record<string, RoleSpec> = {
  agent: { kind: 'agent', files: ['agent.ts', 'agent.js'], reference: 'alphabeta' },
  normal: { kind: 'agent', files: ['normal/agent.js'], reference: 'random' },
};

/** Generous limits for a loaded 2-core machine; the hostile ones only need to be stopped. */
const LIMIT_MS = 1000;
const HARD_LIMIT_MS = 1500;
const MEMORY_MB = 128;

function moveRequest(role: string, board: BoardSpec = START, extra: Partial<Extract<ChildRequest, { type: 'move' }>> = {}): ChildRequest {
  return {
    type: 'move',
    role,
    game: GAME,
    board,
    player: board.toMove ?? 0,
    options: { depth: 3 },
    heuristic: 'basic',
    timeLimitMs: LIMIT_MS,
    seed: 7,
    trace: false,
    ...extra,
  };
}

function filesUnder(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[]).map((f) => String(f)).sort();
}

const scratch: string[] = [];
function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

interface Hostile {
  folder: string;
  sub: PreparedSubmission;
  session: SandboxSession;
  /** the submission's files (original and copy) before the request */
  before: { original: string[]; copy: string[] };
}

const open: Hostile[] = [];

/** A submission made of zoo/NAME plus the plain agent as normal/agent.js (and `extra` files). */
async function hostile(name: string, extra: Record<string, string> = {}, links: Record<string, string> = {}, sandbox: 'full' | 'weak' = 'full', loadTimeoutMs?: number): Promise<Hostile> {
  const folder = tempFolder(`zoo-${name}-`);
  cpSync(join(ZOO, name), folder, { recursive: true });
  mkdirSync(join(folder, 'normal'));
  cpSync(join(ZOO, 'first-legal', 'agent.js'), join(folder, 'normal', 'agent.js'));
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(folder, file), text);
  for (const [file, target] of Object.entries(links)) symlinkSync(target, join(folder, file));
  const sub = await prepareSubmission(folder, ROLES);
  const session = await SandboxSession.open(sub, { memoryMb: MEMORY_MB }, { game: GAME, sandbox, loadTimeoutMs });
  const h = { folder, sub, session, before: { original: filesUnder(folder), copy: filesUnder(sub.dir) } };
  open.push(h);
  return h;
}

/** The session still works: the plain agent answers with the first legal move. */
async function expectStillWorks(h: Hostile): Promise<void> {
  const after = await h.session.request(moveRequest('normal'), 10_000);
  expect(after).toMatchObject({ status: 'ok', observation: { move: 0, nodes: 1, evaluations: 0 } });
  // Nothing was written, in the submission or in its private copy.
  expect(filesUnder(h.folder)).toEqual(h.before.original);
  expect(filesUnder(h.sub.dir)).toEqual(h.before.copy);
}

function expectFailure(a: Attempt, status: Attempt['status'], message: RegExp): asserts a is Extract<Attempt, { message: string }> {
  expect(a.status, JSON.stringify(a)).toBe(status);
  expect((a as { message: string }).message).toMatch(message);
}

afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.session.close();
    await h.sub.dispose();
  }
});

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('a normal agent in the sandbox', () => {
  let sub: PreparedSubmission;
  let session: SandboxSession;
  beforeAll(async () => {
    // Prepared in place: its imports of framework/contracts/ are read from the zoo's real location.
    sub = await prepareSubmission(join(ZOO, 'normal'), { agent: ROLES.agent! });
    session = await SandboxSession.open(sub, { memoryMb: 256 }, { game: GAME });
  });
  afterAll(async () => {
    await session?.close();
    await sub?.dispose();
  });

  it('answers exactly what runAgent gives in-process: move, value, nodes, evaluations, report', async () => {
    for (const board of [START, MIDGAME]) {
      const got = await session.request(moveRequest('agent', board), 10_000);
      const game = new MancalaGame(kalah.rules, 'kalah(6,4)');
      const local = await runAgent(normalAgent, {
        game,
        state: boardToState(game, board, board.toMove ?? 0),
        heuristic: basic,
        options: { depth: 3 },
        timeLimitMs: LIMIT_MS,
        random: createRandom(7),
      });
      expect(got.status, JSON.stringify(got)).toBe('ok');
      if (got.status !== 'ok') return;
      expect(got.observation).toMatchObject({
        move: local.choice.move,
        value: local.choice.value,
        nodes: local.nodes,
        evaluations: local.evaluations,
        reported: local.reported,
      });
      expect(got.observation.nodes).toBeGreaterThan(20);
    }
  });

  it('is the MoveAsker for the agent role', async () => {
    const got = await session.chooseMove(MIDGAME, 1, { depth: 2 }, LIMIT_MS);
    expect(got).toMatchObject({ status: 'ok', observation: { move: expect.any(Number) } });
  });

  it('says whether the network is cut off', () => {
    expect(typeof session.isolation.network).toBe('boolean');
    if (!session.isolation.network) expect(session.isolation.note).toMatch(/network/);
  });
});

describe('heuristic roles, traces and Tic-Tac-Toe', () => {
  it('evaluates with a heuristic module, and hands it to an agent as role:NAME', async () => {
    const folder = tempFolder('zoo-heuristic-');
    writeFileSync(join(folder, 'heuristic.js'), 'export default { name: "stones", evaluate: (s, p, g) => g.store(s, p) * 10 - g.store(s, 1 - p) };\n');
    writeFileSync(join(folder, 'agent.js'), 'export default { name: "h1", chooseMove: (ctx) => ({ move: 0, value: ctx.heuristic.evaluate(ctx.state, ctx.player, ctx.game) }) };\n');
    const sub = await prepareSubmission(folder, {
      agent: { kind: 'agent', files: ['agent.js'], reference: 'random' },
      heuristic: { kind: 'heuristic', files: ['heuristic.js'], reference: 'basic' },
    });
    const session = await SandboxSession.open(sub, { memoryMb: MEMORY_MB });
    try {
      const evaluated = await session.request({ type: 'evaluate', role: 'heuristic', game: GAME, board: MIDGAME, player: 0 }, 5000);
      expect(evaluated).toMatchObject({ status: 'ok', observation: { heuristicValue: 10 * 10 - 9 } });
      const moved = await session.request(moveRequest('agent', MIDGAME, { player: 0, heuristic: 'role:heuristic' }), 5000);
      expect(moved).toMatchObject({ status: 'ok', observation: { move: 0, value: 91, evaluations: 1 } });
    } finally {
      await session.close();
      await sub.dispose();
    }
  });

  it('collects the trace when asked, ±Infinity included, and says when evaluate returns garbage', async () => {
    const folder = tempFolder('zoo-trace-');
    writeFileSync(
      join(folder, 'agent.js'),
      `export default { name: "tracer", chooseMove(ctx) {
        ctx.trace?.({ type: 'enter', name: 'root', level: 0, maximizing: true, value: -Infinity, alpha: -Infinity, beta: Infinity });
        ctx.trace?.({ type: 'update', name: 'root', level: 0, maximizing: true, value: 3, alpha: 3, beta: Infinity });
        return { move: 1, value: 3 };
      } };\n`,
    );
    writeFileSync(join(folder, 'heuristic.js'), 'export default { name: "words", evaluate: () => "good" };\n');
    const sub = await prepareSubmission(folder, {
      agent: { kind: 'agent', files: ['agent.js'], reference: 'random' },
      heuristic: { kind: 'heuristic', files: ['heuristic.js'], reference: 'basic' },
    });
    const session = await SandboxSession.open(sub, { memoryMb: MEMORY_MB });
    try {
      const traced = await session.request(moveRequest('agent', START, { trace: true }), 5000);
      expect(traced).toMatchObject({
        status: 'ok',
        observation: {
          trace: [
            { type: 'enter', value: -Infinity, alpha: -Infinity, beta: Infinity },
            { type: 'update', value: 3, beta: Infinity },
          ],
        },
      });
      const untraced = await session.request(moveRequest('agent'), 5000);
      expect(untraced.status === 'ok' && untraced.observation.trace).toBe(undefined);
      expectFailure(await session.request({ type: 'evaluate', role: 'heuristic', game: GAME, board: START, player: 0 }, 5000), 'error', /evaluate must return a number, got "good"/);
    } finally {
      await session.close();
      await sub.dispose();
    }
  });

  it('plays Tic-Tac-Toe from the request\'s tictactoe board', async () => {
    const sub = await prepareSubmission(join(ZOO, 'first-legal', 'agent.js'), { agent: ROLES.agent! });
    const session = await SandboxSession.open(sub, { memoryMb: MEMORY_MB });
    try {
      const got = await session.request({ ...moveRequest('agent'), game: { kind: 'tictactoe', name: 'tictactoe' }, tictactoe: 'XO_/___/___', player: 0 }, 5000);
      const first = new TicTacToeGame().legalMoves(new TicTacToeGame().fromString('XO_/___/___'))[0];
      expect(got).toMatchObject({ status: 'ok', observation: { move: first } });
    } finally {
      await session.close();
      await sub.dispose();
    }
  });
});

describe('the hostile-agent zoo', () => {
  it('an endless loop: timeout, with the move it reported last', async () => {
    const h = await hostile('infinite-loop');
    const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
    expectFailure(a, 'timeout', /no answer within 1500 ms of CPU time: the process was stopped; the last move it reported was 2/);
    expect(a.reported).toEqual({ move: 2, value: 5 });
    expect(a.ms).toBeGreaterThanOrEqual(HARD_LIMIT_MS - 5);
    await expectStillWorks(h);
  });

  it('freezes every clock it can reach: the parent measures its CPU time anyway, over the 500 ms it was given', async () => {
    const h = await hostile('freezes-clock');
    // It works 650 ms of CPU by its own meter; the stop comes well after that, so that the start-up
    // and garbage collection a busy machine adds to the tree's CPU time cannot make this a timeout.
    const a = await h.session.request(moveRequest('agent', START, { timeLimitMs: 500 }), 3_000);
    expect(a.status, JSON.stringify(a)).toBe('ok');
    if (a.status !== 'ok') return;
    // Its clocks stood still; the cgroup's did not: the runner and the time check see more than 500 ms.
    expect(a.observation.ms).toBeGreaterThan(600);
    expect(a.ms).toBe(a.observation.ms);
    await expectStillWorks(h);
  });

  it('a promise that never settles: timeout', async () => {
    const h = await hostile('never-resolves');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'timeout', /no answer within 1500 ms \(after \d+ ms of wall-clock time it had used only \d+ ms of CPU: it was waiting, not computing\)/);
    await expectStillWorks(h);
  });

  it('takes 24 MB at once, then waits: timeout, not memory (its memory grew, but it was not allocating)', LIMIT_RETRY, async () => {
    const h = await hostile('holds-and-waits');
    expectFailure(await h.session.request(moveRequest('agent'), 600), 'timeout', /no answer within 600 ms \(after \d+ ms of wall-clock time it had used only \d+ ms of CPU: it was waiting, not computing\)/);
    await expectStillWorks(h);
  });

  it('a heap bomb: memory', async () => {
    const h = await hostile('heap-bomb');
    expectFailure(await h.session.request(moveRequest('agent'), 10_000), 'memory', /out of memory.*128 MB/);
    await expectStillWorks(h);
  });

  it('a Buffer bomb (outside the heap): memory', async () => {
    const h = await hostile('buffer-bomb');
    expectFailure(await h.session.request(moveRequest('agent'), 10_000), 'memory', /allocation failed|out of memory/i);
    await expectStillWorks(h);
  });

  // It leaks 1 MB per 2 ms of its own CPU time (and the faults of its pages cost CPU too), so in
  // 200 ms it cannot reach 128 MB on any machine: the time limit fires first. 200 ms, not less: on a
  // VM that faults pages slowly (3.5 ms of CPU a MB, measured) the trend needs that long to show. The verdict must
  // still be memory — which limit fires first is a matter of the machine's speed.
  it('a steady leak stopped by a time limit it meets before its memory limit: memory all the same', LIMIT_RETRY, async () => {
    const h = await hostile('steady-leak');
    expectFailure(await h.session.request(moveRequest('agent'), 200), 'memory', /out of memory: the process was allocating without pause \(\d+ MB after \d+ ms of CPU time\) and would have gone over its 128 MB memory limit soon after its 200 ms/);
    await expectStillWorks(h);
  });

  it('a loop that allocates nothing, stopped at the same short limit: timeout', async () => {
    const h = await hostile('infinite-loop');
    expectFailure(await h.session.request(moveRequest('agent'), 150), 'timeout', /no answer within 150 ms of CPU time/);
    await expectStillWorks(h);
  });

  it('throws: error naming the message and the place', async () => {
    const h = await hostile('throws');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /chooseMove failed: Error: the zoo agent gave up \(at agent\.js:3/);
    await expectStillWorks(h);
  });

  it('throws later from a timer: error', async () => {
    const h = await hostile('async-throw');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /uncaught error.*thrown later, from a timer/);
    await expectStillWorks(h);
  });

  it('returns garbage: error quoting it', async () => {
    const h = await hostile('garbage-return');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /must return a move number or \{ move, value \}; got \{"move":"seven"/);
    await expectStillWorks(h);
  });

  it('an illegal move is not the sandbox\'s business: ok, with the move', async () => {
    const h = await hostile('illegal-move');
    expect(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS)).toMatchObject({ status: 'ok', observation: { move: 99 } });
    await expectStillWorks(h);
  });

  it('process.exit at import: error with the exit code', async () => {
    const h = await hostile('exit-at-import');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /exited with code 3 while loading role agent/);
    await expectStillWorks(h);
  });

  it('an endless loop at import: timeout while loading, within the load limit', async () => {
    const h = await hostile('loop-at-import', {}, {}, 'full', 1000);
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'timeout', /no answer within 1000 ms of CPU time while loading role agent/);
    await expectStillWorks(h);
  });

  it('requests asked at once are served one after the other', async () => {
    const h = await hostile('illegal-move');
    const both = await Promise.all([h.session.request(moveRequest('agent'), HARD_LIMIT_MS), h.session.request(moveRequest('normal'), HARD_LIMIT_MS)]);
    expect(both).toMatchObject([{ status: 'ok', observation: { move: 99 } }, { status: 'ok', observation: { move: 0 } }]);
  });

  it('reads a file outside the submission: access denied, and the content never shows', async () => {
    const hidden = tempFolder('hidden-');
    const secret = `SECRET-${process.pid}-${Date.now()}`;
    writeFileSync(join(hidden, 'expected.json'), JSON.stringify({ move: 4, secret }));
    const h = await hostile('reads-outside', { 'target.json': JSON.stringify({ path: join(hidden, 'expected.json') }) });
    const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
    expectFailure(a, 'error', /access denied by the sandbox \(FileSystemRead .*expected\.json\): a submission may read only its own files/);
    expect(JSON.stringify(a)).not.toContain(secret);
    expect(JSON.stringify(h.session.output())).not.toContain(secret);
    await expectStillWorks(h);
  });

  it('writes a file: access denied, and no file appears', async () => {
    const target = '/tmp/mancala-sandbox-zoo-written.txt';
    rmSync(target, { force: true });
    const h = await hostile('writes-file');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /access denied by the sandbox \(FileSystemWrite .*\): a submission may not write files/);
    expect(existsSync(target)).toBe(false);
    await expectStillWorks(h); // checks the submission and its copy hold no new file
  });

  it('starts a process: access denied', async () => {
    const target = '/tmp/mancala-sandbox-zoo-spawned.txt';
    rmSync(target, { force: true });
    const h = await hostile('spawns-process');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /access denied by the sandbox \(ChildProcess\): a submission may not start processes/);
    expect(existsSync(target)).toBe(false);
    await expectStillWorks(h);
  });

  it('connects to a local TCP server: no connection arrives when the network is isolated', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const h = await hostile('network', { 'port.json': JSON.stringify({ port }) });
      const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
      if (h.session.isolation.network) {
        expectFailure(a, 'error', /ENETUNREACH|ECONNREFUSED|EACCES/);
        expect(connections).toBe(0);
      } else {
        expect(h.session.isolation.note).toMatch(/network/);
      }
      await expectStillWorks(h);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('kills its parent: the grader survives, the request is an error', async () => {
    const h = await hostile('kills-parent');
    // Its parent is the jail's init, root's: the kernel refuses.
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /kill EPERM/);
    expect(process.kill(process.pid, 0)).toBe(true);
    await expectStillWorks(h);
  });

  it('kills its process group (kill 0): the grader survives, the request is an error', async () => {
    const h = await hostile('kills-group');
    // Its group is itself alone (a new session in the jail): it kills only itself.
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /exited with code 137|killed by SIGKILL/);
    expect(process.kill(process.pid, 0)).toBe(true);
    await expectStillWorks(h);
  });

  it('floods stdout: output-limit past the cap, and the grader keeps only a bounded tail', async () => {
    const h = await hostile('floods-stdout');
    const rssBefore = process.memoryUsage().rss;
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'output-limit', /wrote 8\.\d MB to stdout and stderr, more than the 8 MB allowed: the process was stopped/);
    const out = h.session.output();
    expect(out.stdoutTotal).toBeGreaterThan(OUTPUT_LIMIT_BYTES); // it did flood
    expect(out.stdout.length).toBeLessThanOrEqual(OUTPUT_TAIL_BYTES);
    expect(out.stdout).toContain('flood flood');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
    await expectStillWorks(h);
  });

  it('writes a forged message to the runtime\'s channel: dropped unread; it never answers, so timeout, and nothing about the protocol is said', async () => {
    const h = await hostile('forged-message');
    const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
    expectFailure(a, 'timeout', /no answer within 1500 ms/);
    expect(a.message).not.toMatch(/result|loaded|report|ready|field/);
    await expectStillWorks(h);
  });

  it('a symlink to a hidden file: refused at prepare, noted, and its content never reached', async () => {
    const hidden = tempFolder('hidden-');
    const secret = `SECRET-LINK-${process.pid}`;
    writeFileSync(join(hidden, 'answers.json'), JSON.stringify({ move: 4, secret }));
    const h = await hostile('symlink-out', {}, { 'answers.json': join(hidden, 'answers.json') });
    expect(h.sub.notes).toContain('answers.json: a symbolic link (refused)');
    expect(h.sub.notes.join('\n')).not.toContain(hidden);
    const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
    expectFailure(a, 'error', /ENOENT|no such file/);
    expect(JSON.stringify(a)).not.toContain(secret);
    await expectStillWorks(h);
  });

  it('a missing role and a role that failed to bundle are errors without a process round trip', async () => {
    const h = await hostile('syntax-error');
    expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /agent\.js:4:\d+: /);
    expectFailure(await h.session.request(moveRequest('nobody'), HARD_LIMIT_MS), 'error', /no role "nobody"/);
    await expectStillWorks(h);
  });

  it('paths of the private folder do not leak into messages', async () => {
    const h = await hostile('throws');
    const a = await h.session.request(moveRequest('agent'), HARD_LIMIT_MS);
    expect(a.status).toBe('error');
    expect(JSON.stringify(a)).not.toContain(h.sub.dir);
  });
});

describe('without namespaces (what a machine without unshare gets)', () => {
  it('says the network is not isolated', async () => {
    const h = await hostile('first-legal', {}, {}, 'weak');
    expect(h.session.isolation).toMatchObject({ network: false, note: expect.stringMatching(/network/) });
    await expectStillWorks(h);
  });

  it('process.kill is disabled in the child, so neither the parent nor the group can be signalled', async () => {
    for (const name of ['kills-parent', 'kills-group']) {
      const h = await hostile(name, {}, {}, 'weak');
      expectFailure(await h.session.request(moveRequest('agent'), HARD_LIMIT_MS), 'error', /process\.kill is not allowed in the sandbox/);
      expect(process.kill(process.pid, 0)).toBe(true);
      await expectStillWorks(h);
    }
  });
});

describe('when the grader dies', () => {
  it('a submission stuck in a loop dies with it (no orphan keeps a core busy)', async () => {
    const script = join(tempFolder('grader-'), 'grader.mts');
    const here = dirname(fileURLToPath(import.meta.url));
    writeFileSync(
      script,
      `import { prepareSubmission } from ${JSON.stringify(join(here, 'submissions/prepare.ts'))};
import { SandboxSession } from ${JSON.stringify(join(here, 'session.ts'))};

const sub = await prepareSubmission(${JSON.stringify(join(ZOO, 'infinite-loop'))}, ${JSON.stringify({ agent: ROLES.agent })});
const session = await SandboxSession.open(sub, { memoryMb: 128 });
void session.request(${JSON.stringify(moveRequest('agent'))}, 60_000);
setTimeout(() => console.log(JSON.stringify({ dir: sub.dir })), 300);
// Should the test fail to kill it, it goes by itself.
setTimeout(() => process.exit(1), 30_000);
`,
    );
    const { execa } = await import('execa');
    const grader = execa(process.execPath, ['--import', 'tsx', script], { cwd: join(here, '..', '..'), reject: false, buffer: false });
    let stderr = '';
    grader.stderr!.on('data', (d: Buffer) => (stderr = (stderr + String(d)).slice(-2000)));
    try {
      const line = await new Promise<string>((resolve) => {
        grader.stdout!.once('data', (d: Buffer) => resolve(String(d)));
        setTimeout(() => resolve(''), 20_000);
      });
      expect(line, `the grader script did not start: ${stderr}`).toMatch(/^\{"dir"/);
      const { dir } = JSON.parse(line) as { dir: string };
      scratch.push(dir);
      const running = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p) && cmdline(p).includes(dir));
      expect(running().length).toBeGreaterThan(0); // the chain: setpriv/prlimit/unshare and node
      // The killed grader cannot remove its runtime folder: the test does.
      const runtimeDir = /--allow-fs-read=([^\0]*mancala-sandbox-runtime-[^\0]*)/.exec(cmdline(running()[0]!))?.[1];
      if (runtimeDir !== undefined) scratch.push(runtimeDir);
      grader.kill('SIGKILL');
      await grader;
      for (let k = 0; k < 40 && running().length > 0; k++) await new Promise((r) => setTimeout(r, 50));
      expect(running()).toEqual([]);
    } finally {
      grader.kill('SIGKILL');
    }
  });
});

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
