#!/usr/bin/env node
// The `mancala` command: plain JavaScript that runs the TypeScript sources with no build step.
// tsx is registered to load the bundler (and users' TypeScript modules, e.g. a heuristic given as a
// file); the command itself runs from a bundle of bin/cli.ts, built on first use and rebuilt when
// a source changes (framework/workers/source-bundle.ts says why it runs bundled).
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

// Set before any of our code is compiled. Measured on the alpha-beta benchmark (Kalah(6,4),
// depth 14, a fresh process as compare.sh runs it): feedback vectors from the first call and a
// larger inlining budget let the hot search reach optimised code sooner and inline the engine's
// calls, about 4% more nodes per second. They change speed only, never results.
setFlagsFromString('--no-lazy-feedback-allocation');
setFlagsFromString('--max-inlined-bytecode-size=1000');
setFlagsFromString('--max-inlined-bytecode-size-cumulative=3000');

register();

// `mancala … | head` closes stdout early: that is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const { sourceBundle } = await import('../framework/workers/source-bundle.ts');
const cli = await sourceBundle({ contents: "export { main } from './cli.ts';", resolveDir: fileURLToPath(new URL('.', import.meta.url)) });
const { main } = await import(pathToFileURL(cli).href);
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  // Not the user's mistake (those are reported in one line by main): a bug, so show where.
  process.stderr.write(`mancala: internal error: ${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
  process.exitCode = 1;
}
