/**
 * The perfect-play solver is a reference (it knows every position's true value): no process that
 * runs student code and no student kit may hold it. The sandbox runtime bundles nothing outside
 * framework/ (its build refuses an entry that imports the solver); the reference scan
 * knows the solver's names, read from its files, and finds them; the student package leaves the
 * folder out and refuses a kit whose agents import it. Each course's package is scanned with
 * these names by reference-scan.slow.test.ts, and a whole kit by testcases/kit.slow.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundle, childRuntime } from '../sandbox/runtime.ts';
import { AGENTS_DIR } from './course-kit.ts';
import { playoffNames, scanText, SOLVER_FOLDER, solverNames } from './reference-scan.ts';
import { excludedFromPackage } from './student-package.ts';

const solverFile = (name: string) => join(AGENTS_DIR, SOLVER_FOLDER, name);

describe('the perfect-play solver stays out of student code', () => {
  it("the scan knows the solver's names, read from its files, and finds them in its source", () => {
    const names = solverNames();
    expect(names).toEqual(expect.arrayContaining(['plainSolve', 'solve', 'perfectAgent']));
    expect(playoffNames()).toEqual(expect.arrayContaining(names));
    const hits = scanText('plain-solve.ts', readFileSync(solverFile('plain-solve.ts'), 'utf8'), playoffNames());
    expect(hits.filter((h) => h.kind === 'name').map((h) => h.line).length).toBeGreaterThan(0);
    // A kit file that calls the solver is flagged; the framework's registry of it is not (it holds no solver).
    expect(scanText('x.ts', "import { solve } from './perfect/index.ts';\nsolve(game, state);\n", playoffNames()).map((h) => h.line)).toEqual([1, 2]);
    expect(scanText('perfect-solver.ts', readFileSync(join(AGENTS_DIR, '../framework/plugins/perfect-solver.ts'), 'utf8'), playoffNames())).toEqual([]);
  });

  it("the sandbox runtime's build refuses an entry that imports it, and the runtime holds none of its names", async () => {
    await expect(bundle(solverFile('agent.ts'), 'cjs', 'a test runtime')).rejects.toThrow(/^a test runtime must contain nothing outside framework\/, but it bundles .*agents\/perfect\/index\.ts.*agents\/perfect\/agent\.ts/);
    const code = (await childRuntime()).code;
    for (const name of solverNames()) expect(new RegExp(`\\b${name}\\b`).test(code), name).toBe(false);
    expect(code).not.toContain(`agents/${SOLVER_FOLDER}/`);
  });

  it("a student package leaves agents/perfect/ out", () => {
    for (const f of ['agents/perfect/index.ts', 'agents/perfect/plain-solve.ts', 'agents/perfect/agent.ts']) expect(excludedFromPackage(f)).toMatch(/perfect-play solver/);
  });
});
