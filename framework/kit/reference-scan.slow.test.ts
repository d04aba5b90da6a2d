/**
 * Every course's student package, built in a temp folder as `mancala kit` builds it, depends on
 * what a check loads only and carries the framework's bundles a check runs, built with it (the
 * sandbox's runtime among them: framework/ and packages only); it holds no
 * search in any language and none of the names the grader's playoffs run (reference-scan.ts);
 * nor does the course's starter, which a kit copies (its own functions to fill in may be searches
 * by name, never the playoffs' names). testcases/kit.slow.test.ts scans the whole kit as written.
 * The scan itself finds what it looks for: the reference searches' own files, and a bridge that
 * holds a reference_alphabeta as the CSC384 and CPSC 4610 bridges did.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS_DIR, kitCourses, loadCourseKit } from './course-kit.ts';
import { playoffNames, scanKit, scanText } from './reference-scan.ts';
import type { PrebuiltManifest } from './prebuilt-esbuild.ts';
import { buildStudentPackage, compilesAgents } from './student-package.ts';
import { INSTRUCTOR_ONLY_DEPENDENCIES } from '../workers/source-bundle.ts';

const work = mkdtempSync(join(tmpdir(), 'kit-scan-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the reference scan', () => {
  it('names the reference searches and the bridges\' former search, and finds them', () => {
    expect(playoffNames()).toEqual(expect.arrayContaining(['reference_alphabeta', 'alphaBeta', 'AlphaBetaSearch', 'minimax', 'MinimaxSearch']));
    const reference = scanText('alphabeta.ts', readFileSync(join(AGENTS_DIR, 'reference/alphabeta.ts'), 'utf8'), playoffNames());
    expect(reference.filter((h) => h.kind === 'search').map((h) => h.text)).toEqual(['export class AlphaBetaSearch<S> extends SearchStack<S> {', 'export function alphaBeta<S>(params: SearchParams<S>, state: S): SearchResult {']);
    const bridge = 'import sys\n\n\ndef reference_alphabeta(board, root, heuristic, depth):\n    return None\n';
    expect(scanText('csc384_bridge.py', bridge, playoffNames()).map((h) => [h.line, h.kind])).toEqual([[4, 'search'], [4, 'name']]);
    expect(scanText('Player.java', 'class P {\n  private int alphaBeta(GameState s, int depth) {\n', playoffNames()).map((h) => h.kind)).toEqual(['search', 'name']);
    expect(scanText('bench.ts', 'function alphaBetaLine(s) {\n  const { alphaBeta } = options;\n  agent: withheldAgent("minimax")\n', playoffNames())).toEqual([]);
  });
});

describe.each(kitCourses())('the %s kit', (course) => {
  it('its framework package and its starter hold no search and no playoff name', async () => {
    const kit = loadCourseKit(course);
    const built = await buildStudentPackage(kit, join(work, course, 'vendor', 'mancala-autograder'));
    // Nothing from the registry: what the command imports by name is vendored (piscina); a TypeScript course's kit compiles the student's agent with the command's own sucrase.
    const manifest = JSON.parse(readFileSync(join(built.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({});
    expect(built.vendored.map((v) => v.replace(/@[^@]*$/, ''))).toEqual(['piscina']);
    expect(Object.keys(built.kitDependencies)).toEqual([]);
    // Instructors' tools stay out: no similarity parsers, no queue, no web server.
    const vendoredFolders = new Set(built.files.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/')[1]));
    for (const name of [...INSTRUCTOR_ONLY_DEPENDENCIES, 'bullmq', 'ioredis', 'fastify', 'zod', 'esbuild']) expect(vendoredFolders.has(name.split('/')[0]!), name).toBe(false);
    // The framework's own bundles a check runs, built with the kit: the sandbox's runtime and bootstrap (their inputs framework/ and packages only) and the pool's thread module.
    expect(built.files).toEqual(expect.arrayContaining(['dist/cli.mjs', 'dist/kit-worker.mjs', 'dist/prebuilt/builds.json', 'dist/prebuilt/sandbox-runtime.cjs', 'dist/prebuilt/sandbox-bootstrap.mjs']));
    expect(built.files.filter((f) => f.startsWith('dist/') && f.endsWith('.map'))).toEqual([]);
    // Only a TypeScript course's command holds the compiler of students' agents (sucrase, module-tree.ts); the others' has a one-line stand-in that refuses such an agent.
    const command = built.files.filter((f) => /^dist\/.*\.mjs$/.test(f)).map((f) => readFileSync(join(built.dir, f), 'utf8')).join('\n');
    expect(command.includes('Error transforming'), 'sucrase in the command').toBe(compilesAgents(kit));
    const prebuilt = JSON.parse(readFileSync(join(built.dir, 'dist/prebuilt/builds.json'), 'utf8')) as PrebuiltManifest;
    expect(prebuilt.builds.map((b) => b.entry)).toEqual(['framework/sandbox/child/main.ts', 'framework/sandbox/child/bootstrap.ts']);
    for (const b of prebuilt.builds) expect(b.inputs.filter((i) => !/^(framework|node_modules)\//.test(i))).toEqual([]);
    // The perfect-play solver is a reference too (perfect-solver-trust.test.ts): not one of its files.
    expect(built.files.filter((f) => /(^|\/)agents\/perfect\//.test(f))).toEqual([]);
    const hits = [...scanKit(join(work, course)), ...scanKit(kit.starter, ['']).map((h) => ({ ...h, file: `${relative(join(AGENTS_DIR, '..'), kit.starter)}/${h.file}` }))];
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.kind}: ${h.text}`)).toEqual([]);
  }, 120_000);
});
