/**
 * The player sandbox runtime: the reference alpha-beta playing with a submission's heuristic
 * role, for playoffs that grade a heuristic ("your heuristic under our alpha-beta", seed 001).
 * framework/sandbox/runtime.ts bundles it (agents/plugin.ts registers this entry and the files it
 * may contain) and never writes it to disk: the parent sends it in the boot message and the
 * child's bootstrap compiles it from memory, in strict mode, under a neutral name. So the
 * heuristic in this process cannot read the reference search: no file of it is readable, stack
 * traces carry no source, and strict frames keep the search's functions out of its reach.
 *
 * The process loads heuristic roles only (a `load` of an agent role is refused here as well as in
 * the parent), and the parent starts it only where the network is cut off. Move requests name the
 * agent `builtin:alphabeta`.
 */
import type { StartRuntime } from '../framework/sandbox/child/channel.ts';
import { serveRequests } from '../framework/sandbox/child/serve.ts';
import alphabeta from './alphabeta.ts';

export const start: StartRuntime = (host) => serveRequests({ runtime: 'player', builtinAgents: { alphabeta }, loadableKinds: ['heuristic'] }, host);
