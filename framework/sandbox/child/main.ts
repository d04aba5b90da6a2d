/**
 * The child runtime: runs the submission's own roles, agents and heuristics (bundled by
 * framework/sandbox/runtime.ts, compiled from memory by child/bootstrap.ts in the submission's
 * sandboxed process). It holds no reference search: nothing it imports may come from outside
 * framework/ (runtime.ts checks the bundle).
 */
import type { StartRuntime } from './channel.ts';
import { serveRequests } from './serve.ts';

export const start: StartRuntime = (host) => serveRequests(host);
