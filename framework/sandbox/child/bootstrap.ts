/**
 * The only file of the sandbox runtime on disk (bundled by framework/sandbox/runtime.ts; the child
 * may read its folder). It holds no grader logic and no reference code: it waits for the boot
 * message on stdin (protocol.ts), compiles the runtime it carries from memory, and hands it the
 * token. The runtime holds no reference search (runtime.ts checks its bundle), and the token
 * never passes through argv or the environment, which student code can read.
 *
 * The runtime is compiled as a strict-mode function under a neutral name. Strict mode matters:
 * V8 hides strict frames from `callSite.getFunction()`/`getThis()` (Error.prepareStackTrace) and a
 * sloppy function's `.caller` is null when a strict one called it, so student code cannot reach
 * the runtime's functions (and the token in their closure) through the stack.
 *
 * Before the runtime starts, V8's heap snapshot is disabled: a snapshot is readable without any
 * file permission and holds every string of the process, the runtime's source included. And the
 * ways to the channel's own stdin socket are closed (child/channel.ts says why): student code gets
 * an empty process.stdin and no list of the process's handles.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
import { Readable } from 'node:stream';
import { Script } from 'node:vm';
import { readRequests, type StartRuntime } from './channel.ts';
import { exitProcess, logError, parseJson } from './intrinsics.ts';
import type { BootMessage } from '../protocol.ts';

function refuseHeapSnapshots(): void {
  const refuse = () => {
    throw new Error('heap snapshots are not allowed in the sandbox');
  };
  for (const name of ['getHeapSnapshot', 'writeHeapSnapshot', 'setHeapSnapshotNearHeapLimit'] as const) {
    Object.defineProperty(v8, name, { value: refuse, writable: false, configurable: false });
  }
  // `import { getHeapSnapshot } from 'node:v8'` reads the ESM namespace: bring it in line.
  syncBuiltinESMExports();
}

function hideChannel(): void {
  Object.defineProperty(process, 'stdin', { value: Readable.from([]), enumerable: true, writable: false, configurable: false });
  for (const name of ['_getActiveHandles', '_getActiveRequests']) {
    Object.defineProperty(process, name, { value: () => [], writable: false, configurable: false });
  }
}

/** Compiles the runtime from the boot message and starts it; returns its request handler. */
function boot(line: string): (line: string) => void {
  const message = parseJson(line) as BootMessage;
  if (message.type !== 'boot') throw new Error('the first line was not the boot message');
  // The CommonJS wrapper, as Node's own loader writes it; 'use strict' makes every function inside strict.
  const source = `(function (exports, require, module) {'use strict';\n${message.code}\n})`;
  const compiled = new Script(source, { filename: message.name }).runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: { start?: StartRuntime } },
  ) => void;
  const module: { exports: { start?: StartRuntime } } = { exports: {} };
  compiled(module.exports, createRequire(import.meta.url), module);
  const start = module.exports.start;
  if (typeof start !== 'function') throw new Error('the runtime exports no start function');
  return start({ token: message.token, importModule: (url) => import(url) as Promise<Record<string, unknown>> });
}

refuseHeapSnapshots();
hideChannel();
let serve: ((line: string) => void) | undefined;
readRequests(
  (line) => {
    if (serve !== undefined) return serve(line);
    try {
      serve = boot(line);
    } catch (e) {
      // No token yet, so nothing can be sent on fd 3: the parent sees the exit and this text.
      logError(`sandbox bootstrap: ${e instanceof Error ? e.message : String(e)}\n`);
      exitProcess(70);
    }
  },
  // The parent went away: nothing more to do.
  () => exitProcess(0),
);
