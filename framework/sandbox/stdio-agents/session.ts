/**
 * A session with an agent in any language over stdio (protocol 1; agents/clients/PROTOCOL.md): what
 * SandboxSession is for a TypeScript agent, for a program. The same jail (jail/command.ts), meter, limits
 * and wording of outcomes; the program is started once per session (a match's player, a graded
 * submission), restarted lazily after it failed a request, and killed at the end.
 *
 * The build, if any, runs once per session before the first start, as a file program's does
 * (programs/build.ts: in the jail under its own limits, its folder read back); every start then
 * copies the built folder. Start-up (copying the submission into the writable work folder, the
 * interpreter or JVM, the program's own set-up until it says `ready`) has its own CPU limit.
 * Neither is charged to a move. A start that fails (a build error, a crash, no `ready`) is not
 * retried: every request then reports it, so a broken build costs one build, not one per case.
 *
 * The program's word is not believed about anything the grader can check: its move must be one of
 * the legal moves sent, and its time is the CPU time of its process tree, measured from outside.
 * Its value and node count are its own claims (there is no instrumented Game to count for it; a
 * course's bridge counts them on the course's own board, which the project wrote), as is
 * `visited`, the positions its search visited, which a trace case compares with the reference's.
 * It plays Mancala or Tic-Tac-Toe, whichever game the requests are of (its hello names it).
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Player } from '../../contracts/game.ts';
import type { BoardSpec } from '../../games/mancala/board-io/board.ts';
import { MancalaGame, type MancalaState } from '../../games/mancala/engine.ts';
import { TicTacToeGame } from '../../games/tictactoe/game.ts';
import type { CaseOptions, GameSpec } from '../../suites/types.ts';
import { moveRequest, type Attempt, type ChildRequest, type HeuristicAsker, type MoveAsker, type ValuesAttempt } from '../exchange.ts';
import { jailCommand, type JailSpec } from '../jail/command.ts';
import { handWritableFolders, runsAsSandboxUserOnHost } from '../jail/sandbox-user.ts';
import { createMeter, describeMechanisms, sandboxFor, type Mechanisms, type SandboxMode } from '../jail/mechanisms.ts';
import { describeOutcome } from '../outcome-wording.ts';
import { CLIENTS_DIR } from '../paths.ts';
import { buildInSandbox } from '../programs/build.ts';
import { stageFiles, type StagedFiles } from '../programs/staging.ts';
import { COPY_FOLDER, prepareSubmission, type PreparedSubmission } from '../submissions/prepare.ts';
import { companionRuntimes, JAVA_OPTIONS_NOTICE, resolveRuntime, runtimeEnv, type Runtime } from '../programs/runtimes.ts';
import { excerpt } from '../sandboxed-process.ts';
import { hardLimitFor, wallBackstopFor, type Isolation, type SessionLimits } from '../session.ts';
import { RuntimeClockMeter } from '../meters/runtime-clock.ts';
import { StdioAgentProcess, type StdioCallResult, type StdioOutcome } from './process.ts';
import type { StdioAgentSpec } from './spec.ts';
import { evaluateLine, evaluateManyLine, helloLine, moveLine, notMoveOf, type StdioEngine } from './wire.ts';
import { python2Hint } from '../programs/python2.ts';
import { studentText } from '../../student-text.ts';

const MB = 1024 * 1024;
/** CPU time a start may take: the runtime and the program's set-up (a build has its own limits: programs/build.ts). */
export const STARTUP_CPU_MS = 20_000;
/**
 * The client libraries (agents/clients/<language>) the grader offers every program, read-only:
 * on PYTHONPATH for Python; for Java, its MancalaAgent.java put in the build's folder. A copy in the submission wins.
 * Data, not code of the framework's: the framework imports nothing from agents/.
 */
export { CLIENTS_DIR } from '../paths.ts';
const MAX_PROCESSES = 128;
/** Room in the work folder (a tmpfs) beyond the submission's copy: a build's classes, the program's files. */
const WORK_BYTES = 64 * MB;
const TMP_BYTES = 16 * MB;
const FILE_BYTES = 16 * MB;
/** The work folder inside the jail (a tmpfs). */
const JAILED_WORK_DIR = '/sandbox';

