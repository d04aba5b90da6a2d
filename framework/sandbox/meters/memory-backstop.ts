/**
 * A hard cap on every process of a submission where no kernel counter holds its memory limit:
 * without a usable cgroup (cgroup v2 only, most current Linux machines) the tree's memory is
 * polled from /proc every 20 ms (polling-meter.ts), and an allocator the poll does not see in
 * time (a grader busy with a reference search, a machine that faults pages in at GB/s) runs on
 * until the next poll. The backstop is RLIMIT_DATA (prlimit --data, set in jail/command.ts): a process
 * may not map more private writable memory than the memory limit plus a margin; past it, malloc
 * and mmap fail, which the runtimes report (MemoryError, std::bad_alloc, OutOfMemoryError,
 * "Array buffer allocation failed"), and those words make the verdict `memory`.
 *
 * Why RLIMIT_DATA and not RLIMIT_AS: the address-space cap counts reservations the runtimes never
 * touch (OpenJDK 17 with -Xmx384m does not start under 1.5 GB of it, "Could not allocate
 * compressed class space", and does at 2 GB), while
 * RLIMIT_DATA (Linux 4.7 and later) counts only private writable mappings: PROT_NONE reservations
 * are free. It is per process, not per tree: a tree of N processes could hold N times it, which
 * the poll and the process limit (MAX_PROCESSES) still bound.
 *
 * Measured (OpenJDK 17.0.15, Node 20.20, Python 3.11 and 2.7.18, 2 cores, 24 GB, Linux 6.18):
 *  - the JVM needs its -Xmx plus 40–45 MB (metaspace, code cache, thread stacks) under
 *    RLIMIT_DATA: -Xmx16m starts at 55 MB, -Xmx144m at 187 MB, -Xmx400m at 422–442 MB; with
 *    less it prints "There is insufficient memory for the Java Runtime Environment". The -Xmx
 *    programs/runtimes.ts gives it (at most the limit less 112 MB, or three quarters of it) fits;
 *  - Node starts at 48 MB, and below that it hangs (a thread it could not create), which only
 *    the start-up timeout would end: the margin keeps far from it; a heap bomb under
 *    --max-old-space-size still meets V8's own heap limit first, a Buffer bomb gets
 *    "RangeError: Array buffer allocation failed";
 *  - python3 and python2.7 start at 4 MB, sh at 2 MB;
 *  - without it, with the /proc poll alone and the grader's thread held while they ran, a C++ and
 *    a Python program touching 64 MB blocks held 1024 MB under a 128 MB limit and passed as `ok`;
 *    with it (224 MB), the block past 192 MB was refused: std::bad_alloc, MemoryError, `memory`
 *    (memory-backstop.test.ts). Pages fault in at 100–300 MB/s on this virtual machine, so the
 *    poll alone caught a free-running allocator at 256–277 MB under 256 MB here; on hardware that
 *    faults at 1–5 GB/s a 20 ms poll would let 20–100 MB more through (estimated, not measured),
 *    and a busy grader thread far more.
 * A program that maps much more than it touches (a huge untouched static array, calloc of GBs)
 * is refused here where a cgroup would have let it run: a cost the backstop's margin keeps rare.
 */
import type { ResourceMeter } from './resource-meter.ts';

const MB = 1024 * 1024;

/** The least margin over the memory limit: Node's start-up alone maps about 48 MB. */
const MARGIN_FLOOR_BYTES = 64 * MB;

/**
 * The RLIMIT_DATA of each process for a tree limited to `memoryLimitBytes`: the limit, 64 MB, and
 * a quarter of the limit (a runtime's mapped-but-untouched memory grows with its heap).
 */
export function backstopBytes(memoryLimitBytes: number): number {
  return memoryLimitBytes + MARGIN_FLOOR_BYTES + Math.floor(memoryLimitBytes / 4);
}

/** prlimit's words for the backstop: none where the kernel holds the tree to its limit (a cgroup). */
export function backstopArgs(meter: Pick<ResourceMeter, 'kernelLimited' | 'memoryLimitBytes'>): string[] {
  return meter.kernelLimited ? [] : [`--data=${backstopBytes(meter.memoryLimitBytes)}`];
}

/**
 * What Python, C++, Java, C and Node print when an allocation fails, the backstop's refusal
 * included: the JVM's own "insufficient memory" (a native commit refused), Node's Buffer.
 */
export const ALLOCATION_FAILED = /MemoryError|std::bad_alloc|OutOfMemoryError|Cannot allocate memory|out of memory|insufficient memory for the Java Runtime|allocation failed/i;
