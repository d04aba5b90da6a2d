/**
 * What a student kit must not hold (issue 22): a search in any language outside the student's own
 * starter, and any of the names the grader's playoffs run (the reference searches' exported
 * functions and classes, read from agents/reference/ as data, and the name the course bridges
 * once gave theirs). Files inside a tarball (the kit's vendor/*.tgz) are read as well, named
 * `vendor/<tgz>!<path>`. Used by the kit tests (reference-scan.slow.test.ts, testcases/kit.slow.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { AGENTS_DIR } from './course-kit.ts';

/**
 * A search's name: alphabeta, alpha_beta, alphaBeta, minimax, negamax, with a prefix before an
 * underscore (reference_alphabeta) or a search's suffix (_max_limit, Search, Move, Value); not a
 * name that only mentions one (measureAlphaBetaLanguages, alphaBetaLine).
 */
const SEARCH = String.raw`\b(?:\w+_)?(?:alpha_?beta|minimax|negamax)(?:_\w+|Search|Move|Value|Max|Min)?\b`;
/** A search defined in Python, TypeScript or JavaScript, or Java (a function, a class, a method). */
const DEFINITION = new RegExp(
  String.raw`^[ \t]*(?:def\s+${SEARCH}\s*\(|(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*${SEARCH}\s*(?:<[^>]*>)?\s*\(|` +
    String.raw`(?:export\s+)?(?:abstract\s+)?class\s+${SEARCH}|` +
    String.raw`(?:(?:public|private|protected|static|final)\s+)+[\w<>[\]]+\s+${SEARCH}\s*\([^;]*\)\s*(?:throws[\w\s,]+)?\{)`,
  'gim',
);
const SOURCE = /\.(py|[cm]?[jt]s|java)$/;
/** The name the CSC384 and CPSC 4610 bridges gave the reference alpha-beta they once held. */
const FORMER_BRIDGE_NAMES = ['reference_alphabeta'];
/** Files of agents/reference/ whose exports are searches (the others are helpers of a course's task). */
const REFERENCE_SEARCHES = ['alphabeta.ts', 'minimax.ts', 'search-stack.ts', 'iterative-deepening.ts', 'native-alphabeta.ts', 'mancala-native-search.ts'];
/** The perfect-play solver's folder under agents/: every value it knows is a reference answer. */
export const SOLVER_FOLDER = 'perfect';
/** The solver's exports that name what it does; not a helper's generic name (a YAML library has a plainValue too). */
const SOLVER_NAME = /solv|perfect|endgame|retrograde|mtd/i;

export interface ReferenceHit {
  /** the file, relative to the scanned folder ('/'-separated); inside a tarball `tgz!path` */
  file: string;
  line: number;
  text: string;
  /** `search`: a search defined there; `name`: a name the grader's playoffs run */
  kind: 'search' | 'name';
}

/**
 * The perfect-play solver's names (agents/perfect/): its modules' exported functions, classes and
 * constants that name a solve, read from its files as data, so a fast solver added there is
 * covered without a list to keep.
 */
export function solverNames(): string[] {
  const names = new Set<string>();
  const dir = join(AGENTS_DIR, SOLVER_FOLDER);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^export (?:abstract )?(?:async )?(?:function\*?|class|const|let) (\w+)/gm)) if (SOLVER_NAME.test(m[1]!)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** The names the grader's playoffs run: the reference searches' exported functions and classes, the bridges' former one, and the perfect-play solver's. */
export function playoffNames(): string[] {
  const names = new Set([...FORMER_BRIDGE_NAMES, ...solverNames()]);
  for (const file of REFERENCE_SEARCHES) {
    const text = readFileSync(join(AGENTS_DIR, 'reference', file), 'utf8');
    // Their searches, not their helpers (a `shown` formatting a value is no search).
    for (const m of text.matchAll(/^export (?:abstract )?(?:function|class) (\w+)/gm)) if (/alpha_?beta|minimax|negamax|search|deepening/i.test(m[1]!)) names.add(m[1]!);
  }
  return [...names].sort();
}

/**
 * The hits in one file's text. `own`: the student's own file (a starter's), where searches may be
 * defined and a function of its own may bear a playoff's name (a starter's `alphaBeta` to fill in).
 */
export function scanText(file: string, text: string, names: readonly string[], own = false): ReferenceHit[] {
  const hits: ReferenceHit[] = [];
  const lines = text.split('\n');
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const lineText = (n: number) => lines[n - 1]!.trim().slice(0, 160);
  if (!own && SOURCE.test(file)) {
    for (const m of text.matchAll(DEFINITION)) {
      const line = lineOf(m.index + m[0].length - m[0].trimStart().length);
      hits.push({ file, line, text: lineText(line), kind: 'search' });
    }
  }
  const ownDefinitions = own ? [...text.matchAll(DEFINITION)].map((m) => m[0]) : [];
  // A C or C++ starter's function to fill in (the csci561 starters) is defined by its body, which DEFINITION does not read.
  const ownBody = (n: string) => own && new RegExp(String.raw`\b${n}\s*\([^;{}]*\)\s*(?:const\s*)?\{`).test(text);
  const checked = names.filter((n) => !ownDefinitions.some((d) => new RegExp(String.raw`\b${n}\b`).test(d)) && !ownBody(n));
  if (checked.length === 0) return hits;
  // A class by any mention; a function where it is defined, called or imported (`minimax` alone is an agent's name in many places).
  const classes = checked.filter((n) => /^[A-Z]/.test(n));
  const functions = checked.filter((n) => !/^[A-Z]/.test(n));
  const pattern = new RegExp(
    [classes.length > 0 ? String.raw`\b(?:${classes.join('|')})\b` : '', functions.length > 0 ? String.raw`\b(?:${functions.join('|')})\s*(?:<[^<>()]*>)?\s*\(|\bimport\s*\{[^}]*\b(?:${functions.join('|')})\b` : '']
      .filter((p) => p !== '')
      .join('|'),
    'g',
  );
  for (const m of text.matchAll(pattern)) {
    const line = lineOf(m.index);
    // Prose in a comment names searches ("as the provided minimax (…)"); code is what counts.
    if (/^\s*(?:\*|\/\/|#)/.test(lines[line - 1]!)) continue;
    hits.push({ file, line, text: lineText(line), kind: 'name' });
  }
  return hits;
}

/**
 * Every hit in the folder `dir` and the tarballs in it. `ownFolders`: folders (relative; '' for
 * all) that are the student's own work, where a search may be defined (a starter's functions to
 * fill in), though no playoff name may appear.
 */
export function scanKit(dir: string, ownFolders: readonly string[] = []): ReferenceHit[] {
  const names = playoffNames();
  const hits: ReferenceHit[] = [];
  const own = (rel: string) => ownFolders.some((f) => f === '' || rel === f || rel.startsWith(`${f}/`));
  for (const rel of filesUnder(dir)) {
    if (rel.startsWith('node_modules/')) continue;
    if (rel.endsWith('.tgz')) {
      hits.push(...scanTarball(join(dir, rel), rel, names));
      continue;
    }
    hits.push(...scanText(rel, readFileSync(join(dir, rel), 'utf8'), names, own(rel)));
  }
  return hits;
}

function scanTarball(tarball: string, rel: string, names: readonly string[]): ReferenceHit[] {
  const out = mkdtempSync(join(tmpdir(), 'mancala-kit-scan-'));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', out]);
    return filesUnder(out).flatMap((f) => scanText(`${rel}!${f.replace(/^package\//, '')}`, readFileSync(join(out, f), 'utf8'), names));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split(sep).join('/'))
    .sort();
}
