/**
 * Seed 000's traverse_log.txt as a rendering of the reference searches' trace (trace.ts).
 *
 * The rules are the ones the official graded cases settle
 * (../shared/conformance/csci561-official/README.md), event by event:
 *  - `enter`: the node's line with its initial value (-Infinity when the root player moves next,
 *    Infinity when the opponent does) and, for alpha-beta, the window it received;
 *  - `leaf` cut off by depth: one line with its value;
 *  - `leaf` where the game is over: the official files first show the node's "first visit" as
 *    `name,depth,+/-Infinity<TAB>OPTIONAL`, then its value. That first line may be printed (with
 *    the value by who moves next) or omitted: both pass the official grader;
 *  - `update`: after each child returns, the node's value (and alpha/beta) after taking it in;
 *  - `prune`: the node's line with alpha/beta not updated, then the node returns. The reference
 *    alpha-beta emits that line as an `update` right before its `prune`, so a prune that repeats
 *    the update just printed adds nothing.
 * Values the searches use as "no value yet" (±1e9 in alpha-beta, ±Infinity in minimax) print as
 * ±Infinity.
 */
import type { TraceEvent } from '../contracts/search-trace.ts';

export interface TraverseLogOptions {
  /** five columns (Node,Depth,Value,Alpha,Beta) instead of three */
  alphaBeta: boolean;
  /**
   * the first-visit line of a game-over node, which the official files mark OPTIONAL (default
   * 'print'); 'mark' writes it as they do (`B6,3,+/-Infinity<TAB>OPTIONAL`), for comparing
   * other logs with (compareTraverseLog)
   */
  optionalLines?: 'print' | 'omit' | 'mark';
}

/** The magnitude from which a value means "unbounded": alpha-beta starts its nodes and window at ±1e9. */
export const INFINITE_VALUE = 1e9;

export function formatLogValue(v: number): string {
  if (v >= INFINITE_VALUE) return 'Infinity';
  if (v <= -INFINITE_VALUE) return '-Infinity';
  if (!Number.isInteger(v)) throw new RangeError(`traverse log values are integers, got ${v}`);
  return String(v);
}

export function renderTraverseLog(events: readonly TraceEvent[], options: TraverseLogOptions): string[] {
  return traverseLogLines(events, options).map((l) => l.text);
}

/** A line of the log and the index of the trace event it renders (-1: the header). */
export interface TraverseLogLine {
  text: string;
  event: number;
}

/** The log's lines, each with the event it came from (the Search explorer links a line to its node). */
export function traverseLogLines(events: readonly TraceEvent[], options: TraverseLogOptions): TraverseLogLine[] {
  const { alphaBeta } = options;
  const optionalLines = options.optionalLines ?? 'print';
  const out: TraverseLogLine[] = [{ text: alphaBeta ? 'Node,Depth,Value,Alpha,Beta' : 'Node,Depth,Value', event: -1 }];
  let current = -1;
  /** the line, from the event being read */
  const emit = (text: string): void => void out.push({ text, event: current });

  const line = (e: { name: string; alpha?: number; beta?: number }, depth: number, value: number): string => {
    const head = `${e.name},${depth},${formatLogValue(value)}`;
    if (!alphaBeta) return head;
    if (e.alpha === undefined || e.beta === undefined) {
      throw new RangeError(`an alpha-beta traverse log needs alpha and beta on every event; '${e.name}' at depth ${depth} has none`);
    }
    return `${head},${formatLogValue(e.alpha)},${formatLogValue(e.beta)}`;
  };

  /*
   * The log's depth is not the trace's `level`. The log gives a node the depth of the turn in which
   * the move leading to it was made: the root's children are at depth 1, and a free-turn node's
   * children (its mover again) share its depth; the trace's level instead counts the depth left,
   * which a free turn keeps, so a free-turn node shows its parent's level. The log's depth follows
   * from the tree's shape and who moves at each node, which the events give: a node's events are
   * `enter`, then per child (a `leaf`, or an entered node's events) one `update`, and after the
   * last update maybe a `prune`. `open` holds the entered nodes on the current path; `owesUpdate`
   * is set while a node's child has been seen and its update not yet.
   */
  const open: { name: string; level: number; maximizing: boolean; depth: number; owesUpdate: boolean }[] = [];
  const depthOfChild = (): number => {
    const k = open.length;
    if (k === 0) return 0; // the root
    const parent = open[k - 1]!;
    if (k === 1) return 1;
    const freeTurnNode = parent.maximizing === open[k - 2]!.maximizing;
    return freeTurnNode ? parent.depth : parent.depth + 1;
  };
  const closeFinishedChildren = (e: TraceEvent): (typeof open)[number] => {
    while (open.length > 0 && !open[open.length - 1]!.owesUpdate) open.pop();
    const node = open[open.length - 1];
    if (node === undefined || node.name !== e.name || node.level !== e.level) {
      throw new RangeError(`malformed trace: '${e.type}' of '${e.name}' at level ${e.level} does not follow a child of that node`);
    }
    return node;
  };

  const printUpdate = (e: Extract<TraceEvent, { type: 'update' | 'prune' }>): void => {
    const node = closeFinishedChildren(e);
    node.owesUpdate = false;
    emit(line(e, node.depth, e.value));
  };

  let previous: TraceEvent | undefined;
  for (const e of events) {
    current++;
    switch (e.type) {
      case 'enter': {
        const depth = depthOfChild();
        if (open.length > 0) open[open.length - 1]!.owesUpdate = true;
        open.push({ name: e.name, level: e.level, maximizing: e.maximizing, depth, owesUpdate: false });
        emit(line(e, depth, e.value));
        break;
      }
      case 'leaf': {
        const depth = depthOfChild();
        if (open.length > 0) open[open.length - 1]!.owesUpdate = true;
        if (e.reason === 'game-over' && optionalLines === 'print') emit(line(e, depth, e.maximizing ? -Infinity : Infinity));
        if (e.reason === 'game-over' && optionalLines === 'mark') emit(markOptional(line(e, depth, Infinity)));
        emit(line(e, depth, e.value));
        break;
      }
      case 'update':
        printUpdate(e);
        break;
      case 'prune':
        // The reference alpha-beta announces the line in an update just before; a prune that
        // no update announced stands for that update.
        if (!repeatsUpdate(previous, e)) printUpdate(e);
        break;
      case 'cached':
        // The log shows every node of the tree; a cache hit hides a whole subtree.
        throw new RangeError(`a traverse log needs a search without caching ('${e.name}' at level ${e.level} was answered from the cache)`);
    }
    previous = e;
  }
  return out;
}

