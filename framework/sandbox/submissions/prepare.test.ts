/**
 * prepareSubmission: the private copy (symlinks, skipped folders), finding each role's module,
 * and bundling with imports confined to the submission, framework/ and installed packages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../errors.ts';
import type { RoleSpec } from '../../suites/types.ts';
import { buildCacheFolder } from '../../build-cache.ts';
import { prepareSubmission, type PreparedSubmission } from './prepare.ts';
import { childRuntime } from '../runtime.ts';

const ZOO = join(dirname(fileURLToPath(import.meta.url)), '../../../testcases/fixtures/hostile-agents');
const AGENT: RoleSpec = { kind: 'agent', files: ['agent.ts', 'agent.js'], reference: 'alphabeta' };
const HEURISTIC: RoleSpec = { kind: 'heuristic', files: ['heuristic.ts', 'src/heuristic.ts'], reference: 'basic' };

const scratch: string[] = [];
function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'prepare-test-'));
  scratch.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const prepared: PreparedSubmission[] = [];
async function prepare(path: string, roles: Record<string, RoleSpec>): Promise<PreparedSubmission> {
  const sub = await prepareSubmission(path, roles);
  prepared.push(sub);
  return sub;
}

function missing(sub: PreparedSubmission, role: string): string {
  const r = sub.roles[role]!;
  expect(r, JSON.stringify(r)).toHaveProperty('missing');
  return (r as { missing: string }).missing;
}

function copied(sub: PreparedSubmission): string[] {
  return (readdirSync(join(sub.dir, 'submission'), { recursive: true }) as string[]).map(String).sort();
}

afterAll(async () => {
  for (const sub of prepared) await sub.dispose();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the private copy', () => {
  it('copies files, skips node_modules and .git, and refuses every link (inside or not, dangling or looping) with a note naming no target', async () => {
    const outside = folderWith({ 'expected.json': '{"move":3}' });
    const dir = folderWith({
      'agent.js': 'import { helper } from "./lib/helper.js"; export default { name: "a", chooseMove: () => helper() };',
      'lib/helper.js': 'export const helper = () => 0;',
      'node_modules/pkg/index.js': 'export default 1;',
      '.git/config': '[core]',
    });
    // A link to a file inside the submission was once copied as its target; now it is refused
    // like any other: what a link points at is never looked at, so no note can tell a student
    // whether a guessed path exists, and no tree of folder links can multiply.
    symlinkSync(join(dir, 'lib', 'helper.js'), join(dir, 'same-helper.js'));
    symlinkSync(join(outside, 'expected.json'), join(dir, 'answers.json'));
    symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'dangling.txt'));
    symlinkSync('..', join(dir, 'lib', 'up'));
    const sub = await prepare(dir, { agent: AGENT });

    expect(copied(sub)).toEqual(['agent.js', 'lib', 'lib/helper.js']);
    expect(sub.notes).toEqual([
      'answers.json: a symbolic link (refused)',
      'dangling.txt: a symbolic link (refused)',
      'lib/up: a symbolic link (refused)',
      'same-helper.js: a symbolic link (refused)',
    ]);
    for (const note of sub.notes) expect(note).not.toContain(outside);
    expect(sub.id).toBe(dir.split('/').pop());
    expect(sub.roles.agent).toEqual({ file: expect.stringMatching(/\.mjs$/), source: join(dir, 'agent.js'), kind: 'agent' });
  });

  it('a single agent file that is a FIFO is refused in one line, without waiting on it', async () => {
    const dir = folderWith({});
    execFileSync('mkfifo', [join(dir, 'agent.js')]);
    await expect(prepareSubmission(join(dir, 'agent.js'), { agent: AGENT })).rejects.toThrow(/agent\.js: not a folder or a file$/);
  });

  it('dispose() removes the private folder', async () => {
    const sub = await prepareSubmission(folderWith({ 'agent.js': 'export default { name: "a", chooseMove: () => 0 };' }), { agent: AGENT });
    expect(existsSync(sub.dir)).toBe(true);
    await sub.dispose();
    expect(existsSync(sub.dir)).toBe(false);
  });

  it('a path that does not exist is the user\'s mistake', async () => {
    await expect(prepareSubmission('/no/such/submission', { agent: AGENT })).rejects.toThrow(UserError);
    await expect(prepareSubmission('/no/such/submission', { agent: AGENT })).rejects.toThrow('/no/such/submission: no such submission');
  });
});

describe('finding role modules', () => {
  it('takes the first pattern that matches, in pattern order', async () => {
    const dir = folderWith({ 'src/heuristic.ts': 'export default { name: "h", evaluate: () => 1 };', 'heuristic.ts': 'export default { name: "top", evaluate: () => 2 };' });
    const sub = await prepare(dir, { heuristic: { ...HEURISTIC, files: ['src/heuristic.ts', 'heuristic.ts'] }, agent: AGENT });
    expect(sub.roles.heuristic).toMatchObject({ source: join(dir, 'src/heuristic.ts') });
    expect(missing(sub, 'agent')).toBe('no module found for role agent (looked for agent.ts, agent.js)');
  });

  it('a pattern that leaves the submission finds nothing', async () => {
    const sub = await prepare(folderWith({ 'agent.js': '' }), { agent: { ...AGENT, files: ['../*/agent.js'] } });
    expect(missing(sub, 'agent')).toMatch(/pattern "\.\.\/\*\/agent\.js" reaches outside the submission/);
  });

  it('a single agent file fills every agent role, and its folder is not copied', async () => {
    const dir = folderWith({ 'alice.js': 'export default { name: "alice", chooseMove: () => 0 };', 'secret.txt': 'not for the sandbox' });
    const sub = await prepare(join(dir, 'alice.js'), { agent: AGENT, opponent: { ...AGENT, files: ['x.js'] }, heuristic: HEURISTIC });
    expect(sub.id).toBe('alice.js');
    expect(sub.roles.agent).toMatchObject({ source: join(dir, 'alice.js') });
    expect(sub.roles.opponent).toMatchObject({ source: join(dir, 'alice.js') });
    expect(missing(sub, 'heuristic')).toMatch(/role heuristic needs a heuristic module, but the submission is a single agent file \(alice\.js\)/);
    expect(copied(sub)).toEqual(['alice.js']);
  });
});

