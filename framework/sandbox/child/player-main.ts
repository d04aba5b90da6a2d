/**
 * The player runtime: the reference alpha-beta playing with a submission's heuristic role, for
 * playoffs that grade a heuristic ("your heuristic under our alpha-beta", seed 001). Bundled by
 * framework/sandbox/runtime.ts into a runtime of its own, kept in a folder no agent process may
 * read, and started by a session opened with `runtime: 'player'` (framework/sandbox/session.ts).
 *
 * The student's heuristic in this process can read the reference search (it is in this bundle).
 * That is accepted because the process has nowhere to carry it: it cannot write files or reach
 * the network, it loads heuristic roles only (a `load` of an agent role is refused here as well
 * as in the parent), and the parent starts it only where the network is cut off and bounds what
 * its messages may say. Move requests name the agent `builtin:alphabeta`.
 */
import alphabeta from '../../../agents/alphabeta.ts';
import { serveRequests } from './serve.ts';

serveRequests({ runtime: 'player', builtinAgents: { alphabeta }, loadableKinds: ['heuristic'] });
