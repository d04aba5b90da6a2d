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
 * Two runtimes (runtime.ts). A session of the `agent` runtime (the default) runs the submission's
 * own roles; its code holds no reference search. A session of the `player` runtime runs the
 * reference alpha-beta (`builtin:alphabeta`) with one of the submission's HEURISTIC roles: the
 * playoff that grades a heuristic ("your heuristic under our alpha-beta"). The reference search
 * is kept out of the heuristic's reach:
 *  - its code is never on a disk the child can see: the child runs a small bootstrap, which
 *    receives the runtime on stdin and compiles it from memory under a neutral name, in strict
 *    mode (no stack frame or `.caller` reaches its functions; heap snapshots are disabled);
 *  - it loads heuristic roles only: a request naming an agent role (or a heuristic that is an
 *    agent role's module) is refused here, before anything is imported, and by the runtime too;
 *  - it runs only in the full jail (no network, no writes): without it, every request is refused;
 *  - what it says is bounded: a failure's message is cut to PLAYER_MESSAGE_CHARS, and the playoff
 *    grader reports one forfeit reason a playoff.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Player } from '../contracts/game.ts';
import type { BoardSpec } from '../games/mancala/board-io/board.ts';
import type { CaseOptions, GameSpec } from '../suites/types.ts';
import { moveRequest, type Attempt, type ChildRequest, type MoveAsker } from './exchange.ts';
import { jailCommand } from './jail/command.ts';
import { SANDBOX_UID } from './jail/machine.ts';
import { blockedForSandboxUser, runsAsSandboxUserOnHost } from './jail/sandbox-user.ts';
import { createMeter, describeMechanisms, sandboxFor, type Mechanisms, type SandboxMode } from './jail/mechanisms.ts';
import { describeOutcome } from './outcome-wording.ts';
import { isInside } from './paths.ts';
import { COPY_FOLDER, type PreparedSubmission } from './submissions/prepare.ts';
import type { ParentMessage } from './protocol.ts';
import { childRuntime, type ChildRuntime, type RuntimeKind } from './runtime.ts';
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
  /**
   * `agent` (default): the submission's roles. `player`: the reference alpha-beta with one of the
   * submission's heuristic roles (a move request names role `builtin:alphabeta` and heuristic
   * `role:NAME`); it loads no agent role, and needs the network namespace (see the module comment).
   */
  runtime?: RuntimeKind;
}

/** The agents a player session offers, as move requests name them. */
export const PLAYER_AGENTS: readonly string[] = ['builtin:alphabeta'];
/** A player process's failure messages are cut to this length (the module comment says why). */
export const PLAYER_MESSAGE_CHARS = 400;

export const READY_TIMEOUT_MS = 20_000;
export const LOAD_TIMEOUT_MS = 10_000;

/** The CPU time an agent given `timeLimitMs` may use before it is stopped (hard-limit.ts). */
export { hardLimitFor };

/** V8 flags the `mancala` launcher uses too (bin/mancala.js): speed only, never results. */
const V8_FLAGS = ['--no-lazy-feedback-allocation', '--max-inlined-bytecode-size=1000', '--max-inlined-bytecode-size-cumulative=3000'];

type RoleNeed = { role: string; kind: 'agent' | 'heuristic'; file: string };

