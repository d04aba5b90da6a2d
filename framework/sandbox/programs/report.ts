/**
 * The in-jail half of a program run (run.ts) and the grader's reading of what it says.
 *
 * Inside the jail (jail/command.ts), a small sh wrapper (WRAPPER below) does everything that touches the
 * program's files, so the grader never reads a file of unbounded size nor looks into the
 * sandbox's folder:
 *   1. copies the submission's staged host copy (bound read-only) into the work folder, a
 *      size-capped tmpfs, removing left-over copies of the requested outputs; waits for the
 *      grader's go on stdin, then copies the input files in;
 *   2. says `start` on fd 3 and runs the program, stdin closed, fd 3 closed;
 *   3. says `exit CODE`, then kills every other process of the sandbox (`kill -9 -1` reaches
 *      only its own pid namespace), so nothing writes while it reports;
 *   4. sends back over fd 3 the free space of its tmpfs folders, the files left (names and
 *      sizes, at most LIST_ENTRIES) and each requested output, at most `fileBytes` of it.
 * In the weak mode (no bubblewrap) the wrapper does not kill "every process" (it would be the
 * whole machine's): the meter kills the tree instead (execution.ts).
 */

/** Files listed back at most, and the bytes of a listed name kept. */
export const LIST_ENTRIES = 100;
export const LIST_NAME_BYTES = 256;

/**
 * The wrapper (POSIX sh, run as `sh -c WRAPPER sh SRC INPUTS WORK TMP KILLALL CAP OUTPUTS CLEAR PROGRAM…`;
 * CLEAR is 1 when the submission holds a file named as an output, whose copy is removed first).
 * Its report on fd 3: `start`, `exit CODE`, `space WFREE WBLOCK WTOTAL TFREE TBLOCK TTOTAL`,
 * `list` then entries `SIZE NAME\0` ended by an empty entry, then per output `file NAME SIZE SENT`
 * and SENT bytes, `none NAME` or `special NAME`, then `end`; `setup copy` if the copy failed.
 *
 * It copies the submission in, then waits for a line on stdin (the grader's go: the run's inputs
 * are in their folder by then, so a jail can be started ahead of its case, execution.ts), copies
 * the inputs and runs the program. Every process it starts costs a fork and an exec (1–3 ms each
 * on a busy 2-core machine, measured by `mancala bench`'s breakdown), so it starts few: `rm` only
 * when CLEAR, one `stat` for both folders' space, `find | head` for the list (find cuts each
 * name), one `stat` for every output's size and one `head` per output.
 */
export const WRAPPER = `set -f
src=$1 inputs=$2 work=$3 tmp=$4 killall=$5 cap=$6 outputs=$7 clear=$8
shift 8
cd "$work" || exit 120
unset OLDPWD
if ! cp -R "$src/." . ; then printf 'setup copy\\n' >&3; exit 0; fi
if [ "$clear" = 1 ]; then rm -rf -- $outputs; fi
# The grader's go: the inputs are in their folder (a jail may be started ahead of its case).
read -r go || exit 0
if ! cp -R "$inputs/." . ; then printf 'setup copy\\n' >&3; exit 0; fi
printf 'start\\n' >&3
"$@" </dev/null 3>&-
code=$?
printf 'exit %s\\n' "$code" >&3
if [ "$killall" = 1 ]; then
  n=0
  # dash's kill: -9, not -s KILL, before -1; it succeeds while zombies remain, so this also waits for them to be reaped.
  while [ $n -lt 100000 ] && kill -9 -1 2>/dev/null; do n=$((n+1)); done
fi
space() { stat -f -c '%a %S %b' "$1" 2>/dev/null || echo '0 0 0'; }
set -- $(stat -f -c '%a %S %b' . "$tmp" 2>/dev/null)
[ $# -eq 6 ] || set -- $(space .) $(space "$tmp")
printf 'space %s %s %s %s %s %s\\n' "$@" >&3
printf 'list\\n' >&3
find . -xdev ! -type d -printf '%s %.${LIST_NAME_BYTES}P\\0' 2>/dev/null | head -z -n ${LIST_ENTRIES} >&3
printf '\\0' >&3
regular=
for f in $outputs; do
  if [ -e "$f" ] && [ ! -L "$f" ] && [ ! -r "$f" ]; then chmod u+r -- "$f" 2>/dev/null; fi
  if [ -L "$f" ] || { [ -e "$f" ] && { [ ! -f "$f" ] || [ ! -r "$f" ]; }; }; then
    printf 'special %s\\n' "$f" >&3
  elif [ -f "$f" ]; then
    regular="$regular $f"
  else
    printf 'none %s\\n' "$f" >&3
  fi
done
if [ -n "$regular" ]; then
  set -- $(stat -c %s -- $regular 2>/dev/null)
  k=0
  for f in $regular; do k=$((k+1)); done
  # One size a file, or each file asked again (one vanished or changed between the two looks).
  [ $# -eq $k ] || set --
  for f in $regular; do
    if [ $# -gt 0 ]; then size=$1; shift; else size=$(stat -c %s -- "$f" 2>/dev/null) || size=0; fi
    sent=$size
    [ "$size" -gt "$cap" ] && sent=$cap
    printf 'file %s %s %s\\n' "$f" "$size" "$sent" >&3
    head -c "$sent" -- "$f" >&3
  done
fi
printf 'end\\n' >&3
`;

