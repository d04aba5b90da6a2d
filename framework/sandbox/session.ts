/**
 * A sandbox session: one long-lived, isolated Node process per submission, reused for all its
 * requests (they are sequential), restarted lazily after it was killed or died.
 *
 * Threat model. The student's code is hostile until proven otherwise; it runs only in the child.
 *  - Isolated, by the jail (jail/command.ts; jail/mechanisms.ts says what this machine has): the file system
 *    (it sees the read-only system, its private copy and the runtime, nothing else; Node's
 *    permission model on top refuses every write, process, worker and addon), processes (its own
 *    pid namespace, an unprivileged user: it cannot signal the grader or a neighbour), the network
 *    (its own empty network namespace), memory (the tree's resident memory, capped and measured by
 *    a cgroup; the heap limit a little below it so a heap bomb says so), time (the CPU time of the
 *    tree while a request is out, read by the parent from the cgroup, with a wall-clock backstop;
 *    nothing the child says about time is believed), output (counted as it streams, stopped past
 *    a cap, only a bounded tail kept) and the environment (empty: no secrets).
 *  - Not isolated: what it says about itself. Counts (nodes, evaluations) are measured inside the
 *    child by the provided instrumented Game, so a student can make them wrong only by not using
 *    that Game. Graders cross-check the move itself, and expected answers never leave the parent.
 *  - Only the runtime can answer: every line it writes on fd 3 carries a token sent to it before
 *    any student code ran (protocol.ts); lines without it are dropped unread, so a forged answer
 *    changes nothing and the report says nothing about the protocol. An exit, a crash or a
 *    timeout becomes an Attempt with status error / memory / timeout / output-limit: `request`
 *    never rejects because of anything the child does.
 *
 * No reference search here. The process runs the runtime of runtime.ts, which holds none: a
 * heuristic's playoff ("your heuristic under our alpha-beta") runs the reference alpha-beta in the
 * grader (grading/grader-search-player.ts), which asks this session only for the heuristic's
 * values of the positions it needs (evaluateMany: one request a batch of positions).
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Player } from '../contracts/game.ts';
import { stateToBoard, type BoardSpec } from '../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../games/mancala/engine.ts';
import type { CaseOptions, GameSpec } from '../suites/types.ts';
import { moveRequest, type Attempt, type ChildRequest, type HeuristicAsker, type MoveAsker, type ValuesAttempt } from './exchange.ts';
import { jailCommand } from './jail/command.ts';
import { SANDBOX_UID } from './jail/machine.ts';
import { blockedForSandboxUser, runsAsSandboxUserOnHost } from './jail/sandbox-user.ts';
import { createMeter, describeMechanisms, sandboxFor, type Mechanisms, type SandboxMode } from './jail/mechanisms.ts';
import { describeOutcome } from './outcome-wording.ts';
import { isInside } from './paths.ts';
import { COPY_FOLDER, type PreparedSubmission } from './submissions/prepare.ts';
import type { ParentMessage } from './protocol.ts';
import { childRuntime, type ChildRuntime } from './runtime.ts';
import { SandboxedProcess, type CallResult } from './sandboxed-process.ts';
import { hardLimitFor } from './hard-limit.ts';

/** What isolates a session's process, as reports show it. */
export interface Isolation {
  /** true when the child has no network (its own network namespace) */
  network: boolean;
  /** why the isolation is weaker than intended, when it is */
  note?: string;
}

export interface SessionLimits {
  /** the resident memory of the child's process tree (a cgroup limit); the heap limit sits a little below */
  memoryMb: number;
}

const MB = 1024 * 1024;
/** What Node itself holds besides the heap (code, runtime, buffers): the heap limit leaves this much room. */
const NODE_BASE_MB = 64;
/** Threads and processes the child may have at once (Node runs about a dozen threads). */
const MAX_PROCESSES = 64;

/** The wall-clock backstop for a request allowed `cpuMs` of CPU: generous, since a loaded machine shares its cores. */
export function wallBackstopFor(cpuMs: number): number {
  return 3 * cpuMs + 2000;
}

