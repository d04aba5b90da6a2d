/**
 * Behaviour fingerprints: every submission answers the same seeded set of positions, and two
 * submissions that choose the same moves (values, node counts) on them play alike, however their
 * code was disguised. The contract `mancala similarity` uses; the implementation is being written.
 */

export interface BehaviourRun {
  /** the rules profile positions are drawn from and answered under (e.g. 'kalah', 'csc384') */
  rules: string;
  /** positions each submission answers; the default is sized so a class of 300 finishes in minutes */
  positions: number;
  /** the seed of the position set: the same seed, the same positions and the same report */
  seed: number;
  /** submissions run at once */
  jobs: number;
  /** run without bubblewrap (--weak-sandbox) */
  weakSandbox: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface BehaviourAnswer {
  /** the move as the course names it, or null when the submission gave none (error, timeout, illegal) */
  move: string | null;
  value?: number;
  nodes?: number;
}

export interface Fingerprint {
  /** the submission's folder, as given */
  submission: string;
  /** what was asked: the submission's kind and role (e.g. 'agent', 'heuristic', 'program') */
  role: string;
  /** one answer per position, in the position set's order */
  answers: BehaviourAnswer[];
  /** one line when the submission could not be run at all */
  failure?: string;
}

export interface BehaviourAgreement {
  /** share of positions (both answered) where both chose the same move; null when nothing to compare */
  behaviour: number | null;
  /** share where both reported a value and it was the same */
  sameValue: number | null;
  /** share where both reported a node count and it was the same */
  sameNodes: number | null;
  /** set when agreement is expected rather than suspicious (e.g. two correct minimax searches) */
  expectedAgreement: string | null;
}

export async function fingerprintSubmissions(folders: readonly string[], run: BehaviourRun): Promise<Fingerprint[]> {
  void folders;
  void run;
  throw new Error('behaviour fingerprints are not written yet');
}

export function compareFingerprints(a: Fingerprint, b: Fingerprint): BehaviourAgreement {
  void a;
  void b;
  throw new Error('behaviour fingerprints are not written yet');
}
