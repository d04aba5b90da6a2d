/**
 * Loads a user's agent or heuristic module (a .ts, .js or .mjs file, or a folder with an index
 * file) and checks its default export against the contract's zod schema. Whatever is wrong — no
 * such file, an import that throws, no default export, a field of the wrong shape — becomes one
 * UserError that names the file and says what was expected; never a stack trace.
 * A TypeScript file loads where a TypeScript loader is active (vitest transforms it in tests); the
 * `mancala` command runs no loader: it compiles a submission's modules with esbuild (sandbox/submissions/bundle.ts).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as z from 'zod';
import type { Agent } from '../contracts/agent.ts';
import type { Heuristic } from '../contracts/heuristic.ts';
import { agentSchema, heuristicSchema } from '../contracts/module-shapes.ts';
import { located } from '../errors.ts';

/** Files a folder may hold its module in, in the order they are looked for. */
const INDEX_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];

export function loadAgentModule(path: string): Promise<Agent> {
  return loadModule(path, agentSchema, '{ name, chooseMove }') as Promise<Agent>;
}

export function loadHeuristicModule(path: string): Promise<Heuristic> {
  return loadModule(path, heuristicSchema, '{ name, evaluate }') as Promise<Heuristic>;
}

async function loadModule(path: string, schema: z.ZodType, shape: string): Promise<unknown> {
  const file = await resolveModuleFile(path);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const { line, message } = loadFailure(error);
    throw located(path, line, `could not be loaded: ${message}`);
  }
  if (!('default' in namespace) || namespace.default === undefined) {
    throw located(path, undefined, `no default export: expected \`export default ${shape}\``);
  }
  const parsed = schema.safeParse(namespace.default);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.path.length === 0) throw located(path, undefined, `default export: expected an object ${shape}`);
    throw located(path, undefined, `default export field "${issue.path.join('.')}": ${issue.message}`);
  }
  // The module's own object, not zod's copy: methods keep their `this`, extra fields survive.
  return namespace.default;
}

/** The file to import for `path`: the file itself, or a folder's index file. */
async function resolveModuleFile(path: string): Promise<string> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined) throw located(path, undefined, 'no such file');
  if (info.isFile()) return absolute;
  if (info.isDirectory()) {
    for (const name of INDEX_FILES) {
      const candidate = join(absolute, name);
      if ((await stat(candidate).catch(() => undefined))?.isFile()) return candidate;
    }
    throw located(path, undefined, `a folder without a module: expected one of ${INDEX_FILES.join(', ')} in it`);
  }
  throw located(path, undefined, 'not a file or a folder');
}

/**
 * What an import threw, on one line. A syntax error reported by the TypeScript transform carries
 * its position in a multi-line message: esbuild (tsx, the CLI) writes
 * "<file>:<line>:<column>: ERROR: <text>", oxc (vitest) writes "[PARSE_ERROR] <text>" and then
 * "[ <file>:<line>:<column> ]" over a code frame; the line and text are picked out of either.
 * Otherwise the message's first line is kept (an unresolved import appends its require stack).
 */
function loadFailure(error: unknown): { line?: number; message: string } {
  // Compilers colour their messages for terminals; the colour codes go.
  const text = (error instanceof Error ? error.message : String(error)).replace(/\u001b\[[0-9;]*m/g, '');
  const esbuild = /:(\d+):(\d+): ERROR: (.*)$/m.exec(text);
  if (esbuild) return { line: Number(esbuild[1]), message: `${esbuild[3]!.trim()} (column ${esbuild[2]})` };
  const oxc = /\[[A-Z_]*ERROR\]\s*(.*)$/m.exec(text);
  const where = /:(\d+):(\d+)\s*\]/.exec(text);
  if (oxc && where) return { line: Number(where[1]), message: `${oxc[1]!.trim()} (column ${where[2]})` };
  const line = text.split('\n').find((l) => l.trim() !== '');
  return { message: (line ?? 'an error without a message').trim() };
}
