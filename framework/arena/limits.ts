/**
 * The arena's upload bound, apart from the server so that `mancala submit` (a student's kit has
 * it) loads neither the server nor the database to know it.
 */

/** The largest zip a student may upload. */
export const MAX_SUBMISSION_BYTES = 8 * 1024 * 1024;
