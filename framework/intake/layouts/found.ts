/**
 * What a layout finds of one student before anything is copied: who (as the export says), when,
 * and which of the export's files are theirs under which names. The intake (take-in.ts) turns each
 * into a SubmissionRecord: it names the student's id, snapshots the files, opens zips inside.
 */
import type { LmsIdentity, SubmissionRecord } from '../submission.ts';

export interface FoundFile {
  /** the file in the export (a path on disk) */
  path: string;
  /** its name in the submission, as the course names it ('/'-separated) */
  as: string;
}

export interface FoundSubmission {
  /** the id the export gives (an LMS user id, a folder's name), before a roster or uniqueness changes it */
  idHint: string;
  name?: string;
  email?: string;
  lms?: LmsIdentity;
  members?: SubmissionRecord['members'];
  submittedAt?: string;
  late?: boolean;
  attempt?: number;
  /** what the instructor's files call it: the given path, and the student's folder or name prefix in it */
  source: string;
  /** a whole folder, or files renamed, or one file that is the whole submission (an agent file) */
  from: { folder: string } | { files: FoundFile[] } | { file: string };
  notes: string[];
}

export interface LayoutRead {
  submissions: FoundSubmission[];
  /** what the layout left out of the export as a whole (files no student's), one line each */
  notes: string[];
  /**
   * false when the files' own times say nothing of when each was handed in (Canvas stamps every
   * file of its download with the time the zip was made): no time is taken from them
   */
  fileTimes?: false;
}

/** Reads an export folder in one layout; `shown` names the export in sources and notes. */
export type LayoutReader = (dir: string, shown: string) => LayoutRead;