export class SandboxSession implements MoveAsker {
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
    const [runtime, mechanisms] = await Promise.all([childRuntime(options.runtime ?? 'agent'), sandboxFor(options.sandbox ?? 'full')]);
    const session = new SandboxSession(sub, limits, options, runtime, mechanisms);
    // A failure to start is reported by the first request, which tries again.
    if (session.refusal() === undefined) await session.process();
    return session;
  }

  /** What the current process printed lately (bounded tails), e.g. to show a student. */
  output(): { stdout: string; stderr: string; /** bytes the process wrote in all */ stdoutTotal: number; stderrTotal: number } {
    const p = this.proc;
    if (p === undefined) return { stdout: '', stderr: '', stdoutTotal: 0, stderrTotal: 0 };
    return { stdout: p.stdout.text(), stderr: p.stderr.text(), stdoutTotal: p.stdout.total, stderrTotal: p.stderr.total };
  }

  /** Which runtime the session's process runs. */
  get runtime(): RuntimeKind {
    return this.runtimeFiles.kind;
  }

  /**
   * MoveAsker: the agent role `role` (default `agent`) chooses a move; in a player session, the reference alpha-beta with
   * `options.heuristic` (`role:NAME`) does, searching as `options` say. The deadline is
   * `timeLimitMs`, the hard limit a little later.
   */
  chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, agentRole = 'agent'): Promise<Attempt> {
    const game = this.options.game ?? this.lastGame;
    if (game === undefined) {
      return Promise.resolve({ status: 'error', message: 'internal: SandboxSession.chooseMove does not know the game: open the session with options.game', ms: 0 });
    }
    const role = this.runtime === 'player' ? PLAYER_AGENTS[0]! : agentRole;
    return this.request(moveRequest(role, game, board, player, options, timeLimitMs), hardLimitFor(timeLimitMs));
  }

  /**
   * Runs one request in the child. `hardLimitMs` counts from sending the request (starting the
   * child and importing the role's module have their own, generous limits and do not count).
   */
  request(req: ChildRequest, hardLimitMs: number): Promise<Attempt> {
    // One request at a time, in the order asked: callers that overlap them simply wait.
    const run = this.queue.then(() => this.run(req, hardLimitMs));
    this.queue = run.catch(() => {});
    return run;
  }

  private async run(req: ChildRequest, hardLimitMs: number): Promise<Attempt> {
    if (this.closed) throw new Error('SandboxSession.request after close()');
    this.lastGame = req.game;
    const refused = this.refusal();
    if (refused !== undefined) return { status: 'error', message: refused, ms: 0 };
    const needs = this.rolesFor(req);
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

    const message = { ...this.wireRequest(req), id: this.nextId++ };
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

  /** Why this session runs nothing at all, if it does not: a player session without network isolation. */
  private refusal(): string | undefined {
    if (this.runtime !== 'player' || this.isolation.network) return undefined;
    return (
      'internal: the grading machine cannot cut a process off the network' +
      `${this.isolation.note === undefined ? '' : ` (${this.isolation.note})`}, ` +
      'so the reference alpha-beta is not run with submitted code here; the instructor must grade heuristic playoffs with the full sandbox (bubblewrap)'
    );
  }

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
    const command = jailCommand(this.mechanisms, this.mode, meter, {
      argv: [process.execPath, ...nodeArgs],
      cwd: join(this.sub.dir, COPY_FOLDER),
      env: {},
      readOnly: [...nodeInstallation(), ...readable],
      // Nothing is written (the permission model refuses it); a small /tmp for runtimes that look for one.
      writable: [{ path: '/tmp', sizeBytes: MB }],
      fileSizeBytes: MB,
    });
    const started = await SandboxedProcess.start({ ...command, meter, runtime: this.runtimeFiles }, this.options.readyTimeoutMs ?? READY_TIMEOUT_MS);
    if ('problem' in started) return started;
    this.lastStartMs = started.ms;
    this.proc = started.process;
    return started.process;
  }

  /**
   * What the child may read: the submission's private folder (its copy and its bundles) and the
   * runtime's folder. A player process gets the copy and its heuristic roles' bundles only, so not
   * even the bundle of the submission's agent is within its reach.
   */
  private readablePaths(): string[] {
    if (this.runtime === 'agent') return [this.sub.dir, this.runtimeFiles.dir];
    const heuristics = Object.values(this.sub.roles).flatMap((r) => ('missing' in r || r.kind !== 'heuristic' ? [] : [r.file]));
    return [join(this.sub.dir, COPY_FOLDER), ...heuristics, this.runtimeFiles.dir];
  }

  /** The role modules a request needs, in load order, or why one is missing (or may not run here). */
  private rolesFor(req: ChildRequest): RoleNeed[] | { missing: string } {
    const player = this.runtime === 'player';
    const needs: { role: string; kind: 'agent' | 'heuristic' }[] = [];
    if (req.type === 'move' && req.role.startsWith('builtin:')) {
      if (!player) return { missing: `internal: role "${req.role}": only a player session runs the reference agents` };
      if (!PLAYER_AGENTS.includes(req.role)) return { missing: `internal: a player session offers ${PLAYER_AGENTS.join(', ')}, not "${req.role}"` };
    } else {
      needs.push({ role: req.role, kind: req.type === 'move' ? 'agent' : 'heuristic' });
    }
    if (req.type === 'move' && req.heuristic.startsWith('role:')) needs.push({ role: req.heuristic.slice('role:'.length), kind: 'heuristic' });
    const out: RoleNeed[] = [];
    for (const need of needs) {
      const prepared = this.sub.roles[need.role];
      if (prepared === undefined) return { missing: `the suite has no role "${need.role}"` };
      if ('missing' in prepared) return { missing: prepared.missing };
      // Checked before anything is imported: an agent's module never runs beside the reference search.
      if (player && (need.kind !== 'heuristic' || prepared.kind !== 'heuristic')) {
        return { missing: `internal: a player session runs the reference alpha-beta with a heuristic role; it does not load the ${prepared.kind} role "${need.role}"` };
      }
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
    const attempt = describeOutcome(result, limitMs, during, { memoryMb: this.limits.memoryMb, submissionDir: this.sub.dir, runtimeDir: this.runtimeFiles.dir });
    if (this.runtime !== 'player' || attempt.status === 'ok' || attempt.message.length <= PLAYER_MESSAGE_CHARS) return attempt;
    return { ...attempt, message: `${attempt.message.slice(0, PLAYER_MESSAGE_CHARS - 1)}…` };
  }
}

/** The folder Node is installed in, when it is not under /usr (which the jail always shows). */
function nodeInstallation(): string[] {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return isInside('/usr', prefix) ? [] : [prefix];
}