/** `B6,3,Infinity[,a,b]` as the official files write an optional line: `B6,3,+/-Infinity[,a,b]<TAB>OPTIONAL`. */
function markOptional(line: string): string {
  const fields = line.split(',');
  fields[2] = '+/-Infinity';
  return fields.join(',') + OPTIONAL_MARK;
}

function repeatsUpdate(previous: TraceEvent | undefined, prune: Extract<TraceEvent, { type: 'prune' }>): boolean {
  return (
    previous !== undefined &&
    previous.type === 'update' &&
    previous.name === prune.name &&
    previous.level === prune.level &&
    previous.value === prune.value &&
    previous.alpha === prune.alpha &&
    previous.beta === prune.beta
  );
}

export type TraverseLogComparison =
  | { ok: true }
  /** `line` is 1-based in the expected file; `actual` is undefined when our log ended early */
  | { ok: false; line: number; expected: string | undefined; actual: string | undefined; reason: string };

export const OPTIONAL_MARK = '\tOPTIONAL';

/**
 * Compares a log with an official traverse_log.txt the way the course graded it, made strict:
 * lines compared after trimming; an expected line ending in `<TAB>OPTIONAL` may be matched by a
 * line with the same fields and a value containing "Infinity", or be absent; everything else line
 * by line; and, unlike the course's grader, extra lines at the end are rejected.
 */
export function compareTraverseLog(expected: readonly string[], actual: readonly string[]): TraverseLogComparison {
  const want = dropTrailingBlank(expected.map((l) => l.trimEnd()));
  const got = dropTrailingBlank(actual.map((l) => l.trim()));
  let j = 0;
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w.endsWith(OPTIONAL_MARK)) {
      if (j < got.length && matchesOptional(w.slice(0, -OPTIONAL_MARK.length).trim(), got[j]!)) j++;
      continue;
    }
    const g = got[j];
    if (g !== w.trim()) {
      return { ok: false, line: i + 1, expected: w.trim(), actual: g, reason: g === undefined ? 'our log ends early' : 'lines differ' };
    }
    j++;
  }
  if (j < got.length) return { ok: false, line: want.length + 1, expected: undefined, actual: got[j], reason: 'extra line in our log' };
  return { ok: true };
}

/** Every field equal except the value (third), which only has to be an infinity. */
function matchesOptional(pattern: string, line: string): boolean {
  const p = pattern.split(',');
  const l = line.split(',');
  return p.length === l.length && l[2]!.includes('Infinity') && p.every((field, k) => k === 2 || field === l[k]);
}

function dropTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(0, end);
}
