/**
 * `--queue redis://HOST:PORT` on `mancala tournament` and `mancala grade` (docs/many-machines.md):
 * the run's games or submissions are played by `mancala worker`s through that Redis
 * (framework/distributed/), and what the queue has to say besides results (a worker refused the
 * run, Redis lost it and it was queued again, …) is a line on stderr.
 */
import { Option } from 'commander';
import { parseQueueUrl } from '../distributed/queue-url.ts';
import type { CliIo } from './options.ts';

export function queueOption(what: 'play the games' | 'grade the submissions'): Option {
  return (
    new Option('--queue <url>', `${what} on \`mancala worker\`s through the Redis at redis://HOST:PORT instead of here (docs/many-machines.md); --jobs is then theirs`)
      // A malformed URL is refused before anything runs (a Redis that cannot be reached, when the run starts: within seconds).
      .argParser((url: string) => {
        parseQueueUrl(url);
        return url;
      })
  );
}

/** The queue's notices on stderr, each on a line of its own (past a progress bar on a terminal). */
export function queueNotices(io: CliIo): (line: string) => void {
  return (line) => io.err(`${process.stderr.isTTY === true ? '\n' : ''}mancala: ${line}\n`);
}
