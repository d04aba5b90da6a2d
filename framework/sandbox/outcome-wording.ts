/**
 * How the outcome of a session's call (sandboxed-process.ts) reads as an Attempt: the wording a
 * student sees for an answer, a timeout, an output flood, an exit or a broken channel. The child's
 * own words are shown with the sandbox's paths made relative to the submission.
 */
import { unfinishedWording } from '../contracts/not-implemented.ts';
import type { Attempt } from './exchange.ts';
import { COPY_FOLDER } from './submissions/prepare.ts';
import { studentText } from '../student-text.ts';
import { excerpt, OUTPUT_LIMIT_BYTES, type CallResult, type Reported } from './sandboxed-process.ts';

const MB = 1024 * 1024;

/** What the wording names of the session it comes from. */
export interface OutcomeWording {
  /** the memory limit, named when it was exceeded */
  memoryMb: number;
  /** the submission's folder; its private copy is COPY_FOLDER inside it */
  submissionDir: string;
  /** the runtime's folder, shown as <sandbox runtime> */
  runtimeDir: string;
}

/** The attempt a call's outcome makes; `ms` is always the CPU time the parent measured. */
export function describeOutcome({ outcome, cpuMs: ms, wallMs }: CallResult, limitMs: number, during: string, wording: OutcomeWording): Attempt {
  const context = during === '' ? '' : ` ${during}`;
  switch (outcome.kind) {
    case 'reply': {
      const m = outcome.message;
      // The child's own idea of its time is not believed: the observation carries the parent's.
      if (m.type === 'result') return { status: 'ok', observation: { ...m.observation, ms }, ms };
      if (m.type === 'failed') {
        const message = tidyPaths(wording, m.message);
        return { status: m.status, message: (m.status === 'error' ? unfinishedWording(message) : undefined) ?? message + (m.status === 'memory' ? ` (memory limit ${wording.memoryMb} MB)` : ''), ms };
      }
      return { status: 'error', message: `internal: unexpected answer "${m.type}" from the sandbox runtime`, ms };
    }
    case 'timeout': {
      const reported = outcome.reported;
      const tail = reported === undefined ? '' : `; the last move it reported was ${reported.move}`;
      const how =
        outcome.by === 'cpu'
          ? `of CPU time${context}`
          : `${context} (after ${Math.round(wallMs)} ms of wall-clock time it had used only ${Math.round(ms)} ms of CPU: it was waiting, not computing)`;
      return { status: 'timeout', message: `no answer within ${Math.round(limitMs)} ms ${how}: the process was stopped${tail}`.replace('ms  (', 'ms ('), ms, ...withReported(reported) };
    }
    case 'output-limit':
      return {
        status: 'output-limit',
        message: `wrote ${(outcome.bytes / MB).toFixed(1)} MB to stdout and stderr, more than the ${OUTPUT_LIMIT_BYTES / MB} MB allowed${context}: the process was stopped`,
        ms,
        ...withReported(outcome.reported),
      };
    case 'exit': {
      const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`;
      if (outcome.outOfMemory && outcome.heldBytes !== undefined) {
        const held = Math.round(outcome.heldBytes / MB);
        return {
          status: 'memory',
          message: `out of memory${context}: the process was allocating without pause (${held} MB after ${Math.round(ms)} ms of CPU time) and would have gone over its ${wording.memoryMb} MB memory limit soon after its ${Math.round(limitMs)} ms; it was stopped`,
          ms,
          ...withReported(outcome.reported),
        };
      }
      if (outcome.outOfMemory) {
        const peak = outcome.peakMemoryBytes > 0 ? ` (peak ${Math.round(outcome.peakMemoryBytes / MB)} MB)` : '';
        return { status: 'memory', message: `out of memory${context}: the process went over its ${wording.memoryMb} MB memory limit${peak} and was stopped`, ms, ...withReported(outcome.reported) };
      }
      const crash = tidyPaths(wording, `the submission's process ${how}${context}${excerpt(outcome.stderr)}`);
      // A starter's function not written yet ends its bridge's process: named as such, not as a crash.
      return { status: 'error', message: unfinishedWording(crash) ?? crash, ms, ...withReported(outcome.reported) };
    }
    case 'malformed':
      // Neutral on purpose: the problem never quotes what arrived nor lists the protocol's messages.
      return { status: 'error', message: tidyPaths(wording, `the sandbox's message channel broke${context}: ${outcome.problem}`), ms, ...withReported(outcome.reported) };
  }
}

/**
 * Paths inside the private folder, shown relative to the submission; the runtime's folder by a
 * neutral name; the child's own words (what it threw, its stderr) terminal-safe.
 */
function tidyPaths(wording: OutcomeWording, text: string): string {
  const tidy = text
    .split(`file://${wording.submissionDir}/${COPY_FOLDER}/`)
    .join('')
    .split(`${wording.submissionDir}/${COPY_FOLDER}/`)
    .join('')
    .split(`file://${wording.submissionDir}/`)
    .join('')
    .split(`${wording.submissionDir}/`)
    .join('')
    .split(wording.runtimeDir)
    .join('<sandbox runtime>');
  return studentText(tidy);
}

function withReported(reported: Reported | undefined): { reported?: Reported } {
  return reported === undefined ? {} : { reported };
}
