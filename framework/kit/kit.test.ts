/**
 * The pieces of a student kit that need no npm: what its composition root registers, which files
 * its package leaves out, how a starter's imports are rewritten, what a course's kit.json says.
 * (testcases/kit.slow.test.ts builds every kit, installs it and checks the starter with it.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentNames, heuristicNames } from '../plugins/agents.ts';
import { kitCourses, loadCourseKit } from './course-kit.ts';
import { kitStarterText } from './kit-folder.ts';
import { missingRequirement, type Requirement } from './requirements.ts';
import { compilesAgents, excludedFromPackage, kitCompositionRoot } from './student-package.ts';
import { withheldPackage } from './withheld-package.ts';
import { PREBUILT_FOLDER, PREBUILT_MANIFEST, prebuiltEsbuild, type PrebuiltManifest } from './prebuilt-esbuild.ts';
import { UserError } from '../errors.ts';

describe('student kits', () => {
  it('every course named by the issue has a kit; an unknown one is one line listing them', () => {
    expect(kitCourses()).toEqual(['cpsc4610', 'cs540', 'csc384', 'csci561', 'kalah']);
    expect(() => loadCourseKit('cs999')).toThrow('course "cs999": expected one of cpsc4610, cs540, csc384, csci561, kalah');
  });

  it("the composition root registers the course's agents and names every other one as held back", () => {
    const root = kitCompositionRoot(loadCourseKit('csci561'));
    expect(root).toContain('declareStudentKit("csci561", [{"tool":"python3"');
    expect(root).toMatch(/import given0 from "\.\.\/agents\/random\.ts";/);
    expect(root).toMatch(/"random": \{ \.\.\.\{[^}]*\}, agent: given0 \},/);
    for (const name of agentNames().filter((n) => n !== 'random')) {
      expect(root).toContain(`agent: withheldAgent(${JSON.stringify(name)})`);
      expect(root).not.toContain(`../agents/${name}.ts`);
    }
    // Given course code: basic, and seed 002's provided score; the rest is held back.
    expect(root).toContain('"basic": heuristic_basic,');
    expect(root).toContain('"cpsc4610-provided": heuristic_cpsc4610_provided,');
    for (const name of heuristicNames().filter((n) => n !== 'basic' && n !== 'cpsc4610-provided')) expect(root).toContain(`withheldHeuristic(${JSON.stringify(name)})`);
    expect(root).toContain('gradeCaseWith()');
    expect(root).not.toContain('name-the-bug');
  });

  it('the package leaves out tests, name the bug, the specification search and the instructor graders wiring', () => {
    expect(excludedFromPackage('framework/engine.test.ts')).toBe('a test');
    expect(excludedFromPackage('graders/name-the-bug/mutant-search.ts')).toMatch(/broken references/);
    expect(excludedFromPackage('framework/search/specification.ts')).toMatch(/reference/);
    expect(excludedFromPackage('graders/index.ts')).toMatch(/name the bug/);
    expect(excludedFromPackage('graders/grade-case.ts')).toBeUndefined();
    expect(excludedFromPackage('framework/contracts/agent.ts')).toBeUndefined();
  });

  it("a starter's relative framework imports become the package's", () => {
    expect(kitStarterText("import type { Agent } from '../../../framework/contracts/agent.ts';\nimport { x } from './search.ts';\n")).toBe(
      "import type { Agent } from 'mancala-autograder/framework/contracts/agent.ts';\nimport { x } from './search.ts';\n",
    );
  });

  it("the Python courses' kits: the course's own files, python3 required, the project's game files provided", () => {
    const csc384 = loadCourseKit('csc384');
    expect(csc384.requires?.map((r) => r.tool)).toEqual(['python3']);
    expect(csc384.provided).toEqual({ 'mancala_game.py': 'clients/csc384/mancala_game.py' });
    expect(Object.keys(loadCourseKit('cpsc4610').provided ?? {}).sort()).toEqual(['MancalaBoard.py', 'TicTacToe.py', 'board_watch.py']);
    expect(kitCompositionRoot(csc384)).toContain('declareStudentKit("csc384", [{"tool":"python3","install":"Python 3.8 or newer');
    // A kit without requirements (kalah) declares the course alone, as before.
    expect(kitCompositionRoot(loadCourseKit('kalah'))).toContain('declareStudentKit("kalah");');
  });

  it('only the TypeScript course compiles its students\' agents at check time (with the command\'s own sucrase: no kit installs esbuild)', () => {
    expect(kitCourses().filter((c) => compilesAgents(loadCourseKit(c)))).toEqual(['kalah']);
  });

  it("a withheld package loads quietly, as a bundle reads a CommonJS package, and any use of it is one line saying it is not in the kit", () => {
    const bullmq = withheldPackage('bullmq') as { __esModule?: unknown } & (() => unknown);
    expect(bullmq.__esModule).toBeUndefined();
    // esbuild's __toESM: a new object whose prototype is the package's, with `default` the package; a named export is read through the prototype.
    const namespace = Object.create(Object.getPrototypeOf(bullmq) as object) as Record<string, unknown>;
    expect(() => namespace.Queue).toThrow(UserError);
    expect(() => namespace.Queue).toThrow(/^bullmq: not in a student kit \(an instructor's tool/);
    expect(() => bullmq()).toThrow(UserError);
    expect(() => new (bullmq as unknown as new () => unknown)()).toThrow(/bullmq: not in a student kit/);
    expect(`${String((namespace as { then?: unknown }).then)}`).toBe('undefined');
  });

  it("a kit's stand-in for esbuild serves the builds made with the kit, and gives any other build to the real esbuild", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-prebuilt-'));
    try {
      mkdirSync(join(root, PREBUILT_FOLDER), { recursive: true });
      mkdirSync(join(root, 'framework'));
      writeFileSync(join(root, PREBUILT_FOLDER, 'runtime.cjs'), 'module.exports = 42;\n');
      writeFileSync(join(root, 'framework', 'x.ts'), 'export const x: number = 1;\n');
      const manifest: PrebuiltManifest = { version: '0.0.1-test', builds: [{ entry: 'framework/x.ts', format: 'cjs', file: 'runtime.cjs', inputs: ['framework/x.ts'] }] };
      writeFileSync(join(root, PREBUILT_FOLDER, PREBUILT_MANIFEST), JSON.stringify(manifest));
      const esbuild = prebuiltEsbuild(root);
      expect(esbuild.version).toBe('0.0.1-test');
      const made = await esbuild.build({ entryPoints: [join(root, 'framework', 'x.ts')], format: 'cjs', absWorkingDir: root, bundle: true, write: false, metafile: true });
      expect(made.outputFiles![0]!.text).toBe('module.exports = 42;\n');
      expect(Object.keys(made.metafile!.inputs)).toEqual(['framework/x.ts']);
      // Another format (or entry) is not the prebuilt one: the real esbuild compiles it (here, the project's).
      const compiled = await esbuild.build({ entryPoints: [join(root, 'framework', 'x.ts')], format: 'esm', absWorkingDir: root, bundle: true, write: false });
      expect(compiled.outputFiles![0]!.text).toContain('var x = 1;');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  describe('requirements: one line naming what to install', () => {
    const python: Requirement = { tool: 'python3', install: 'Python 3 (python.org)' };
    const jdk: Requirement = { tool: ['javac', 'java'], all: true, install: 'a JDK (adoptium.net)', when: ['*.java'] };
    const anyPython: Requirement = { tool: ['python3', 'python'], install: 'Python' };
    const has = (...tools: string[]) => (name: string) => (tools.includes(name) ? `/usr/bin/${name}` : undefined);

    it('a missing tool is named with its install line; a present one is quiet', () => {
      expect(missingRequirement([python], [], has('node'))).toBe(
        'this kit needs python3 on your PATH to run your code, and it is not there: install Python 3 (python.org), then open a new terminal',
      );
      expect(missingRequirement([python], [], has('python3'))).toBeUndefined();
    });

    it('several tools: any one will do, or every one with all (the missing ones named)', () => {
      expect(missingRequirement([anyPython], [], has('python'))).toBeUndefined();
      expect(missingRequirement([anyPython], [], has())).toMatch(/needs python3 or python on your PATH/);
      const dir = mkdtempSync(join(tmpdir(), 'kit-requires-'));
      try {
        mkdirSync(join(dir, 'agent'));
        writeFileSync(join(dir, 'agent', 'mancala.java'), 'class mancala {}');
        expect(missingRequirement([jdk], [join(dir, 'agent')], has('java'))).toMatch(/needs javac on your PATH[^]*and it is not there: install a JDK/);
        expect(missingRequirement([jdk], [join(dir, 'agent')], has())).toMatch(/needs javac and java on your PATH to run your code, and they are not there/);
        // `when`: only for a folder holding a matching file.
        expect(missingRequirement([jdk], [join(dir, 'nowhere'), dir], has())).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
