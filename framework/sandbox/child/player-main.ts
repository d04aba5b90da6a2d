/**
 * The player runtime: the reference alpha-beta playing with a submission's heuristic role, for
 * playoffs that grade a heuristic ("your heuristic under our alpha-beta", seed 001). Bundled by
 * framework/sandbox/runtime.ts and never written to disk: the parent sends it in the boot message
 * and child/bootstrap.ts compiles it from memory, in strict mode, under a neutral name. So the
 * heuristic in this process cannot read the reference search: no file of it is readable, stack
 * traces carry no source, and strict frames keep the search's functions out of its reach.
 *
 * The process loads heuristic roles only (a `load` of an agent role is refused here as well as in
 * the parent), and the parent starts it only where the network is cut off. Move requests name the
 * agent `builtin:alphabeta`.
 */
import alphabeta from '../../../agents/alphabeta.ts';
import type { StartRuntime } from './channel.ts';
import { serveRequests } from './serve.ts';

export const start: StartRuntime = (host) => serveRequests({ runtime: 'player', builtinAgents: { alphabeta }, loadableKinds: ['heuristic'] }, host);
