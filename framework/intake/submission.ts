/**
 * A submission as every command takes it in: one student's files, snapshotted once, safely
 * (framework/files/snapshot.ts), with who handed them in and when. Nothing downstream of the
 * intake reads the path the instructor gave again: it grades `path`, the snapshot.
 */

/** Which layout the submissions were read in. */
export type LayoutKind = 'canvas' | 'moodle' | 'blackboard' | 'gradescope' | 'github-classroom' | 'folders' | 'single';

/** What an LMS export says of a student, kept as data for rosters and gradebooks. */
export interface LmsIdentity {
  /** Canvas user id, Moodle participant id, Blackboard username, Gradescope submission's student id */
  userId?: string;
  /** Gradescope submission id (Canvas's download names no submission id: its numbers are the user's and each file's) */
  submissionId?: string;
  /** Canvas anonymous grading's id (`anon_<id>` in its download), where the user id is hidden */
  anonymousId?: string;
  /** Canvas SIS user id */
  sisUserId?: string;
  /** Canvas SIS login id, Blackboard username, Moodle username */
  login?: string;
  /** Moodle ID number */
  idNumber?: string;
  section?: string;
  /** Moodle team submission (`Group-`), or a Gradescope group */
  group?: string;
}

export interface SubmissionRecord {
  /**
   * The student's id in reports, journals and feedback file names: the LMS's user id where it has one
   * (a roster's id when one matched), otherwise the folder's name. Unique in a run; safe as a file name.
   */
  id: string;
  /** the student's name as the export or roster gives it */
  name?: string;
  email?: string;
  lms?: LmsIdentity;
  /** the snapshot to grade: a folder, or a single agent file, named as the course names it */
  path: string;
  /** what the instructor's files called it (the export's folder or file names), for messages */
  source: string;
  /** the snapshot's files, relative to `path`, '/'-separated, sorted */
  files: string[];
  /**
   * when it was handed in, ISO 8601: from the export's metadata (Gradescope's :created_at: with its
   * zone; Blackboard's attempt time, which has no zone: `2024-01-15T23:58:03`, Blackboard's clock),
   * or else the latest modification time of its files (UTC, `…Z`; a zip's entries carry their own)
   */
  submittedAt?: string;
  /** where `submittedAt` came from (`submission-times`: only in late verdicts, from --submission-times) */
  submittedAtSource?: 'export' | 'file-times';
  /**
   * why no time is known, where the export gives none and its files' times say nothing (Canvas's
   * download; a zip whose entries all bear one time): no lateness is measured from them
   */
  noTimes?: string;
  /** the export marked it late (Canvas's `_LATE`) */
  late?: boolean;
  /** the attempt taken (the latest), when the export numbers them */
  attempt?: number;
  /**
   * A team's students, when the export lists several for one submission (Gradescope's group
   * submissions): the first is the one `id`, `name` and `email` are taken from.
   */
  members?: { id?: string; name?: string; email?: string }[];
  /** which layout it was read in */
  layout: LayoutKind;
  /** the --roster line of the student it matched, when a roster was given and one did */
  rosterLine?: number;
  /** what the intake left out or changed (refused links, junk, renamed files), one line each */
  notes: string[];
}
