/** Time management helpers of the reference submission (a submission may be several files). */

/** Thrown inside the search when the time is up: the unfinished depth is thrown away. */
export class OutOfTime extends Error {
  constructor() {
    super('out of time');
  }
}

/** Stop this many ms before the deadline, so the answer arrives in time. */
export const SAFETY_MS = 15;
