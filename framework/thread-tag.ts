/**
 * This process and thread, for the names of things that must not collide: cgroups, probes, files
 * written aside. The worker pool's threads share one pid, so the pid alone named the same cgroup
 * twice — and the thread whose mkdir failed fell back to polling /proc.
 */
import { threadId } from 'node:worker_threads';

export const THREAD_TAG = `${process.pid}-${threadId}`;
