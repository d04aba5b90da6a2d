/**
 * How to build and run a submission that did not say: inferred from the files it holds (a pure
 * function of their names and, for Java and Python, their text), or read from its manifest
 * (`mancala.yaml`: `build:` and `run:`, each one shell line; `protocol: 1` for an agent over stdio,
 * agents/clients/PROTOCOL.md). One manifest and one parser for every kind of submission folder:
 * file-in/file-out programs (packs/csci561/program.ts) and stdio agents (stdio-agents/spec.ts).
 * The build, when there is one, runs once in the sandbox (build.ts); the run is then an
 * argv, so that its runtime's start-up (the JVM's, Python's) is measured and not charged, or a
 * shell line run by `sh -c`.
 */
import { parse } from 'yaml';

/** The manifest's name in a submission folder. */
export const MANIFEST_FILE = 'mancala.yaml';
/** What an inferred C or C++ build writes, and the run starts. */
export const BUILT_PROGRAM = 'mancala-program';
/** The versions of the stdio protocol this grader speaks (a manifest's `protocol:`). */
export const STDIO_PROTOCOL_VERSIONS: readonly number[] = [1];

export interface BuildPlan {
  /** one shell line, run once in the sandbox before any case (none: nothing to build) */
  build?: string;
  /** the program's words, run for each case */
  run: string[];
  /** how the plan was found, for the submission's notes */
  why: string;
  /** the manifest's `protocol:`: the program is an agent over stdio (none: a file-in/file-out program) */
  protocol?: number;
}

/** A file of the submission: its path inside the folder, whether executable, and its text where it matters. */
export interface SubmissionFile {
  path: string;
  executable: boolean;
  /** the text of .java and .py files (undefined for others) */
  text?: string;
}

/** The kinds of sources inference knows, with the extensions that mean them. */
const SOURCE_KINDS = {
  java: ['.java'],
  'C++': ['.cpp', '.cc', '.cxx'],
  C: ['.c'],
  Python: ['.py'],
} as const;
type SourceKind = keyof typeof SOURCE_KINDS;

export const MAKEFILES = ['Makefile', 'makefile', 'GNUmakefile'];

export const LOOKED_FOR =
  `a \`command\` file, a ${MANIFEST_FILE} (build: and run: lines), sources (*.java, *.cpp/*.cc, *.c, *.py), a Makefile, or one executable file`;

/** Quotes a word for sh: single quotes, a quote inside as '\''. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9._/+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Splits a command line into words as a shell would for plain commands: white space separates,
 * single and double quotes group, a backslash escapes the next character. Nothing else (no
 * variables, globs, pipes or `;`) means anything: the words are run as they are.
 */
export function splitCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** Characters that make a line more than plain words: it needs a shell. */
const SHELL_SYNTAX = /[|&;<>()$`*?[\]{}~!#\n]/;

/** A run line as argv: plain words as they are (their runtime's start-up then left out), else `sh -c LINE`. */
export function runArgv(line: string): string[] | undefined {
  if (!SHELL_SYNTAX.test(line.replace(/(["'])(?:(?!\1)[^\\]|\\.)*\1/g, ''))) return splitCommand(line);
  return ['sh', '-c', line];
}

const kindOf = (path: string): SourceKind | undefined =>
  (Object.keys(SOURCE_KINDS) as SourceKind[]).find((k) => SOURCE_KINDS[k].some((ext) => path.endsWith(ext)));

/** `public static void main(String[] args)` in any order of its modifiers, any spelling of the array. */
const JAVA_MAIN = /\b(?:public\s+static|static\s+public)\s+void\s+main\s*\(/;
const JAVA_PACKAGE = /^\s*package\s+([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*;/m;
const PYTHON_MAIN = /^if\s+__name__\s*==\s*['"]__main__['"]\s*:/m;

/** Up to `n` names of a list, and how many more. */
export function someNames(names: readonly string[], n = 6): string {
  if (names.length === 0) return 'nothing (the folder is empty)';
  return names.slice(0, n).join(', ') + (names.length > n ? ` and ${names.length - n} more` : '');
}

/** The one Java class with main among `sources`, by its qualified name (package included), or why there is not one. */
export function javaMainClass(sources: readonly SubmissionFile[]): { name: string; pkg?: string } | { problem: string } {
  const mains = sources.filter((f) => JAVA_MAIN.test(stripJavaComments(f.text ?? '')));
  if (mains.length !== 1) {
    const found = mains.length === 0 ? 'none of them has' : `${someNames(mains.map((f) => f.path))} each have`;
    return { problem: `found Java sources (${someNames(sources.map((f) => f.path))}) but ${found} \`public static void main\`: say which to run in ${MANIFEST_FILE} (run: java -cp . pkg.Main)` };
  }
  const main = mains[0]!;
  const pkg = JAVA_PACKAGE.exec(stripJavaComments(main.text ?? ''))?.[1]?.replace(/\s+/g, '');
  const cls = main.path.slice(main.path.lastIndexOf('/') + 1, -'.java'.length);
  return pkg === undefined ? { name: cls } : { name: `${pkg}.${cls}`, pkg };
}

/** Java's plan: the one class with main, run by its full name after javac writes classes beside the sources' root. */
function javaPlan(sources: SubmissionFile[]): BuildPlan | { problem: string } {
  const main = javaMainClass(sources);
  if ('problem' in main) return main;
  // `-d .`: classes land under the work folder by package (mancala/Main.class) wherever the sources sit.
  return {
    build: `javac -encoding UTF-8 -d . ${sources.map((f) => shellQuote(f.path)).join(' ')}`,
    run: ['java', '-cp', '.', main.name],
    why: `Java sources: javac, then java ${main.name} (the class with main${main.pkg === undefined ? '' : `, in package ${main.pkg}`})`,
  };
}

