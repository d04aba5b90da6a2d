/**
 * A submission's build (javac, g++, make, its manifest's `build:` line), run once before any of
 * its cases, in the same sandbox as the cases (no network, a size-capped work folder holding a
 * copy of its files) under its own limits, charged to no case. What the build leaves in the work
 * folder (class files, a binary, beside the sources) comes back as an archive over the report
 * channel and is staged as the files every case run starts from (build-archive.ts).
 * A failed build is a compile error carrying the head and tail of what the compiler printed.
 */
import type { SandboxMode } from '../jail/mechanisms.ts';
import { readUstar, writeEntries } from './build-archive.ts';
import { runInSandbox, stageFiles, type StagedFiles } from './run.ts';
import { makeTempFolder, removeTempFolder } from '../jail/temp-folders.ts';
import { studentText } from '../../student-text.ts';

const MB = 1024 * 1024;

/** A build's own limits: compilers (javac's JVM above all) need more than a case. */
export const BUILD_LIMITS = {
  cpuMs: 60_000,
  memoryBytes: 1024 * MB,
  maxProcesses: 128,
  /** the archive of the built folder, sources included */
  fileBytes: 64 * MB,
  workBytes: 256 * MB,
  tmpBytes: 256 * MB,
};

/** Lines of the compiler's output kept from its start and from its end. */
export const BUILD_OUTPUT_LINES = 20;

const ARCHIVE = '.mancala-build.tar';
const LOG = '.mancala-build.log';

/**
 * Runs the build line (`$1`) with its output in a log; on failure prints the log's head and tail
 * (the JVM's notice about its options left out) and exits with the build's code; on success
 * archives the work folder (ustar, which readUstar reads) for the grader.
 */
const BUILD_SCRIPT = `/bin/sh -c "$1" </dev/null >${LOG} 2>&1
code=$?
if [ $code -ne 0 ]; then
  grep -v '^Picked up JAVA_TOOL_OPTIONS:' ${LOG} | cut -c 1-400 > ${LOG}.txt
  n=$(wc -l < ${LOG}.txt)
  head -n ${BUILD_OUTPUT_LINES} ${LOG}.txt
  if [ "$n" -gt ${2 * BUILD_OUTPUT_LINES} ]; then echo "[… $((n - ${2 * BUILD_OUTPUT_LINES})) lines left out …]"; fi
  if [ "$n" -gt ${BUILD_OUTPUT_LINES} ]; then
    rest=$((n - ${BUILD_OUTPUT_LINES})); [ $rest -gt ${BUILD_OUTPUT_LINES} ] && rest=${BUILD_OUTPUT_LINES}
    tail -n $rest ${LOG}.txt
  fi
  exit $code
fi
rm -f ${LOG}
tar --format=ustar --exclude=./${ARCHIVE} -cf ${ARCHIVE} . || exit 125
`;

export type BuildResult =
  | { ok: true; files: StagedFiles; cpuMs: number; wallMs: number }
  | { ok: false; message: string };

/**
 * Builds `files` (a staged submission) with the shell line `build` in the sandbox. On success the
 * built folder is staged anew (the caller disposes it; `files` is left as it was). `inputs` are
 * files the grader adds to the build's folder (plain names: a client library), kept in what it built.
 */
export async function buildInSandbox(files: StagedFiles, build: string, mode: SandboxMode, inputs: Readonly<Record<string, string | Buffer>> = {}): Promise<BuildResult> {
  const r = await runInSandbox({
    files,
    argv: ['/bin/sh', '-c', BUILD_SCRIPT, 'build', build],
    inputs,
    outputs: [ARCHIVE],
    limits: BUILD_LIMITS,
    mode,
  });
  if (r.status !== 'ok') {
    if (r.status === 'error' && r.exitCode !== null && r.exitCode !== 125) {
      // The compiler quotes the student's source: terminal-safe before it enters a message.
      const said = studentText(r.stdout.trim());
      if (said === '') return { ok: false, message: `compile error: \`${build}\` exited with code ${r.exitCode} and printed nothing` };
      // Its first line first: a one-line report (the console's) then shows what the compiler said.
      return { ok: false, message: `compile error: ${said.split('\n')[0]} (\`${build}\` exited with code ${r.exitCode}):\n${said}` };
    }
    return { ok: false, message: `the build \`${build}\` failed: ${r.message.replace(/^the program/, 'it')}` };
  }
  const archive = r.files[ARCHIVE];
  if (archive === undefined) return { ok: false, message: `the build \`${build}\` left no archive of its folder: ${studentText(r.stderr.trim().split('\n').slice(-3).join(' '))}` };
  const entries = readUstar(archive);
  if ('problem' in entries) return { ok: false, message: `the build \`${build}\` left a file that cannot be used: ${entries.problem}` };
  const root = await makeTempFolder('program-built');
  try {
    try {
      await writeEntries(root, entries);
    } catch (e) {
      // Only a tampered archive (two entries at one path, a file where a folder was) gets here.
      return { ok: false, message: `the build \`${build}\` left files that cannot be unpacked: ${(e as Error).message}` };
    }
    return { ok: true, files: await stageFiles(root), cpuMs: r.cpuMs, wallMs: r.wallMs };
  } finally {
    await removeTempFolder(root);
  }
}