describe('bundling', () => {
  it('a TypeScript submission may import framework/ (read from its original place) and its own helpers', async () => {
    const sub = await prepare(join(ZOO, 'normal'), { agent: AGENT });
    const bundle = readFileSync((sub.roles.agent as { file: string }).file, 'utf8');
    expect(bundle).toContain('function minimax');
    expect(bundle).not.toMatch(/^import .* from ["']\.\.?\//m);
  });

  it('installed packages are bundled; Node builtins stay imports', async () => {
    const sub = await prepare(
      folderWith({ 'agent.js': 'import { z } from "zod"; import { readFileSync } from "node:fs"; void readFileSync; export default { name: z.string().parse("a"), chooseMove: () => 0 };' }),
      { agent: AGENT },
    );
    const bundle = readFileSync((sub.roles.agent as { file: string }).file, 'utf8');
    expect(bundle).toMatch(/from "node:fs"/);
    expect(bundle).not.toMatch(/from "zod"/);
  });

  it('refuses the reference agents, naming the file and line of the import', async () => {
    const sub = await prepare(join(ZOO, 'imports-reference'), { agent: AGENT });
    expect(missing(sub, 'agent')).toMatch(/^role agent: agent\.ts could not be bundled: agent\.ts:2:\d+: import "\.\.\/\.\.\/\.\.\/\.\.\/agents\/alphabeta\.ts" reaches outside the submission/);
  });

  it('refuses relative imports out of the submission and absolute imports', async () => {
    const outside = folderWith({ 'answers.js': 'export default 4;' });
    const relative = await prepare(folderWith({ 'agent.js': `\nimport a from "../${outside.split('/').pop()}/answers.js";\nexport default { name: "x", chooseMove: () => a };` }), { agent: AGENT });
    expect(missing(relative, 'agent')).toMatch(/agent\.js:2:\d+: import ".*answers\.js" reaches outside the submission/);
    const absolute = await prepare(folderWith({ 'agent.js': `import a from "${join(outside, 'answers.js')}";\nexport default { name: "x", chooseMove: () => a };` }), { agent: AGENT });
    expect(missing(absolute, 'agent')).toMatch(/agent\.js:1:\d+: import ".*answers\.js" reaches outside the submission/);
  });

  it('a syntax error makes the role missing, with file and line', async () => {
    const sub = await prepare(join(ZOO, 'syntax-error'), { agent: AGENT });
    expect(missing(sub, 'agent')).toMatch(/^role agent: agent\.js could not be bundled: agent\.js:4:\d+: Unexpected/);
  });

  it('the child runtime holds no reference search', async () => {
    const runtime = (await childRuntime()).code;
    expect(runtime).toContain('framework/heuristics/basic.ts');
    expect(runtime).not.toContain('agents/');
  });
});

describe('bundles kept by content', () => {
  /** The kept bundle records (build-cache.ts's folder) whose bundle holds `marker`. */
  function recordsWith(marker: string): string[] {
    const dir = buildCacheFolder();
    return readdirSync(dir)
      .filter((f) => f.startsWith('submission-bundle-') && readFileSync(join(dir, f), 'utf8').includes(marker))
      .map((f) => join(dir, f));
  }

  it('preparing the same files again reuses the bundle; a changed file, even one it imports, is compiled again', async () => {
    const marker = `kept-${process.pid}-${Date.now()}`;
    const dir = folderWith({
      'agent.ts': `import { pick } from "./lib/pick.ts"; export default { name: "${marker}", chooseMove: (ctx: { legalMoves: number[] }) => pick(ctx.legalMoves) };`,
      'lib/pick.ts': 'export const pick = (moves: number[]): number => moves[0]!;',
    });
    const first = await prepare(dir, { agent: AGENT });
    const bundled = readFileSync((first.roles.agent as { file: string }).file, 'utf8');
    const [record] = recordsWith(marker);
    expect(record).toBeDefined();

    // Mark the kept bundle: a second preparation of the same files hands out the kept one.
    const kept = JSON.parse(readFileSync(record!, 'utf8')) as { bundle: string };
    writeFileSync(record!, JSON.stringify({ ...kept, bundle: `${kept.bundle}\n// reused ${marker}\n` }));
    const second = await prepare(dir, { agent: AGENT });
    expect(readFileSync((second.roles.agent as { file: string }).file, 'utf8')).toBe(`${bundled}\n// reused ${marker}\n`);

    // An imported file changes: compiled again, with the change.
    writeFileSync(join(dir, 'lib/pick.ts'), 'export const pick = (moves: number[]): number => moves[moves.length - 1]!;');
    const third = await prepare(dir, { agent: AGENT });
    const rebuilt = readFileSync((third.roles.agent as { file: string }).file, 'utf8');
    expect(rebuilt).not.toContain(`// reused ${marker}`);
    expect(rebuilt).toContain('moves.length - 1');
  });
});

describe("a student kit's imports", () => {
  it('mancala-autograder/framework/… names the project\'s framework/, wherever the submission is graded', async () => {
    const dir = folderWith({
      'agent.ts':
        'import type { Agent } from "mancala-autograder/framework/contracts/agent.ts";\nimport { createRandom } from "mancala-autograder/framework/random.ts";\n' +
        'const agent: Agent = { name: "kit-form", chooseMove: (ctx) => ctx.game.legalMoves(ctx.state)[Math.floor(createRandom(1)() * 0)]! };\nexport default agent;\n',
    });
    const sub = await prepare(dir, { agent: AGENT });
    const role = sub.roles.agent as { file: string };
    expect(role, JSON.stringify(sub.roles.agent)).toHaveProperty('file');
    expect(readFileSync(role.file, 'utf8')).toContain('framework/random.ts');
  });
});