function stripJavaComments(text: string): string {
  return text.replace(/\/\*[^]*?\*\//g, ' ').replace(/\/\/.*$/gm, '');
}

function pythonPlan(sources: SubmissionFile[]): BuildPlan | { problem: string } {
  const pick = sources.length === 1 ? sources : sources.filter((f) => PYTHON_MAIN.test(f.text ?? ''));
  if (pick.length !== 1) {
    const found = pick.length === 0 ? 'none has' : `${someNames(pick.map((f) => f.path))} each have`;
    return { problem: `found Python files (${someNames(sources.map((f) => f.path))}) and ${found} \`if __name__ == "__main__":\`: say which to run in ${MANIFEST_FILE} (run: python3 main.py)` };
  }
  return { run: ['python3', pick[0]!.path], why: `Python: python3 ${pick[0]!.path}` };
}

function nativePlan(kind: 'C++' | 'C', sources: SubmissionFile[]): BuildPlan {
  const compiler = kind === 'C++' ? 'g++ -O2 -std=c++17' : 'gcc -O2 -std=c11';
  const libs = kind === 'C' ? ' -lm' : '';
  return {
    build: `${compiler} -o ${BUILT_PROGRAM} ${sources.map((f) => shellQuote(f.path)).join(' ')}${libs}`,
    run: [`./${BUILT_PROGRAM}`],
    why: `${kind} sources: ${compiler.split(' ')[0]}, then ./${BUILT_PROGRAM}`,
  };
}

/**
 * The plan for a folder holding `files` (no command file, no manifest): one kind of sources,
 * else a Makefile (which needs the manifest's run line), else one executable file at the top.
 */
export function inferBuildPlan(files: readonly SubmissionFile[]): BuildPlan | { problem: string } {
  const byKind = new Map<SourceKind, SubmissionFile[]>();
  for (const f of files) {
    const k = kindOf(f.path);
    if (k !== undefined) byKind.set(k, [...(byKind.get(k) ?? []), f]);
  }
  const kinds = [...byKind.keys()];
  const found = someNames(files.map((f) => f.path));
  if (files.some((f) => MAKEFILES.includes(f.path))) {
    return { problem: `found a Makefile (and ${kinds.length > 0 ? `${kinds.join(' and ')} sources` : 'no sources'}): make builds, but which program to run is not known: write it in ${MANIFEST_FILE} (run: ./program; make is then the build)` };
  }
  if (kinds.length > 1) {
    return { problem: `found sources of ${kinds.length} kinds (${kinds.map((k) => `${k}: ${someNames(byKind.get(k)!.map((f) => f.path), 3)}`).join('; ')}): say how to build and run in ${MANIFEST_FILE}` };
  }
  const kind = kinds[0];
  if (kind === 'java') return javaPlan(byKind.get(kind)!);
  if (kind === 'Python') return pythonPlan(byKind.get(kind)!);
  if (kind === 'C++' || kind === 'C') return nativePlan(kind, byKind.get(kind)!);
  const executables = files.filter((f) => f.executable && !f.path.includes('/'));
  if (executables.length === 1) return { run: [`./${executables[0]!.path}`], why: `one executable file: ./${executables[0]!.path}` };
  if (executables.length > 1) return { problem: `found ${executables.length} executable files (${someNames(executables.map((f) => f.path))}): say which to run in ${MANIFEST_FILE} (run: ./program)` };
  return { problem: `nothing to run: looked for ${LOOKED_FOR}; found ${found}` };
}

/**
 * `mancala.yaml`'s text as a plan: `run:` a line (required), `build:` a line (optional),
 * `protocol:` a version of the stdio protocol (optional: an agent over stdio); nothing else.
 * A problem is one line naming the file and the field.
 */
export function parseManifest(text: string, file: string): BuildPlan | { problem: string } {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return { problem: `${file}: not YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { problem: `${file}: expected lines "build: …" and "run: …" (and "protocol: 1" for an agent over stdio)` };
  const fields = doc as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => k !== 'build' && k !== 'run' && k !== 'protocol');
  if (unknown.length > 0) return { problem: `${file}: unknown field ${unknown.join(', ')}: expected build:, run: and, for an agent over stdio, protocol:` };
  for (const key of ['build', 'run'] as const) {
    const v = fields[key];
    if (v !== undefined && (typeof v !== 'string' || v.trim() === '')) return { problem: `${file}: ${key}: expected one shell line, e.g. ${key === 'run' ? '"java -cp . mancala.Main"' : '"javac -d . src/*.java"'}` };
  }
  const protocol = fields.protocol;
  if (protocol !== undefined) {
    const versions = STDIO_PROTOCOL_VERSIONS.join(', ');
    if (typeof protocol !== 'number' || !Number.isInteger(protocol)) return { problem: `${file}: protocol: expected a version of the stdio protocol (${versions}), got ${JSON.stringify(protocol)}` };
    if (!STDIO_PROTOCOL_VERSIONS.includes(protocol)) return { problem: `${file}: protocol: this grader speaks protocol ${versions}, got ${protocol}` };
  }
  const run = fields.run as string | undefined;
  if (run === undefined) return { problem: `${file}: run: missing: expected the line that runs the program, e.g. "python3 main.py"` };
  const argv = runArgv(run.trim());
  if (argv === undefined) return { problem: `${file}: run: a quote is not closed` };
  const build = (fields.build as string | undefined)?.trim();
  return {
    ...(build !== undefined ? { build } : {}),
    run: argv,
    why: `${file}: ${protocol !== undefined ? `protocol: ${protocol}; ` : ''}${build !== undefined ? `build: ${build}; ` : ''}run: ${run.trim()}`,
    ...(protocol !== undefined ? { protocol: protocol as number } : {}),
  };
}
