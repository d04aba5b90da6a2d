/**
 * The vocabulary of the sandbox, shared by what probes the machine (mechanisms.ts) and what builds
 * the jail's command line (command.ts): which mechanisms were found, the mode a run asked for, and the
 * user submissions run as.
 */
import type { CgroupRoots } from '../meters/cgroup-meter.ts';

/** The user submissions run as when the grader is root: no name, no files, no groups. */
export const SANDBOX_UID = 65534;

export type SandboxMode = 'full' | 'weak';

export interface Mechanisms {
  /** bwrap, when it works here */
  bwrap?: string;
  /** the grader runs as root: bwrap mounts, then setpriv drops to SANDBOX_UID */
  privileged: boolean;
  setpriv?: string;
  prlimit?: string;
  /** cgroup v1 folders where a group can be made */
  cgroups?: CgroupRoots;
  /** why a mechanism is missing, one entry each */
  missing: string[];
}
