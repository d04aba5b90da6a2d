import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../errors.ts';
import { loadAgentModule, loadHeuristicModule } from './load.ts';

let dir: string;

/** Writes a module file into the temp folder and returns its path. */
async function module(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** `text` as a regular expression that matches it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The UserError message the promise rejects with (fails the test on any other outcome). */
async function userError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  const message = (error as UserError).message;
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/\bat .*:\d+:\d+/); // no stack frames
  return message;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mancala-load-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadAgentModule', () => {
  it('loads a TypeScript agent and returns the module object itself', async () => {
    const path = await module(
      'first-move.ts',
      `const agent = {
        name: 'first-move',
        picks: 0,
        chooseMove(ctx: { game: { legalMoves(s: unknown): number[] }; state: unknown }) {
          this.picks++;
          return { move: ctx.game.legalMoves(ctx.state)[0]!, value: 0 };
        },
      };
      export default agent;`,
    );
    const agent = await loadAgentModule(path);
    expect(agent.name).toBe('first-move');
    const choice = await agent.chooseMove({ game: { legalMoves: () => [4, 5] }, state: null } as never);
    expect(choice).toEqual({ move: 4, value: 0 });
    expect((agent as unknown as { picks: number }).picks).toBe(1); // `this` is the module's object
  });

  it('loads a plain JavaScript module (.mjs)', async () => {
    const path = await module('js-agent.mjs', `export default { name: 'js', chooseMove: () => 0 };`);
    expect((await loadAgentModule(path)).name).toBe('js');
  });

  it("loads a folder's index file", async () => {
    const folder = join(dir, 'folder-agent');
    await mkdir(folder);
    await writeFile(join(folder, 'index.ts'), `export default { name: 'folder', chooseMove: () => 1 };`);
    expect((await loadAgentModule(folder)).name).toBe('folder');
  });

  it('names the file and the field when chooseMove is not a function', async () => {
    const path = await module('my-agent.ts', `export default { name: 'x', chooseMove: 3 };`);
    expect(await userError(loadAgentModule(path))).toBe(
      `${path}: default export field "chooseMove": expected a function (ctx) => { move, value }`,
    );
  });

  it('names the missing name field', async () => {
    const path = await module('nameless.ts', `export default { chooseMove() { return 0; } };`);
    expect(await userError(loadAgentModule(path))).toBe(`${path}: default export field "name": expected a string`);
  });

  it('says what is expected when the default export is not an object', async () => {
    const path = await module('a-function.ts', `export default function chooseMove() { return 0; }`);
    expect(await userError(loadAgentModule(path))).toBe(`${path}: default export: expected an object { name, chooseMove }`);
  });

  it('reports a module without a default export', async () => {
    const path = await module('named-only.ts', `export const agent = { name: 'x', chooseMove: () => 0 };`);
    expect(await userError(loadAgentModule(path))).toBe(`${path}: no default export: expected \`export default { name, chooseMove }\``);
  });

  it('reports a file that does not exist', async () => {
    const path = join(dir, 'missing.ts');
    expect(await userError(loadAgentModule(path))).toBe(`${path}: no such file`);
  });

  it('reports a folder without an index file', async () => {
    const folder = join(dir, 'empty-folder');
    await mkdir(folder);
    expect(await userError(loadAgentModule(folder))).toMatch(/^.*empty-folder: a folder without a module: expected one of index\.ts/);
  });

  it('reports what a module threw while loading, without the stack', async () => {
    const path = await module('throws.ts', `throw new Error('agent setup failed: weights.json missing');\nexport default {};`);
    expect(await userError(loadAgentModule(path))).toBe(`${path}: could not be loaded: agent setup failed: weights.json missing`);
  });

  // The words are the compiler's (esbuild under tsx, oxc under vitest); the line is checked.
  it('reports a syntax error with its line and the compiler\'s words', async () => {
    const path = await module('broken.ts', `export default {\n  name: 'x',\n  chooseMove() { return 0 ; ; ) },\n};`);
    expect(await userError(loadAgentModule(path))).toMatch(new RegExp(`^${escape(path)}:3: could not be loaded: Unexpected .+ \\(column \\d+\\)$`));
  });

  it('reports an import the module makes that cannot be resolved, without the require stack', async () => {
    const path = await module('bad-import.ts', `import helper from './no-such-helper.ts';\nexport default helper;`);
    const message = await userError(loadAgentModule(path));
    expect(message.startsWith(`${path}: could not be loaded: `)).toBe(true);
    expect(message).toContain('no-such-helper');
  });
});

describe('loadHeuristicModule', () => {
  it('loads a heuristic', async () => {
    const path = await module('mobility.ts', `export default { name: 'mobility', evaluate: () => 1 };`);
    const h = await loadHeuristicModule(path);
    expect(h.name).toBe('mobility');
    expect(h.evaluate(null, 0, null as never)).toBe(1);
  });

  it('names the file and the field when evaluate is missing', async () => {
    const path = await module('no-evaluate.ts', `export default { name: 'h' };`);
    expect(await userError(loadHeuristicModule(path))).toBe(
      `${path}: default export field "evaluate": expected a function (state, player, game) => number`,
    );
  });

  it('names the field inside games when it is not a list of strings', async () => {
    const path = await module('bad-games.ts', `export default { name: 'h', games: ['mancala', 3], evaluate: () => 0 };`);
    expect(await userError(loadHeuristicModule(path))).toMatch(new RegExp(`^${escape(path)}: default export field "games\\.1": `));
  });
});
