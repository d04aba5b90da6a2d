#!/usr/bin/env node
// The `mancala` command: runs dist/mancala.mjs, the compiled command (`npm run build` writes it;
// framework/workers/source-bundle.ts says why one bundle). No TypeScript loader at run time:
// tsx instantiated WebAssembly at start, which dies under an address-space cap (`ulimit -v`).
import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);

// A student kit's first line on an old Node: say what to install, before any of the code (which needs 20) loads.
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < 20) {
  process.stderr.write(`mancala: needs Node 20 or newer, and this is Node ${process.versions.node}: install Node 20 (https://nodejs.org), then run npm ci again\n`);
  process.exit(1);
}

// `--version` needs none of the command's code: answered before loading it, in a few ms.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
  process.exit(0);
}

// Set before any of our code is compiled. Measured on the alpha-beta benchmark (Kalah(6,4),
// depth 14, a fresh process as compare.sh runs it): feedback vectors from the first call and a
// larger inlining budget let the hot search reach optimised code sooner and inline the engine's
// calls, about 4% more nodes per second. They change speed only, never results.
setFlagsFromString('--no-lazy-feedback-allocation');
setFlagsFromString('--max-inlined-bytecode-size=1000');
setFlagsFromString('--max-inlined-bytecode-size-cumulative=3000');

// `mancala … | head` closes stdout early: that is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const bundle = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('mancala: the command is not built yet: run `npm run build` in the project folder (npm start, npm test and npm run bench build it too)\n');
  process.exit(1);
}
const { main } = await import(bundle.href);
try {
  process.exitCode = await main(args);
} catch (e) {
  // Not the user's mistake (those are reported in one line by main): a bug, so show where.
  process.stderr.write(`mancala: internal error: ${e instanceof Error && e.stack ? e.stack : String(e)}\n`);
  process.exitCode = 1;
}