/**
 * Copies the submission (built, if it builds) into the work folder (the copy the jail shows is
 * read-only), then becomes the program. Exit 96: the copy failed.
 */
const LAUNCHER = 'cp -R "$1"/. . || exit 96; shift; exec "$@"';

export interface StdioSessionOptions {
  /** the game chooseMove plays; without it, the game of the latest request */
  game?: GameSpec;
  sandbox?: SandboxMode;
  /** CPU ms the start may take (default STARTUP_CPU_MS) */
  startupCpuMs?: number;
}

export class StdioAgentSession implements MoveAsker, HeuristicAsker {
  readonly isolation: Isolation;
  /** CPU ms and wall ms the last start took (not charged to any move) */
  lastStart: { cpuMs: number; wallMs: number } | undefined;
  /** CPU ms and wall ms the build took, once per session (not charged to any move) */
  lastBuild: { cpuMs: number; wallMs: number } | undefined;
  /** the principal variation and log lines of the last answer, when the program sent them */
  lastAnswer: { pv?: number[]; log?: string[] } = {};
  private proc: StdioAgentProcess | undefined;
  /** the running program has answered a request (so an exit before the next one is no start failure) */
  private procAnswered = false;
  /** the built folder every start copies (undefined: nothing to build, or not built yet) */
  private built: StagedFiles | undefined;
  private startProblem: string | undefined;
  /** the game the running program was told about in its hello */
  private startedFor: string | undefined;
  private nextId = 1;
  private closed = false;
  private lastGame: GameSpec | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly engines = new Map<string, StdioEngine>();
  /** where the program runs: a tmpfs in the jail, a folder of the private copy in the weak mode */
  private readonly workDir: string;

  private constructor(
    readonly spec: StdioAgentSpec,
    private readonly prepared: PreparedSubmission,
    private readonly limits: SessionLimits,
    private readonly options: StdioSessionOptions,
    private readonly mechanisms: Mechanisms,
    private readonly runtime: Runtime | { problem: string },
    private readonly companions: Runtime[],
  ) {
    const jailed = this.mode === 'full' && mechanisms.bwrap !== undefined;
    const weaker = !jailed || mechanisms.missing.length > 0;
    this.isolation = weaker ? { network: jailed, note: describeMechanisms(mechanisms, this.mode) } : { network: true };
    this.workDir = jailed ? JAILED_WORK_DIR : join(prepared.dir, 'work');
  }

  /**
   * Copies the submission and starts the program when the game is known (so the start falls in
   * no move). Throws a UserError when the full sandbox is asked for and this machine cannot give it.
   */
  static async open(spec: StdioAgentSpec, limits: SessionLimits, options: StdioSessionOptions = {}): Promise<StdioAgentSession> {
    const mechanisms = await sandboxFor(options.sandbox ?? 'full');
    const onHost = runsAsSandboxUserOnHost(mechanisms, options.sandbox ?? 'full');
    const [runtime, companions] = await Promise.all([resolveRuntime(spec.run[0]!, onHost), companionRuntimes(onHost)]);
    const prepared = await prepareSubmission(spec.dir, {});
    const session = new StdioAgentSession(spec, prepared, limits, options, mechanisms, runtime, companions);
    if (options.game !== undefined) await session.process(options.game);
    return session;
  }

  /** What the program printed lately on stderr (its log), bounded. */
  output(): { stdout: string; stderr: string; stdoutTotal: number; stderrTotal: number } {
    const p = this.proc;
    if (p === undefined) return { stdout: '', stderr: '', stdoutTotal: 0, stderrTotal: 0 };
    return { stdout: p.stdout.text(), stderr: p.stderr.text(), stdoutTotal: p.stdout.total, stderrTotal: p.stderr.total };
  }

  /** MoveAsker: the program chooses a move for `player` on `board`. */
  chooseMove(board: BoardSpec, player: Player, options: CaseOptions, timeLimitMs: number, role = 'agent'): Promise<Attempt> {
    const game = this.options.game ?? this.lastGame;
    if (game === undefined) return Promise.resolve({ status: 'error', message: 'internal: StdioAgentSession.chooseMove does not know the game: open it with options.game', ms: 0 });
    return this.request(moveRequest(role, game, board, player, options, timeLimitMs), hardLimitFor(timeLimitMs));
  }

