/**
 * The progress bar of long runs (grade, match, tournament, gauntlet): on stderr, and only when
 * stderr is a terminal, so logs, pipes and --json output stay clean. The bar starts at the first
 * update, when the total is known, and is removed when the run ends, however it ends.
 */
import cliProgress from 'cli-progress';

export interface ProgressBar {
  /** `payload` fills the format's {names} */
  update(done: number, total: number, payload?: Record<string, string | number>): void;
}

/** Runs `run` with a bar (format: cli-progress's, e.g. 'grading [{bar}] {value}/{total} cases') or, off a terminal, without. */
export async function withProgressBar<T>(wanted: boolean, format: string, run: (bar: ProgressBar | undefined) => Promise<T>): Promise<T> {
  if (!wanted || process.stderr.isTTY !== true) return run(undefined);
  const bar = new cliProgress.SingleBar({ format, stream: process.stderr, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
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
