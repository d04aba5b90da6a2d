/**
 * What source similarity compares: a submission folder's source files in one language (the
 * language most of its lines are in: a CSCI-561 mancala.java, a CSC384 agent_*.py with utils.py,
 * a TypeScript agent's modules), and the template whose code every student was given and so is
 * not counted (the course's starter folder and the files its kit provides, or --ignore DIR).
 *
 * A submission's files are compared as one text (Dolos compares files; a student may split an
 * agent over files as another does not), with a map back to each file and line. A folder with no
 * file of a language Dolos parses is listed with what it holds; a language Dolos does not parse
 * (a mancala.rb run by a `command` file) is named.
 */
import { existsSync, lstatSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { UserError } from '../errors.ts';
import { readSubmissionText, unreadableSubmission } from '../files/submission-entries.ts';
import { AGENTS_DIR, kitCourses, loadCourseKit } from '../kit/course-kit.ts';
import { listSubmissionFiles } from '../sandbox/programs/build-files.ts';

/** Dolos's languages for the extensions a course's submission uses (Dolos names them so: --language takes these). */
const LANGUAGE_OF_EXTENSION: Readonly<Record<string, string>> = {
  '.java': 'java',
  '.py': 'python',
  '.py3': 'python',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.c++': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.hxx': 'cpp',
  '.c': 'c',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.cs': 'c-sharp',
  '.go': 'go',
  '.rs': 'rust',
  '.scala': 'scala',
  '.php': 'php',
  '.ml': 'ocaml',
  '.sh': 'bash',
  '.bash': 'bash',
};

/** The languages --language accepts: those Dolos parses with tree-sitter. */
export const SOURCE_LANGUAGES: readonly string[] = [...new Set(Object.values(LANGUAGE_OF_EXTENSION))].sort();

/** Languages a student may write a program in that Dolos does not parse: named, not compared. */
const UNPARSED: Readonly<Record<string, string>> = {
  '.rb': 'Ruby',
  '.kt': 'Kotlin',
  '.swift': 'Swift',
  '.hs': 'Haskell',
  '.lua': 'Lua',
  '.pl': 'Perl',
  '.jl': 'Julia',
  '.dart': 'Dart',
  '.ex': 'Elixir',
  '.exs': 'Elixir',
  '.clj': 'Clojure',
  '.fs': 'F#',
  '.f90': 'Fortran',
  '.pas': 'Pascal',
  '.nim': 'Nim',
  '.zig': 'Zig',
  '.m': 'Objective-C or MATLAB',
  '.lisp': 'Lisp',
  '.scm': 'Scheme',
  // Dolos parses these natively, but tree-sitter-wasms ships no grammar for R or Groovy, and its Elm one fails to load.
  '.r': 'R',
  '.elm': 'Elm',
  '.groovy': 'Groovy',
};

/** C headers go with the folder's C or C++. */
const HEADER = '.h';
/** Folders not looked into: dependencies and build output, not what the student wrote. */
const SKIPPED_DIRS = new Set(['node_modules', '__pycache__', 'build', 'dist', 'out', 'target', 'bin', 'obj']);
const MAX_FILES = 200;
/** Larger files are generated or data, not a student's code. */
const MAX_FILE_BYTES = 512 * 1024;

/** One file of a compared text: where its lines start in the text (0-based row). */
export interface TextPart {
  file: string;
  firstRow: number;
  lines: number;
}

/** Files in one language as one text, and the way back from a row to its file and line. */
export interface SourceText {
  language: string;
  /** the files' paths relative to their folder, in order */
  files: string[];
  text: string;
  parts: TextPart[];
}

export interface SubmissionSource {
  /** the folder, as given */
  path: string;
  /** undefined: nothing to compare (see note) */
  source?: SourceText;
  /** why the folder is not compared, or what of it is left out */
  note?: string;
}

/** The folder's files as grading lists them (program-build-files.ts: no link followed), less dependencies, build output and large files. */
function walk(dir: string): string[] {
  return listSubmissionFiles(dir)
    .map((f) => f.path)
    .filter((path) => !path.split('/').slice(0, -1).some((folder) => SKIPPED_DIRS.has(folder)) && (lstatSync(join(dir, path), { throwIfNoEntry: false })?.size ?? Infinity) <= MAX_FILE_BYTES)
    .slice(0, MAX_FILES);
}

/** A listed file's text, read with no link followed and capped (a file replaced since it was listed reads as empty). */
function fileText(dir: string, file: string): string {
  const read = readSubmissionText(dir, file, MAX_FILE_BYTES);
  return read.ok ? read.text : '';
}

const extensionOf = (file: string) => extname(file).toLowerCase();
const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The files of `language` among `files` (C/C++ headers with C or C++). */
function filesIn(files: readonly string[], language: string): string[] {
  return files.filter((f) => LANGUAGE_OF_EXTENSION[extensionOf(f)] === language || (extensionOf(f) === HEADER && (language === 'c' || language === 'cpp')));
}

/** `files` of `dir` as one text. */
export function sourceText(dir: string, files: readonly string[], language: string): SourceText {
  let text = '';
  let row = 0;
  const parts: TextPart[] = [];
  for (const file of files) {
    let content = fileText(dir, file).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    if (content !== '' && !content.endsWith('\n')) content += '\n';
    const lines = lineCount(content);
    parts.push({ file, firstRow: row, lines });
    text += content;
    row += lines;
  }
  return { language, files: [...files], text, parts };
}

/** The language most of `files`' lines are in, as Dolos names it; undefined: none it parses. */
function mainLanguage(dir: string, files: readonly string[]): string | undefined {
  const lines = new Map<string, number>();
  for (const f of files) {
    const language = LANGUAGE_OF_EXTENSION[extensionOf(f)];
    if (language === undefined) continue;
    lines.set(language, (lines.get(language) ?? 0) + lineCount(fileText(dir, f)) + 1);
  }
  // The most lines; ties go to the language named first in alphabetical order, so the choice never depends on the file system.
  return [...lines].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

/** What `folder` holds for source similarity: its files in its main language (or `language`), or why nothing. */
export function readSubmissionSource(folder: string, language: string | undefined): SubmissionSource {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return { path: folder, note: 'not a folder: expected a submission folder' };
  let files: string[];
  try {
    files = walk(folder);
  } catch (e) {
    // One folder that cannot be read is left out of the comparison, not the class's run.
    const why = unreadableSubmission(e);
    if (why === undefined) throw e;
    return { path: folder, note: `${why}; not compared` };
  }
  const chosen = language ?? mainLanguage(folder, files);
  if (chosen === undefined) {
    const unparsed = [...new Set(files.map((f) => UNPARSED[extensionOf(f)]).filter((l) => l !== undefined))];
    if (unparsed.length > 0) {
      const which = files.filter((f) => UNPARSED[extensionOf(f)] !== undefined).slice(0, 3);
      return { path: folder, note: `${unparsed.join(', ')} (${which.join(', ')}): a language Dolos does not parse; not compared` };
    }
    const shown = files.slice(0, 4).map((f) => basename(f));
    const holds = files.length === 0 ? 'the folder is empty' : `found only ${shown.join(', ')}${files.length > 4 ? ` and ${files.length - 4} more` : ''}`;
    return { path: folder, note: `no source file of a language Dolos parses (${holds}); not compared` };
  }
  const mine = filesIn(files, chosen);
  if (mine.length === 0) return { path: folder, note: `no ${chosen} file (--language ${chosen}); not compared` };
  const source = sourceText(folder, mine, chosen);
  const others = files.filter((f) => LANGUAGE_OF_EXTENSION[extensionOf(f)] !== undefined && !mine.includes(f));
  return others.length === 0 ? { path: folder, source } : { path: folder, source, note: `compared its ${chosen} only; left out ${others.slice(0, 3).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}` };
}

/** The folders whose files make the template: given, the course's starter folder and provided files, or none. */
export interface TemplateSource {
  /** for reports: where the template came from */
  describe: string;
  /** absolute or given paths of the files (a folder's files recursively) */
  files: { dir: string; file: string }[];
}

/** The template: --ignore DIR, else the kit of `course` (its starter folder and the course files its kit provides), else nothing. */
export function templateSource(ignore: string | undefined, course: string): TemplateSource {
  if (ignore !== undefined) {
    if (!existsSync(ignore) || !statSync(ignore).isDirectory()) throw new UserError(`--ignore ${ignore}: expected a folder of the code every student was given (a starter)`);
    return { describe: ignore, files: walk(ignore).map((file) => ({ dir: ignore, file })) };
  }
  if (!kitCourses().includes(course)) return { describe: `none (no starter for ${course}; --ignore DIR names one)`, files: [] };
  const kit = loadCourseKit(course);
  const provided = Object.values(kit.provided ?? {}).map((p) => ({ dir: AGENTS_DIR, file: p }));
  const shown = relative(process.cwd(), kit.starter) || '.';
  return { describe: `the ${course} starter (${shown}${provided.length > 0 ? ` and the ${provided.length} files its kit provides` : ''})`, files: [...walk(kit.starter).map((file) => ({ dir: kit.starter, file })), ...provided] };
}

/** The template's files of `language`, as one text; undefined when it has none. */
export function templateText(template: TemplateSource, language: string): string | undefined {
  const parts = template.files.filter((f) => filesIn([f.file], language).length > 0);
  if (parts.length === 0) return undefined;
  return parts.map((p) => sourceText(p.dir, [p.file], language).text).join('');
}

/** --language: one Dolos parses. */
export function checkLanguage(language: string): string {
  const l = language.toLowerCase();
  if (!SOURCE_LANGUAGES.includes(l)) throw new UserError(`--language ${language}: expected one of ${SOURCE_LANGUAGES.join(', ')}`);
  return l;
}
