/**
 * The shapes of behaviour fingerprints (behaviour.ts is the contract `mancala similarity` uses and
 * re-exports them): what a submission is asked, what it answered, and what two answers sheets
 * have in common. Kept apart so the modules that build and compare them share one definition.
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
  /** the depth every search is asked for (default: the profile's, at most BEHAVIOUR_MAX_DEPTH) */
  depth?: number;
  /** each position's time limit, ms (default BEHAVIOUR_MS, BEHAVIOUR_ANYTIME_MS under the anytime rule) */
  msPerPosition?: number;
  /**
   * A csci561 program runs once a position (one jail, one interpreter start each): it answers only
   * the first this many (default DEFAULT_PROGRAM_POSITIONS), the rest are null answers
   */
  programPositions?: number;
  /** memory cap of a sandboxed submission, MB (default 512, as matches) */
  memoryMb?: number;
}

export interface BehaviourAnswer {
  /** the move as the course names it, or null when the submission gave none (error, timeout, illegal) */
  move: string | null;
  value?: number;
  nodes?: number;
  /**
   * The move is the one the reference search the submission agrees with most (Fingerprint.reference)
   * chooses here, computed in the grader; absent when the references are not at hand (a student kit).
   */
  usual?: boolean;
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
  /**
   * The reference search it agrees with most (e.g. 'alphabeta:depth=4') and on what share of the
   * positions it answered: 1 for a correct search of that depth. Absent without references.
   */
  reference?: {
    search: string;
    share: number;
    /** other reference searches it agrees with on that same share (on few positions, searches tie) */
    tied?: string[];
  };
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
  /**
   * The real signal for heuristic and custom players: among the positions both answered where at
   * least one of them departs from the reference search it most resembles (BehaviourAnswer.usual),
   * the share where they chose the same move. Null when there is no such position (two correct
   * searches) or no references.
   */
  offReference?: number | null;
  /** how many positions offReference is a share of */
  offReferencePositions?: number;
  /** how many positions both answered (the denominator of `behaviour`) */
  compared?: number;
}