export interface SessionOptions {
  /** the game `chooseMove` (MoveAsker) plays; without it, the game of the latest request */
  game?: GameSpec;
  /** how long starting the child may take (spawn until the runtime is ready); not a case's time */
  readyTimeoutMs?: number;
  /** how long importing a role's module may take (code that runs at import); not a case's time */
  loadTimeoutMs?: number;
  /** `weak`: without bubblewrap (the instructor's explicit choice; jail/mechanisms.ts). Default `full`. */
  sandbox?: SandboxMode;
}

export const READY_TIMEOUT_MS = 20_000;
export const LOAD_TIMEOUT_MS = 10_000;

/** The CPU time an agent given `timeLimitMs` may use before it is stopped (hard-limit.ts). */
export { hardLimitFor };

/** V8 flags the `mancala` launcher uses too (bin/mancala.js): speed only, never results. */
const V8_FLAGS = ['--no-lazy-feedback-allocation', '--max-inlined-bytecode-size=1000', '--max-inlined-bytecode-size-cumulative=3000'];

type RoleNeed = { role: string; kind: 'agent' | 'heuristic'; file: string };

export class SandboxSession implements MoveAsker, HeuristicAsker {
  /** network: false means the child is NOT cut off from the network; `note` says why */
  readonly isolation: Isolation;
  /** ms the last start of the child took, spawn until ready */
  lastStartMs: number | undefined;
  private proc: SandboxedProcess | undefined;
  private nextId = 1;
  private closed = false;
  /** the game of the latest request: chooseMove's game when the session was opened without one */
  private lastGame: GameSpec | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly sub: PreparedSubmission,
    private readonly limits: SessionLimits,
    private readonly options: SessionOptions,
    private readonly runtimeFiles: ChildRuntime,
    private readonly mechanisms: Mechanisms,
  ) {
    const jailed = this.mode === 'full' && mechanisms.bwrap !== undefined;
    const weaker = !jailed || mechanisms.missing.length > 0;
    this.isolation = weaker ? { network: jailed, note: describeMechanisms(mechanisms, this.mode) } : { network: true };
  }

  private get mode(): SandboxMode {
    return this.options.sandbox ?? 'full';
  }

  /**
   * Opens a session and starts its process (so the start does not fall into the first case).
   * Throws a UserError when the full sandbox is asked for and this machine cannot give it.
   */
  static async open(sub: PreparedSubmission, limits: SessionLimits, options: SessionOptions = {}): Promise<SandboxSession> {
    const [runtime, mechanisms] = await Promise.all([childRuntime(), sandboxFor(options.sandbox ?? 'full')]);
    const session = new SandboxSession(sub, limits, options, runtime, mechanisms);
    // A failure to start is reported by the first request, which tries again.
    await session.process();
    return session;
  }

  /** What the current process printed lately (bounded tails), e.g. to show a student. */
  output(): { stdout: string; stderr: string; /** bytes the process wrote in all */ stdoutTotal: number; stderrTotal: number } {
    const p = this.proc;
    if (p === undefined) return { stdout: '', stderr: '', stdoutTotal: 0, stderrTotal: 0 };
    return { stdout: p.stdout.text(), stderr: p.stderr.text(), stdoutTotal: p.stdout.total, stderrTotal: p.stderr.total };
  }

  /**
   * MoveAsker: the agent role `role` (default `agent`) chooses a move, searching as `options` say.
   * The deadline is `timeLimitMs`, the hard limit a little later.
   */
  chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, agentRole = 'agent'): Promise<Attempt> {
    const game = this.options.game ?? this.lastGame;
    if (game === undefined) {
      return Promise.resolve({ status: 'error', message: 'internal: SandboxSession.chooseMove does not know the game: open the session with options.game', ms: 0 });
    }
    return this.request(moveRequest(agentRole, game, board, player, options, timeLimitMs), hardLimitFor(timeLimitMs));
  }

  /**
   * HeuristicAsker: the heuristic role's values of Mancala `states` from `side`'s point of view,
   * in one request (a heuristic's playoff: the reference alpha-beta runs in the grader and asks
   * only this). `ms` is the process's CPU time over the request, as for any request.
   */
  evaluateMany(role: string, game: GameSpec, side: Player, states: readonly MancalaState[], hardLimitMs: number): Promise<ValuesAttempt> {
    if (game.kind !== 'mancala') return Promise.resolve({ status: 'error', message: 'internal: evaluateMany asks Mancala positions', ms: 0 });
    const engine = new MancalaGame(game.rules, game.name);
    const boards = states.map((s) => stateToBoard(engine, s));
    const run = this.queue.then(async (): Promise<ValuesAttempt> => {
      const message: ParentMessage = { type: 'evaluate-many', id: 0, role, game, player: side, boards };
      const attempt = await this.run(game, [{ role, kind: 'heuristic' }], message, hardLimitMs);
      if (attempt.status !== 'ok') return attempt;
      const values = attempt.observation.heuristicValues;
      if (values === undefined || values.length !== states.length) return { status: 'error', message: `internal: the sandbox runtime answered ${values?.length ?? 'no'} values for ${states.length} positions`, ms: attempt.ms };
      return { status: 'ok', values, ms: attempt.ms };
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Runs one request in the child. `hardLimitMs` counts from sending the request (starting the
   * child and importing the role's module have their own, generous limits and do not count).
   */
  request(req: ChildRequest, hardLimitMs: number): Promise<Attempt> {
    // One request at a time, in the order asked: callers that overlap them simply wait.
    const run = this.queue.then(() => this.run(req.game, this.needsOf(req), this.wireRequest(req), hardLimitMs));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Loads the roles `wanted` (those not loaded yet), then sends `request`. */
  private async run(game: GameSpec, wanted: readonly { role: string; kind: 'agent' | 'heuristic' }[], request: ParentMessage, hardLimitMs: number): Promise<Attempt> {
    if (this.closed) throw new Error('SandboxSession.request after close()');
    this.lastGame = game;
    const needs = this.rolesFor(wanted);
    if ('missing' in needs) return { status: 'error', message: needs.missing, ms: 0 };

    const proc = await this.process();
    if ('problem' in proc) return { status: 'error', message: `the sandbox could not start the submission's process: ${proc.problem}`, ms: 0 };

    for (const need of needs) {
      if (proc.loaded.has(need.role)) continue;
      const loadLimit = this.options.loadTimeoutMs ?? Math.max(LOAD_TIMEOUT_MS, hardLimitMs);
      const result = await proc.call({ type: 'load', id: this.nextId++, role: need.role, kind: need.kind, file: need.file }, { cpuMs: loadLimit, wallMs: wallBackstopFor(loadLimit) });
      if (result.outcome.kind === 'reply' && result.outcome.message.type === 'loaded') {
        proc.loaded.add(need.role);
        continue;
      }
      const during = `while loading role ${need.role} (the code that runs when its module is imported)`;
      return this.settle(proc, this.attempt(result, loadLimit, during));
    }

    const message = { ...request, id: this.nextId++ };
    const result = await proc.call(message, { cpuMs: hardLimitMs, wallMs: wallBackstopFor(hardLimitMs) });
    return this.settle(proc, this.attempt(result, hardLimitMs, ''));
  }

  /** A process that ran out of memory is not trusted with the next request: it is replaced. */
  private async settle(proc: SandboxedProcess, attempt: Attempt): Promise<Attempt> {
    if (attempt.status === 'memory') await proc.kill();
    return attempt;
  }

  /** Kills the process; the session cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const p = this.proc;
    this.proc = undefined;
    await p?.kill();
  }

  // ---- internals ----------------------------------------------------------------------------------

  /** The running process, started if there is none (first use, or after a kill or a crash). */
  private async process(): Promise<SandboxedProcess | { problem: string }> {
    if (this.proc?.alive) return this.proc;
    this.proc = undefined;
    const jailed = this.mode === 'full' && this.mechanisms.bwrap !== undefined;
    const blocker = runsAsSandboxUserOnHost(this.mechanisms, this.mode) ? blockedForSandboxUser(process.execPath) : undefined;
    if (blocker !== undefined) {
      return { problem: `the weak sandbox runs submissions as user ${SANDBOX_UID}, who cannot run Node at ${process.execPath} (${blocker} is closed to other users); install Node where any user can run it` };
    }
    const readable = this.readablePaths();
    const nodeArgs = [
      // Node's permission model inside the jail: defence in depth (no writes, processes, workers, addons).
      '--experimental-permission',
      // One flag per path: a comma-separated list is not honoured by Node 20.
      ...readable.map((path) => `--allow-fs-read=${path}`),
      `--max-old-space-size=${Math.max(16, this.limits.memoryMb - NODE_BASE_MB)}`,
      '--disable-warning=ExperimentalWarning',
      '--enable-source-maps',
      ...V8_FLAGS,
      // Time is the tree's CPU time: with V8's background GC and compiler threads a search of
      // 130 ms wall used 170 ms of CPU (measured); on one thread CPU time is the agent's own work.
      '--single-threaded',
      this.runtimeFiles.file,
      // Without a pid namespace of its own, the child could signal the grader by pid.
      ...(jailed ? [] : ['--lock-kill']),
    ];
    const meter = createMeter(this.mechanisms, { memoryBytes: this.limits.memoryMb * MB, maxProcesses: MAX_PROCESSES });
    // The filter's descriptor: the first after stdin, stdout, stderr and the channel (sandboxed-process.ts).
    const command = jailCommand(this.mechanisms, this.mode, meter, {
      argv: [process.execPath, ...nodeArgs],
      cwd: join(this.sub.dir, COPY_FOLDER),
      env: {},
      readOnly: [...nodeInstallation(), ...readable],
      // Nothing is written (the permission model refuses it); a small /tmp for runtimes that look for one.
      writable: [{ path: '/tmp', sizeBytes: MB }],
      fileSizeBytes: MB,
    }, 4);
    const started = await SandboxedProcess.start({ ...command, meter, runtime: this.runtimeFiles }, this.options.readyTimeoutMs ?? READY_TIMEOUT_MS);
    if ('problem' in started) return started;
    this.lastStartMs = started.ms;
    this.proc = started.process;
    return started.process;
  }

  /** What the child may read: the submission's private folder (its copy and its bundles) and the runtime's folder. */
  private readablePaths(): string[] {
    return [this.sub.dir, this.runtimeFiles.dir];
  }

  /** The roles a request uses, in load order: its own, and the heuristic role a move names. */
  private needsOf(req: ChildRequest): { role: string; kind: 'agent' | 'heuristic' }[] {
    const needs: { role: string; kind: 'agent' | 'heuristic' }[] = [{ role: req.role, kind: req.type === 'move' ? 'agent' : 'heuristic' }];
    if (req.type === 'move' && req.heuristic.startsWith('role:')) needs.push({ role: req.heuristic.slice('role:'.length), kind: 'heuristic' });
    return needs;
  }

  /** The role modules to load, with their files, or why one is missing. */
  private rolesFor(wanted: readonly { role: string; kind: 'agent' | 'heuristic' }[]): RoleNeed[] | { missing: string } {
    const out: RoleNeed[] = [];
    for (const need of wanted) {
      const prepared = this.sub.roles[need.role];
      if (prepared === undefined) return { missing: `the suite has no role "${need.role}"` };
      if ('missing' in prepared) return { missing: prepared.missing };
      out.push({ ...need, file: prepared.file });
    }
    return out;
  }

  /** The request as sent: only the fields the protocol knows. */
  private wireRequest(req: ChildRequest): ParentMessage {
    const extra = req.tictactoe === undefined ? {} : { tictactoe: req.tictactoe };
    if (req.type === 'evaluate') {
      return { type: 'evaluate', id: 0, role: req.role, game: req.game, board: req.board, player: req.player, ...extra };
    }
    return {
      type: 'move',
      id: 0,
      role: req.role,
      game: req.game,
      board: req.board,
      player: req.player,
      options: req.options,
      heuristic: req.heuristic,
      timeLimitMs: req.timeLimitMs,
      seed: req.seed,
      trace: req.trace,
      ...extra,
    };
  }

  private attempt(result: CallResult, limitMs: number, during: string): Attempt {
    return describeOutcome(result, limitMs, during, { memoryMb: this.limits.memoryMb, submissionDir: this.sub.dir, runtimeDir: this.runtimeFiles.dir });
  }
}

/** The folder Node is installed in, when it is not under /usr (which the jail always shows). */
function nodeInstallation(): string[] {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return isInside('/usr', prefix) ? [] : [prefix];
}
