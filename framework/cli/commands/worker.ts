/**
 * `mancala worker --queue redis://HOST:PORT`: plays the games of `mancala tournament --queue` and
 * grades the submissions of `mancala grade --queue`, from the queue on that Redis, one job at a
 * time, sandboxed as a local run (framework/distributed/worker.ts). Start as many as there are
 * cores, on any machines that reach the Redis; each prints a line per job.
 */
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { parseQueueUrl } from '../../distributed/queue-url.ts';
import { DEFAULT_LOCK_MS, serveQueue, type ServedKind } from '../../distributed/worker.ts';
import { GRADE_SUBMISSION_JOB, submissionId, type GradedSubmission, type GradeJobSetup } from '../../grading/grade-submission.ts';
import type { GameRecord } from '../../matches/types.ts';
import type { SandboxMode } from '../../sandbox/jail/mechanisms.ts';
import { removeEveryTempFolderOfThisProcess } from '../../sandbox/jail/temp-folders.ts';
import { TOURNAMENT_JOB, type JobSetup } from '../../tournaments/executor.ts';
import type { ScheduledGame } from '../../tournaments/schedule.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { announceSandbox, sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';
import { studentText } from '../../student-text.ts';

/** The weak sandbox only when both the run and this worker allow it. */
const stronger = (asked: SandboxMode | undefined, weakAllowed: boolean): SandboxMode => (asked === 'weak' && weakAllowed ? 'weak' : 'full');

/** The job kinds a worker serves: a tournament's games and a grading run's submissions. */
export const SERVED_KINDS: readonly ServedKind[] = [
  {
    kind: TOURNAMENT_JOB,
    describe: (g: ScheduledGame) => `game ${g.index}: ${g.A} vs ${g.B}`,
    summarize: (r: GameRecord, g: ScheduledGame) => {
      const outcome = r.winner === 'draw' ? 'draw' : `${r.winner === 'A' ? g.A : g.B} won`;
      const forfeit = r.forfeit === null ? '' : `, ${r.forfeit.side === 'A' ? g.A : g.B} forfeited (${r.forfeit.reason})`;
      return `${outcome} ${r.score[0]}-${r.score[1]}${forfeit}`;
    },
    withSandbox: (s: JobSetup, weakAllowed: boolean): JobSetup => ({ ...s, sandbox: stronger(s.sandbox, weakAllowed) }),
  },
  {
    kind: GRADE_SUBMISSION_JOB,
    describe: (path: string) => `submission ${submissionId(path)}`,
    summarize: (g: GradedSubmission) => {
      const r = g.report;
      const passed = r.cases.filter((c) => c.status === 'passed').length;
      return `${Math.round(r.score * 100) / 100}/${r.maxScore}, ${passed} of ${r.cases.length} cases passed`;
    },
    withSandbox: (s: GradeJobSetup, weakAllowed: boolean): GradeJobSetup => ({ ...s, sandbox: stronger(s.sandbox, weakAllowed) }),
  },
];

interface WorkerOptions extends SandboxFlags {
  queue: string;
  lockMs: number;
  name?: string;
}

export function addWorkerCommand(program: Command, io: CliIo): void {
  program
    .command('worker')
    .summary('play the games and grade the submissions that tournament --queue and grade --queue put on a Redis queue')
    .description(
      'Takes jobs from the queue at --queue, one at a time: the games of `mancala tournament --queue` and the submissions of ' +
        '`mancala grade --queue`, run with the same code and the same sandbox as a local run, and records each result once. ' +
        'Start one per core, on as many machines as reach the Redis; each prints a line per job. A worker refuses (exit 2) the jobs ' +
        'of a coordinator whose project version differs from its own. SIGINT or SIGTERM: the job in play is finished and recorded, ' +
        'then the worker stops; a second signal puts the job back in the queue for another worker and stops at once.',
    )
    .addOption(
      new Option('--queue <url>', 'the Redis the coordinators queue on: redis://HOST:PORT (redis://:PASSWORD@HOST:PORT/DB)').makeOptionMandatory().argParser((url: string) => {
        parseQueueUrl(url);
        return url;
      }),
    )
    .addOption(
      new Option('--lock-ms <ms>', "how long a job stays a dead worker's: its lock, renewed every half of it while the job plays; after a crash the job is retried within 1.5 × this")
        .argParser(wholeNumber(1000, 3_600_000, 'ms'))
        .default(DEFAULT_LOCK_MS),
    )
    .option('--name <name>', "this worker's name in lines and results (default: host:pid)")
    .addOption(weakSandboxOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ mancala worker --queue redis://10.0.0.5:6379                 # on each machine, one per core',
        '  $ mancala worker --queue redis://:s3cret@10.0.0.5:6379 --name lab-3a',
        '  $ mancala tournament submissions/* --games-per-pair 4 --queue redis://10.0.0.5:6379   # the coordinator',
      ].join('\n'),
    )
    .action(async (opts: WorkerOptions) => {
      const mode = sandboxMode(opts);
      // Refuses to start without bubblewrap unless --weak-sandbox, as every command that runs submissions.
      await announceSandbox(io, mode);
      const stop = new AbortController();
      const release = new AbortController();
      const onSignal = () => {
        if (!stop.signal.aborted) stop.abort();
        else release.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      let code: number;
      try {
        code = await serveQueue({
          queue: opts.queue,
          kinds: SERVED_KINDS,
          weakAllowed: mode === 'weak',
          lockMs: opts.lockMs,
          // A job's line names submissions and quotes their failures: one terminal-safe line each.
          log: (line) => io.out(`${studentText(line, { multiline: false, maxChars: Infinity, maxLineChars: Infinity })}\n`),
          stop: stop.signal,
          release: release.signal,
          ...(opts.name !== undefined ? { name: opts.name } : {}),
        });
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
        removeEveryTempFolderOfThisProcess();
      }
      if (code === 2) throw new UserError('refused a run made by another project version (the line above says which): stopped', 2);
      if (code === 130) {
        // At once, as interrupt.ts does: the job's sandboxed processes die with this one (--die-with-parent, pdeathsig).
        io.err('mancala: stopped; the job in play was put back in the queue\n');
        process.exit(130);
      }
      io.out('stopped\n');
    });
}
