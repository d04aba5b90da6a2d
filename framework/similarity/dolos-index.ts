/**
 * Dolos's analysis (Ghent University's Dodona team) with WebAssembly parsers: the fingerprint
 * index, pairs and fragments are Dolos's own (@dodona/dolos-core); a file's tokens are made as
 * Dolos's CodeTokenizer makes them (3.5.1: each named node as `(`, its type, its children, `)`,
 * a comment left out, a node's region ending where its first child's begins), from the tree
 * web-tree-sitter parses with the grammars of tree-sitter-wasms.
 *
 * Why not @dodona/dolos-lib itself: its parsers are native addons, about 20 grammars compiled by
 * node-gyp at every `npm ci` (minutes, 435 MB, and a C++ compiler on the machine). Here nothing
 * is compiled at install; a grammar is loaded when a language is first compared.
 *
 * Dolos's defaults are kept: k-grams of 23 tokens, windows of 17, no cap on how many files a
 * fingerprint may be in.
 */
import { createRequire } from 'node:module';
import type { File, FingerprintIndex, Region, TokenizedFile } from '@dodona/dolos-core';
import type Parser from 'web-tree-sitter';
import { UserError } from '../errors.ts';

const KGRAM_LENGTH = 23;
const KGRAMS_IN_WINDOW = 17;

/** tree-sitter-wasms's grammar file for each of Dolos's language names. */
const GRAMMAR_OF: Readonly<Record<string, string>> = {
  bash: 'bash',
  c: 'c',
  'c-sharp': 'c_sharp',
  cpp: 'cpp',
  go: 'go',
  java: 'java',
  javascript: 'javascript',
  ocaml: 'ocaml',
  php: 'php',
  python: 'python',
  rust: 'rust',
  scala: 'scala',
  tsx: 'tsx',
  typescript: 'typescript',
};

/** The languages a grammar is shipped for. */
export const PARSED_LANGUAGES: readonly string[] = Object.keys(GRAMMAR_OF).sort();

type Core = typeof import('@dodona/dolos-core');

interface Loaded {
  core: Core;
  Parser: typeof Parser;
}
let loading: Promise<Loaded> | undefined;
const grammars = new Map<string, Promise<Parser.Language>>();

/** Dolos's core and web-tree-sitter, loaded once, when source similarity is first asked for. */
function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [core, { default: TreeSitter }] = await Promise.all([import('@dodona/dolos-core'), import('web-tree-sitter')]);
    await TreeSitter.init();
    return { core, Parser: TreeSitter };
  })().catch((e: unknown) => {
    loading = undefined;
    throw new UserError(`source similarity needs the packages @dodona/dolos-core and web-tree-sitter, which npm ci installs: ${(e as Error).message.split('\n')[0]}`);
  });
  return loading;
}

function grammar(TreeSitter: typeof Parser, language: string): Promise<Parser.Language> {
  const name = GRAMMAR_OF[language];
  if (name === undefined) throw new UserError(`source similarity: no parser for ${language} (these are: ${PARSED_LANGUAGES.join(', ')})`);
  let g = grammars.get(language);
  if (g === undefined) {
    const file = createRequire(import.meta.url).resolve(`tree-sitter-wasms/out/tree-sitter-${name}.wasm`);
    grammars.set(language, (g = TreeSitter.Language.load(file)));
  }
  return g;
}

/** A file's tokens and each token's region, as Dolos's CodeTokenizer makes them. */
function tokenize(core: Core, parser: Parser, file: File): TokenizedFile {
  const tree = parser.parse(file.content);
  const tokens: string[] = [];
  const mapping: Region[] = [];
  const visit = (node: Parser.SyntaxNode): [number, number] => {
    const location = new core.Region(node.startPosition.row, node.startPosition.column, node.endPosition.row, node.endPosition.column);
    const kept = !node.type.includes('comment');
    if (kept) tokens.push('(', node.type), mapping.push(location, location);
    for (const child of node.namedChildren) {
      const [row, col] = visit(child);
      // What a child holds is the child's: the node's own region ends where its first child begins.
      if (row < location.endRow || (row === location.endRow && col < location.endCol)) {
        location.endRow = row;
        location.endCol = col;
      }
    }
    if (kept) tokens.push(')'), mapping.push(location);
    return [location.startRow, location.startCol];
  };
  visit(tree.rootNode);
  tree.delete();
  return new core.TokenizedFile(file, tokens, mapping);
}

/** One language's submissions, indexed: their tokenized files, and the index to ask pairs of. */
export interface DolosIndex {
  files: TokenizedFile[];
  index: FingerprintIndex;
}

/** Files of one language with their texts, for `analyze`. */
export async function makeFile(path: string, text: string): Promise<File> {
  const { core } = await load();
  return new core.File(path, text);
}

/** Indexes `files` (two or more, of `language`), the template's fingerprints ignored. */
export async function analyze(language: string, files: readonly File[], template?: File): Promise<DolosIndex> {
  const { core, Parser: TreeSitter } = await load();
  const parser = new TreeSitter();
  parser.setLanguage(await grammar(TreeSitter, language));
  try {
    const index = new core.FingerprintIndex(KGRAM_LENGTH, KGRAMS_IN_WINDOW, false);
    const tokenized = files.map((f) => tokenize(core, parser, f));
    index.addFiles(tokenized);
    if (template !== undefined) index.addIgnoredFile(tokenize(core, parser, template));
    return { files: tokenized, index };
  } finally {
    parser.delete();
  }
}
