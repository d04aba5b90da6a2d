// A heuristic that tries every way it can think of to read the reference search that calls it
// (the player runtime), then reports what it found in the message of an Error it throws:
// `probes: NAME=COUNT …; leaks: NAME …` where a leak is a probe whose text held one of the
// markers (code of agents/reference/alphabeta.ts). The markers are built at run time, so this
// file's own text (which the file probe reads too) does not contain them.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { createRequire, findSourceMap } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const MARKERS = [['hit.bound', '=== EXACT'].join(' '), ['this.leafCounters', '!== void 0 && table', '=== void 0'].join(' ')];
const counts = {};
const leaks = [];

function look(probe, text) {
  counts[probe] = (counts[probe] ?? 0) + 1;
  if (typeof text === 'string' && MARKERS.some((m) => text.includes(m)) && !leaks.includes(probe)) leaks.push(probe);
}

function attempt(probe, fn) {
  try {
    fn();
  } catch {
    counts[probe] = counts[probe] ?? 0;
  }
}

function readTree(probe, path, depth = 0) {
  attempt(probe, () => {
    const info = statSync(path);
    if (info.isDirectory()) {
      if (depth < 4) for (const name of readdirSync(path)) readTree(probe, `${path}/${name}`, depth + 1);
    } else if (info.size < 50_000_000) {
      look(path.includes('decoy') ? 'decoy' : probe, readFileSync(path, 'latin1'));
    }
  });
}

/** Function.prototype.toString of every function reachable from `root` (own and inherited properties). */
function walk(probe, root) {
  const seen = new Set();
  const visit = (v, depth) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 5) return;
    seen.add(v);
    if (typeof v === 'function') attempt(probe, () => look(probe, Function.prototype.toString.call(v)));
    attempt(probe, () => {
      for (const key of Reflect.ownKeys(v)) {
        const d = Object.getOwnPropertyDescriptor(v, key);
        for (const x of [d?.value, d?.get, d?.set]) visit(x, depth + 1);
      }
    });
    attempt(probe, () => visit(Object.getPrototypeOf(v), depth + 1));
  };
  visit(root, 0);
}

function callSites() {
  const original = Error.prepareStackTrace;
  Error.prepareStackTrace = (_e, sites) => sites;
  const holder = {};
  Error.captureStackTrace(holder);
  const sites = holder.stack;
  Error.prepareStackTrace = original;
  return sites;
}

function probeAll(self, state, player, game, caller) {
  // Files: everything readable that the process knows of.
  const here = dirname(fileURLToPath(import.meta.url));
  const uid = process.getuid?.() ?? 0;
  const folders = [process.cwd(), here, dirname(process.argv[1] ?? '/'), `/tmp/mancala-player-runtime-${uid}`, `/tmp/mancala-sandbox-runtime-${uid}`, `/tmp/mancala-sandbox-boot-player-${uid}`, '/tmp'];
  for (const flag of process.execArgv) if (flag.startsWith('--allow-fs-read=')) folders.push(flag.slice('--allow-fs-read='.length));
  for (const folder of folders) readTree('files', folder);
  for (const f of ['cmdline', 'environ', 'maps', 'status']) readTree('proc', `/proc/self/${f}`);
  attempt('proc', () => {
    for (const fd of readdirSync('/proc/self/fd')) attempt('proc', () => look('proc', readFileSync(readlinkSync(`/proc/self/fd/${fd}`), 'latin1')));
  });
  // Functions reachable from the arguments, `this` and the caller.
  walk('arguments', [self, state, player, game]);
  look('caller', caller === null || caller === undefined ? '' : String(caller));
  // Stack frames: the functions and receivers of the callers, and the files they name.
  for (const site of callSites()) {
    attempt('stack', () => walk('stack', site.getFunction()));
    attempt('stack', () => walk('stack', site.getThis()));
    attempt('stack', () => {
      const file = site.getFileName();
      if (file) {
        look('stack', String(file));
        readTree('stack', file.startsWith('file:') ? fileURLToPath(file) : file);
        look('stack', JSON.stringify(findSourceMap(file)?.payload ?? null));
      }
    });
  }
  look('stack', new Error('x').stack);
  // The main module, require's view, import.meta.
  attempt('modules', () => walk('modules', process.mainModule));
  attempt('modules', () => walk('modules', createRequire(import.meta.url).main));
  attempt('modules', () => walk('modules', createRequire(import.meta.url).cache));
  attempt('modules', () => look('modules', JSON.stringify(import.meta)));
  // Everything on globalThis and process, and what process keeps listening with.
  attempt('globals', () => walk('globals', globalThis));
  attempt('globals', () => {
    for (const event of ['uncaughtException', 'unhandledRejection', 'exit', 'message']) for (const fn of process.listeners(event)) walk('globals', fn);
  });
  attempt('globals', () => walk('globals', process._getActiveHandles?.()));
  attempt('globals', () => walk('globals', process._getActiveRequests?.()));
  // The heap: every string of the process.
  attempt('heap', () => {
    const stream = v8.getHeapSnapshot();
    let chunk;
    let text = '';
    while ((chunk = stream.read()) !== null) text += chunk;
    look('heap', text);
  });
}

let report;

// Sloppy on purpose (made with Function): a sloppy function's `.caller` is its caller when that
// caller is sloppy too, and V8 gives sloppy frames their function in Error.prepareStackTrace.
const evaluate = new Function(
  'probe',
  'return function evaluate(state, player, game) { return probe(this, state, player, game, evaluate.caller); };',
)((self, state, player, game, caller) => {
  if (report === undefined) {
    probeAll(self, state, player, game, caller);
    report = `probes: ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(' ')}; leaks: ${leaks.join(' ') || 'none'}`;
  }
  throw new Error(report);
});

export default { name: 'reads-reference-source', evaluate };