  /** One request; `hardLimitMs` of CPU time counts from sending it. Never rejects for what the program does. */
  request(req: ChildRequest, hardLimitMs: number): Promise<Attempt> {
    const run = this.queue.then(() => this.run(req, hardLimitMs));
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const p = this.proc;
    this.proc = undefined;
    await p?.kill();
    await this.built?.dispose();
    this.built = undefined;
    await this.prepared.dispose();
  }

  private get mode(): SandboxMode {
    return this.options.sandbox ?? 'full';
  }

  private async run(req: ChildRequest, hardLimitMs: number): Promise<Attempt> {
    if (req.type !== 'move' && this.spec.evaluates !== true) {
      this.lastGame = req.game;
      return { status: 'error', message: `role ${req.role}: an agent over stdio answers move requests only; a heuristic role needs a TypeScript module`, ms: 0 };
    }
    let legal: number[] | undefined;
    const result = await this.exchange(req.game, hardLimitMs, (engine, id) => {
      if (req.type !== 'move') return evaluateLine(req, engine, id);
      const move = moveLine(req, engine, id);
      legal = move.legal;
      return move.line;
    });
    if (typeof result === 'string') return { status: 'error', message: result, ms: 0 };
    return this.attempt(result, hardLimitMs, legal);
  }

  /**
   * HeuristicAsker: the heuristic role's values of `positions`, in one evaluate-many request (a
   * heuristic's playoff: its alpha-beta runs in the grader, which asks this program for values only).
   */
  evaluateMany(role: string, game: GameSpec, side: Player, states: readonly MancalaState[], hardLimitMs: number): Promise<ValuesAttempt> {
    const run = this.queue.then(async (): Promise<ValuesAttempt> => {
      if (this.closed) throw new Error('StdioAgentSession.evaluateMany after close()');
      if (this.spec.evaluates !== true) return { status: 'error', message: `role ${role}: an agent over stdio answers move requests only; a heuristic role needs a TypeScript module`, ms: 0 };
      const result = await this.exchange(game, hardLimitMs, (engine, id) => {
        if (!(engine instanceof MancalaGame)) throw new Error('internal: evaluate-many asks Mancala positions');
        return evaluateManyLine(role, side, engine, states, id);
      });
      if (typeof result === 'string') return { status: 'error', message: result, ms: 0 };
      if (result.outcome.kind !== 'answer') {
        const a = this.attempt(result, hardLimitMs, undefined);
        return a.status === 'ok' ? { status: 'error', message: 'internal: an evaluate-many request ended oddly', ms: a.ms } : a;
      }
      const values = result.outcome.answer.values;
      const ms = result.cpuMs;
      if (values === undefined) return { status: 'error', message: 'protocol error: its answer to an evaluate-many request has no "values"', ms };
      if (values.length !== states.length) return { status: 'error', message: `protocol error: its answer to an evaluate-many request has ${values.length} values for ${states.length} positions`, ms };
      return { status: 'ok', values, ms };
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Sends the request `line(engine, id)` makes and waits for what becomes of it; a string: why the program cannot start. */
  private async exchange(game: GameSpec, hardLimitMs: number, line: (engine: StdioEngine, id: number) => string): Promise<StdioCallResult | string> {
    if (this.closed) throw new Error('StdioAgentSession.request after close()');
    this.lastGame = game;
    let proc = await this.process(game);
    if (typeof proc === 'string') return proc;
    const id = this.nextId++;
    const text = line(this.engine(game), id);
    const limits = { cpuMs: hardLimitMs, wallMs: wallBackstopFor(hardLimitMs) };
    let result = await proc.call(text, id, limits);
    // A program that answered and then ended cleanly (a CS540 player still searching when its time
    // was up is ended by its bridge, as the course's framework interrupts it) is started again for
    // this request, once; its start is not charged (PROTOCOL.md).
    if (this.procAnswered && endedCleanlyBefore(result.outcome)) {
      this.procAnswered = false;
      proc = await this.process(game);
      if (typeof proc === 'string') return proc;
      result = await proc.call(text, id, limits);
    }
    if (result.outcome.kind === 'answer') this.procAnswered = true;
    return result;
  }

  /** The engine of `game`, made once: a request then costs no engine construction. */
  private engine(game: GameSpec): StdioEngine {
    let engine = this.engines.get(game.name);
    if (engine === undefined) {
      engine = game.kind === 'mancala' ? new MancalaGame(game.rules, game.name) : new TicTacToeGame();
      this.engines.set(game.name, engine);
    }
    return engine;
  }

  /** The running program, started if there is none; or why it cannot start. */
  private async process(game: GameSpec): Promise<StdioAgentProcess | string> {
    // Its hello named the rules: another game needs another program.
    if (this.proc?.alive && this.startedFor === game.name) return this.proc;
    if (this.startProblem !== undefined) return this.startProblem;
    if (this.proc?.alive) await this.proc.kill();
    this.proc = undefined;
    this.startedFor = game.name;
    if ('problem' in this.runtime) return (this.startProblem = `cannot run ${this.spec.run.join(' ')}: ${this.runtime.problem}`);
    if (this.spec.build !== undefined && this.built === undefined) {
      const problem = await this.build(this.spec.build);
      if (problem !== undefined) return (this.startProblem = problem);
    }
    const startupCpuMs = this.options.startupCpuMs ?? STARTUP_CPU_MS;
    const launch = await this.launch(this.runtime);
    const hello = helloLine(game, 'agent', { startupMs: startupCpuMs, memoryMb: this.limits.memoryMb });
    const { process: proc, result } = await StdioAgentProcess.start(launch, hello, { cpuMs: startupCpuMs, wallMs: wallBackstopFor(startupCpuMs) + 5000 });
    if (result.outcome.kind === 'ready') {
      this.proc = proc;
      this.procAnswered = false;
      this.lastStart = { cpuMs: result.cpuMs, wallMs: result.wallMs };
      return proc;
    }
    await proc.kill();
    return (this.startProblem = this.startFailure(result, startupCpuMs));
  }

  /** Builds once in the sandbox (programs/build.ts), as a file program is built; why not, when it fails. */
  private async build(line: string): Promise<string | undefined> {
    const inputs: Record<string, Buffer> = {};
    for (const [name, file] of Object.entries(this.spec.supportFiles ?? {})) inputs[name] = await readFile(file);
    const staged = await stageFiles(this.spec.dir);
    try {
      const r = await buildInSandbox(staged, line, this.mode, inputs);
      if (!r.ok) return r.message;
      if (this.closed) {
        await r.files.dispose();
        return 'the session was closed during the build';
      }
      this.built = r.files;
      this.lastBuild = { cpuMs: r.cpuMs, wallMs: r.wallMs };
      return undefined;
    } finally {
      await staged.dispose();
    }
  }

  private async launch(runtime: Runtime) {
    const jailed = this.workDir === JAILED_WORK_DIR;
    const work = this.workDir;
    let tmp = '/tmp';
    if (!jailed) {
      // The weak mode has no tmpfs of its own: fresh host folders in the private folder.
      tmp = join(this.prepared.dir, 'tmp');
      await rm(work, { recursive: true, force: true });
      await rm(tmp, { recursive: true, force: true });
      await mkdir(work);
      await mkdir(tmp);
    }
    const copy = this.built?.dir ?? join(this.prepared.dir, COPY_FOLDER);
    const [, ...rest] = this.spec.run;
    // A runtime on the grader runs by its real path (shims skipped); a file of the submission by its relative one.
    const argv = [runtime.executable, ...rest];
    const all = [runtime, ...this.companions];
    const env = {
      PATH: [...new Set([...all.flatMap((r) => r.pathDirs), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
      HOME: work,
      LANG: 'C.UTF-8',
      TMPDIR: tmp,
      PYTHONPATH: join(CLIENTS_DIR, 'python'),
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      ...runtimeEnv(this.limits.memoryMb * MB),
    };
    // Time stays the tree's CPU time, less the JVM's own compilers and collector (meters/runtime-clock.ts).
    const jvms = all.filter((r) => r.kind === 'java').map((r) => r.executable);
    const measured = createMeter(this.mechanisms, { memoryBytes: this.limits.memoryMb * MB, maxProcesses: MAX_PROCESSES });
    const meter = jvms.length > 0 ? new RuntimeClockMeter(measured, jvms) : measured;
    const spec: JailSpec = {
      argv: ['/bin/sh', '-c', LAUNCHER, 'sh', copy, ...argv],
      cwd: work,
      env,
      readOnly: [...new Set([this.prepared.dir, ...(this.built ? [this.built.dir] : []), CLIENTS_DIR, ...all.flatMap((r) => r.readOnly)])],
      writable: [
        { path: work, sizeBytes: WORK_BYTES },
        { path: tmp, sizeBytes: TMP_BYTES },
      ],
      fileSizeBytes: FILE_BYTES,
    };
    await handWritableFolders(this.mechanisms, this.mode, spec.writable);
    const command = jailCommand(this.mechanisms, this.mode, meter, spec, 3);
    return { ...command, env, meter };
  }

  private startFailure(result: StdioCallResult, startupCpuMs: number): string {
    const o = result.outcome;
    const stderr = o.kind === 'exit' ? this.tidy(o.stderr) : '';
    if (o.kind === 'exit' && o.code === 96) return `internal: the submission could not be copied into the sandbox's work folder${excerpt(stderr)}`;
    if (o.kind === 'bad') return studentText(`the program's start-up failed: ${o.problem}`);
    if (o.kind === 'ready' || o.kind === 'answer') return 'internal: the start ended oddly';
    const outcome = o.kind === 'exit' ? { ...o, stderr } : o;
    const attempt = describeOutcome({ outcome, cpuMs: result.cpuMs, wallMs: result.wallMs }, startupCpuMs, 'while starting (before saying ready)', this.wording());
    return attempt.status === 'ok' ? 'internal: the start ended oddly' : studentText(`${attempt.message}${python2Hint(stderr)}`);
  }

  /** What became of a request; `legal` is undefined for an evaluate request (its answer is a value). */
  private attempt(result: StdioCallResult, hardLimitMs: number, legal: number[] | undefined): Attempt {
    const o = result.outcome;
    const ms = result.cpuMs;
    switch (o.kind) {
      case 'answer': {
        const { move, value } = o.answer.observation;
        this.lastAnswer = { ...(o.answer.pv ? { pv: o.answer.pv } : {}), ...(o.answer.log ? { log: o.answer.log.map((l) => studentText(l)) } : {}) };
        if (legal === undefined) {
          if (value === undefined) return { status: 'error', message: 'protocol error: its answer to an evaluate request has no "value"', ms };
          return { status: 'ok', observation: { heuristicValue: value, ms }, ms };
        }
        if (move === undefined) return { status: 'error', message: 'protocol error: its answer has no "move"', ms };
        if (!legal.includes(move)) return { status: 'error', message: `illegal move ${move}: the legal moves were ${legal.join(', ')}`, ms, illegalMove: move };
        return { status: 'ok', observation: { ...o.answer.observation, ms }, ms };
      }
      case 'bad':
        return { status: 'error', message: studentText(`protocol error: ${o.problem}`), ms, ...(o.reported ? { reported: o.reported } : {}) };
      case 'ready':
        return { status: 'error', message: 'protocol error: it said ready again', ms };
      case 'exit': {
        // A bridge whose student's function returned no move says what came back (notMoveOf): an illegal move, not a crash.
        const notMove = legal === undefined ? undefined : notMoveOf(o.stderr);
        if (notMove !== undefined) return { status: 'error', message: `illegal move: ${notMove.why}`, ms, illegalMove: notMove.returned };
        return describeOutcome({ outcome: { ...o, stderr: this.tidy(o.stderr) }, cpuMs: ms, wallMs: result.wallMs }, hardLimitMs, '', this.wording());
      }
      default:
        return describeOutcome({ outcome: o, cpuMs: ms, wallMs: result.wallMs }, hardLimitMs, '', this.wording());
    }
  }

  /** The program's stderr as a student reads it: its files named relative to its folder, without the JVM's notice. */
  private tidy(stderr: string): string {
    return stderr.replace(JAVA_OPTIONS_NOTICE, '').split(`${this.workDir}/`).join('');
  }

  private wording() {
    return { memoryMb: this.limits.memoryMb, submissionDir: this.prepared.dir, runtimeDir: CLIENTS_DIR };
  }
}

/** The program exited with code 0 before answering or reporting anything for the request. */
function endedCleanlyBefore(outcome: StdioOutcome): boolean {
  return outcome.kind === 'exit' && outcome.code === 0 && outcome.signal === null && outcome.reported === undefined;
}
