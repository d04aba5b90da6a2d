#!/usr/bin/env node
// The `mancala` command: plain JavaScript that lets Node load the TypeScript sources through tsx,
// so the CLI runs right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();

// `mancala … | head` closes stdout early: that is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const { main } = await import('../framework/cli/main.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  // Not the user's mistake (those are reported in one line by main): a bug, so show where.
  process.stderr.write(`mancala: internal error: ${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
  process.exitCode = 1;
}
