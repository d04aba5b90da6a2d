/**
 * The address-space cap this process runs under (`ulimit -v`, `prlimit --as`), common on shared
 * grading servers. Every process the grader starts inherits it, submissions included: a memory
 * limit at or above it can never be reached (the runtime fails to map memory first, and the
 * verdict would read as a crash, not as `memory`).
 */
import { readFileSync } from 'node:fs';

/** The cap in bytes, or undefined when there is none (or this system does not say). */
export function addressSpaceCap(limitsText = readProcLimits()): number | undefined {
  const line = limitsText?.split('\n').find((l) => l.startsWith('Max address space'));
  const soft = line?.slice('Max address space'.length).trim().split(/\s+/)[0];
  if (soft === undefined || soft === 'unlimited') return undefined;
  const bytes = Number(soft);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : undefined;
}

function readProcLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Why a memory limit of `memoryMb` cannot hold under `cap` (undefined: it can). A runtime maps
 * more than it uses (code, stacks, a JVM's reserved spaces), so the limit must stay below the cap.
 */
export function memoryLimitProblem(memoryMb: number, cap: number | undefined): string | undefined {
  if (cap === undefined) return undefined;
  const capMb = Math.floor(cap / (1024 * 1024));
  if (memoryMb < capMb) return undefined;
  return `a memory limit of ${memoryMb} MB cannot be reached: this process may map at most ${capMb} MB of address space (ulimit -v / prlimit --as), and the submissions it starts inherit that cap; lower the limit or raise the cap`;
}
