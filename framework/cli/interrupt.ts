/**
 * Ctrl-C (or SIGTERM) during a command that runs submissions: Node's default would end the
 * process without its exit handlers, leaving the submissions' private copies in the temp folder.
 * Instead: remove them, those made in the worker pool's threads too (sandbox/jail/temp-folders.ts), say so
 * and what was kept (a grading run's journal: class-run-options.ts), and exit 130 as shells expect.
 * The sandboxed processes themselves die with us (they run under setpriv --pdeathsig).
 */
import { removeEveryTempFolderOfThisProcess } from '../sandbox/jail/temp-folders.ts';
import type { CliIo } from './options.ts';

let installed = false;
/** What each part of the run kept on disk, said when it is interrupted. */
const kept: (() => string)[] = [];

/** `describe` says what this run keeps when interrupted (written as it went, e.g. a journal); the function returned forgets it. */
export function keepOnInterrupt(describe: () => string): () => void {
  kept.push(describe);
  return () => {
    const k = kept.indexOf(describe);
    if (k >= 0) kept.splice(k, 1);
  };
}

export function cleanUpOnInterrupt(io: CliIo): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      const n = removeEveryTempFolderOfThisProcess();
      const said = kept.map((describe) => describe());
      io.err(`\nmancala: interrupted (${signal}); removed ${n} sandbox cop${n === 1 ? 'y' : 'ies'}; ${said.length === 0 ? 'nothing more written' : said.join('; ')}\n`);
      process.exit(130);
    });
  }
}