/** What the wrapper reported, as far as it got. */
export interface Report {
  setupFailed: boolean;
  exitCode?: number;
  workFree?: number;
  workTotal?: number;
  tmpFree?: number;
  tmpTotal?: number;
  left: { name: string; bytes: number }[];
  files: Record<string, Buffer>;
  sizes: Record<string, number>;
  notFiles: string[];
  complete: boolean;
}

/**
 * Parses fd 3's stream. Out of form means the wrapper was disturbed: killed by the program (same
 * user), or, where /proc lets the program open the wrapper's fd 3 (not when the grader is root:
 * the wrapper changed user, so it is not dumpable), written to.
 */
export function parseReport(data: Buffer): Report | { problem: string } {
  const report: Report = { setupFailed: false, left: [], files: {}, sizes: {}, notFiles: [], complete: false };
  let at = 0;
  const line = (): string | undefined => {
    const end = data.indexOf(0x0a, at);
    if (end < 0) return undefined;
    const text = data.subarray(at, end).toString('utf8');
    at = end + 1;
    return text;
  };
  const bad = (why: string) => ({ problem: why });
  const first = line();
  if (first === 'setup copy') return { ...report, setupFailed: true, complete: true };
  if (first !== 'start') return bad(`expected "start", got ${JSON.stringify(first ?? '')}`);
  const exit = line();
  if (exit === undefined) return report;
  const e = /^exit (\d+)$/.exec(exit);
  if (e === null) return bad(`expected "exit CODE", got ${JSON.stringify(exit)}`);
  report.exitCode = Number(e[1]);
  const space = line();
  if (space === undefined) return report;
  const s = /^space (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$/.exec(space);
  if (s === null) return bad(`expected "space …", got ${JSON.stringify(space)}`);
  const n = s.slice(1).map(Number);
  [report.workFree, report.workTotal, report.tmpFree, report.tmpTotal] = [n[0]! * n[1]!, n[2]! * n[1]!, n[3]! * n[4]!, n[5]! * n[4]!];
  if (line() !== 'list') return bad('expected "list"');
  for (;;) {
    const end = data.indexOf(0, at);
    if (end < 0) return bad('the file list does not end');
    const entry = data.subarray(at, end).toString('utf8');
    at = end + 1;
    if (entry === '') break;
    const m = /^(\d+) ([^]*)$/.exec(entry);
    if (m === null || report.left.length >= LIST_ENTRIES) return bad('a malformed file list');
    report.left.push({ name: m[2]!, bytes: Number(m[1]) });
  }
  for (;;) {
    const header = line();
    if (header === undefined) return bad('the report stops before "end"');
    if (header === 'end') break;
    const file = /^file (\S+) (\d+) (\d+)$/.exec(header);
    if (file !== null) {
      const sent = Number(file[3]);
      if (at + sent > data.length) return bad(`${file[1]} is cut short`);
      report.files[file[1]!] = Buffer.from(data.subarray(at, at + sent));
      report.sizes[file[1]!] = Number(file[2]);
      at += sent;
      continue;
    }
    const other = /^(none|special) (\S+)$/.exec(header);
    if (other === null) return bad(`expected a file's header, got ${JSON.stringify(header.slice(0, 80))}`);
    if (other[1] === 'special') report.notFiles.push(other[2]!);
  }
  if (at !== data.length) return bad('bytes after "end"');
  report.complete = true;
  return report;
}
