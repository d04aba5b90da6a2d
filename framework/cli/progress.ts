/**
 * The progress of long runs (grade, csci561-grade, match, tournament, gauntlet, similarity, solve),
 * on stderr so that stdout and --json output stay clean:
 *  - on a terminal, a bar (cli-progress) with done/total, what runs now and the time left;
 *  - elsewhere (cron, CI, `| tee`), one plain line at least every PROGRESS_INTERVAL_MS: done/total,
 *    what runs now, the time elapsed and left. A class graded for 20 minutes is never silent.
 * The bar starts at the first update, when the total is known, and is removed when the run ends,
 * however it ends; the plain lines stop then too.
 *
 * MANCALA_PROGRESS_INTERVAL_MS (a whole number of ms, for tests) sets the plain lines' interval.
 */
import cliProgress from 'cli-progress';
import { Option } from 'commander';

export interface ProgressBar {
  /** `payload` fills the format's {names} */
  update(done: number, total: number, payload?: Record<string, string | number>): void;
}

/** The plain lines' interval off a terminal. */
export const PROGRESS_INTERVAL_MS = 30_000;

/** The interval the environment asks for (tests), else PROGRESS_INTERVAL_MS. */
export function progressIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const asked = env.MANCALA_PROGRESS_INTERVAL_MS;
  const n = asked !== undefined && /^\d+$/.test(asked.trim()) ? Number(asked) : NaN;
  return Number.isSafeInteger(n) && n >= 10 ? n : PROGRESS_INTERVAL_MS;
}

/** `--no-progress`, worded alike in every command. */
export function noProgressOption(): Option {
  return new Option('--no-progress', 'no progress on stderr (a bar on a terminal; elsewhere a plain line every 30 s)');
}

/** "45 s", "3 min 20 s", "1 h 05 min" */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** The time left at the rate so far, or undefined before anything is done. */
export function timeLeftMs(done: number, total: number, elapsedMs: number): number | undefined {
  if (done <= 0 || total <= done) return done >= total && total > 0 ? 0 : undefined;
  return (elapsedMs / done) * (total - done);
}

interface State {
  done: number;
  total: number;
  payload: Record<string, string | number>;
}

/** The bar's format as one plain line: no bar, its {names} filled, then the times. */
export function plainProgressLine(format: string, state: State, elapsedMs: number): string {
  const values: Record<string, string | number> = {
    ...state.payload,
    value: state.done,
    total: state.total,
    percentage: state.total > 0 ? Math.floor((100 * state.done) / state.total) : 0,
  };
  const text = format
    .replace(/\s*\[\{bar\}\]\s*/g, ' ')
    .replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : name === 'eta_formatted' ? '' : all))
    .replace(/\s+/g, ' ')
    .trim();
  const left = timeLeftMs(state.done, state.total, elapsedMs);
  return `progress: ${text}; ${duration(elapsedMs)} elapsed${left === undefined ? '' : `, about ${duration(left)} left`}`;
}

/** Runs `run` with a bar (format: cli-progress's, e.g. 'grading [{bar}] {value}/{total} cases') or, off a terminal, plain lines. */
export async function withProgressBar<T>(wanted: boolean, format: string, run: (bar: ProgressBar | undefined) => Promise<T>): Promise<T> {
  if (!wanted) return run(undefined);
  return process.stderr.isTTY === true ? withTerminalBar(format, run) : withPlainLines(format, run);
}

/** The bar's format on a terminal: the time left added, unless the format says it already. */
export function terminalFormat(format: string): string {
  return format.includes('{eta') ? format : `${format} | {eta_formatted} left`;
}

async function withTerminalBar<T>(format: string, run: (bar: ProgressBar | undefined) => Promise<T>): Promise<T> {
  const bar = new cliProgress.SingleBar({ format: terminalFormat(format), stream: process.stderr, hideCursor: true, clearOnComplete: true, etaBuffer: 50 }, cliProgress.Presets.shades_classic);
  let started = false;
  try {
    return await run({
      update(done, total, payload = {}) {
        if (!started) {
          bar.start(total, done, payload);
          started = true;
        } else {
          bar.setTotal(total);
          bar.update(done, payload);
        }
      },
    });
  } finally {
    if (started) bar.stop();
  }
}

async function withPlainLines<T>(format: string, run: (bar: ProgressBar | undefined) => Promise<T>): Promise<T> {
  const start = Date.now();
  let state: State | undefined;
  const timer = setInterval(() => {
    if (state !== undefined) process.stderr.write(`${plainProgressLine(format, state, Date.now() - start)}\n`);
  }, progressIntervalMs());
  // The lines never keep a finished process alive.
  timer.unref();
  try {
    return await run({
      update(done, total, payload = {}) {
        state = { done, total, payload: { ...(state?.payload ?? {}), ...payload } };
      },
    });
  } finally {
    clearInterval(timer);
  }
}
