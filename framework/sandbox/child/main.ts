/**
 * The agent runtime: the entry point of a submission's sandboxed process (bundled into one .mjs
 * by framework/sandbox/runtime.ts, started by framework/sandbox/session.ts). It runs the
 * submission's own roles, agents and heuristics, and holds no reference search: nothing it
 * imports may come from agents/ but the basic heuristic (runtime.ts checks the bundle).
 */
import { serveRequests } from './serve.ts';

serveRequests({ runtime: 'agent', builtinAgents: {}, loadableKinds: ['agent', 'heuristic'] });
