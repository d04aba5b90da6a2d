/**
 * What one request to a sandboxed process came to (sandboxed-process.ts, stdio-agents/process.ts):
 * always a value, never an exception, with what it cost as the meter saw it.
 */
import type { ParsedChildMessage } from './protocol.ts';

export type Reply = Extract<ParsedChildMessage, { type: 'loaded' | 'result' | 'failed' }>;
export type Reported = { move: number; value?: number };

export type CallOutcome =
  | { kind: 'reply'; message: Reply }
  /** `cpu`: it used more CPU time than allowed; `wall`: it used little, but did not answer in the backstop's time */
  | { kind: 'timeout'; by: 'cpu' | 'wall'; reported?: Reported }
  /**
   * `heldBytes`: it was stopped for time short of its memory limit, while allocating fast
   * enough to reach it soon (meters/allocation-trend.ts, headingOverMemory); what it held then
   */
  | { kind: 'exit'; code: number | null; signal: string | null; outOfMemory: boolean; peakMemoryBytes: number; stderr: string; reported?: Reported; heldBytes?: number }
  | { kind: 'output-limit'; bytes: number; reported?: Reported }
  | { kind: 'malformed'; problem: string; reported?: Reported };

/** A call's outcome with what it cost, as the meter saw it. */
export interface CallResult {
  outcome: CallOutcome;
  /** CPU time of the process tree while the request was out */
  cpuMs: number;
  wallMs: number;
}

export interface CallLimits {
  /** CPU time the request may use */
  cpuMs: number;
  /** the wall-clock backstop: a request that waits rather than works ends here */
  wallMs: number;
}
