/**
 * No process that runs a TypeScript heuristic holds a reference search: since a heuristic's
 * playoff runs the reference alpha-beta in the grader (framework/grading/grader-search-player.ts)
 * and asks the submission's sandboxed process only for values, a heuristic that hunts for the
 * search in its own process (testcases/fixtures/hostile-agents/reference-hunt/typescript/heuristic.ts:
 * globalThis, the module cache, import.meta and process.mainModule, the source of every function
 * reachable from its arguments, `this`, its caller and its stack frames, stack traces, files on disk
 * (around it, and agents/alphabeta.ts, agents/reference/alphabeta.ts and dist/cli.mjs by their real
 * paths), /proc/self's cmdline, environ, maps and open files, and a heap snapshot) finds nothing.
 * The TypeScript counterpart of reference-hunt.slow.test.ts. Real node, the real sandbox.
 *
 *  - The hunt works: outside the sandbox, run by a script that holds the reference alpha-beta
 *    (the search calls the heuristic, as the player runtime once did), each channel alone finds it.
 *  - In the sandbox, asked for values by the grader's search, the hunter looks through every
 *    channel (the heap snapshot is refused) and finds nothing: its stdout says so, its values are
 *    its honest twin's, and the grader's search makes the same moves with it.
 *  - Graded on kalah-basics' heuristic cases (its playoff included), a hunter scores what its
 *    honest twin scores, and no report holds a word of what a hunt finds or a line of the search.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceLines } from './fixtures/hostile-agents/reference-hunt/reference-lines.ts';
import type { Player } from '../framework/contracts/game.ts';
import { stateToBoard } from '../framework/games/mancala/board-io/board.ts';
import type { MancalaGame, MancalaState } from '../framework/games/mancala/engine.ts';
import { GraderSearchPlayer } from '../framework/grading/grader-search-player.ts';
import { gradeSubmissions } from '../framework/grading/runner.ts';
import { createRandom } from '../framework/random.ts';
import { SandboxSession } from '../framework/sandbox/session.ts';
import { prepareSubmission, type PreparedSubmission } from '../framework/sandbox/submissions/prepare.ts';
import { createGame } from '../framework/suites/game.ts';
import { loadSuite } from '../framework/suites/load.ts';
import type { Suite } from '../framework/suites/types.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HUNTER = join(ROOT, 'testcases/fixtures/hostile-agents/reference-hunt/typescript/heuristic.ts');
const CHANNELS = ['globals', 'modules', 'functions', 'stack', 'disk', 'proc', 'heap'] as const;
/** What the hunter looks for (its MARKERS): the reference alpha-beta's class and a line of its code. */
const MARKERS = ['AlphaBetaSearch', 'hit.bound === EXACT'];
/** Where the grader's copies of the search are: the hunter is told, so only the sandbox keeps it out. */
const REFERENCE_FILES = ['agents/alphabeta.ts', 'agents/reference/alphabeta.ts', 'dist/cli.mjs'].map((f) => join(ROOT, f));
const work = mkdtempSync(join(tmpdir(), 'reference-hunt-ts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A hunting submission trying `channels` (none: its honest twin), told where the reference files are. */
function hunter(name: string, channels: readonly string[] | 'all'): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  cpSync(HUNTER, join(dir, 'heuristic.ts'));
  if (channels !== 'all') writeFileSync(join(dir, 'hunt_channels.txt'), `${channels.join('\n')}\n`);
  writeFileSync(join(dir, 'hunt_paths.txt'), `${REFERENCE_FILES.join('\n')}\n`);
  return dir;
}

/** What a hunt would leave in a text: its own words, a marker, or a line of the search. */
function leaks(text: string): string[] {
  return [...['HUNT-FOUND', ...MARKERS].filter((w) => text.includes(w)), ...referenceLines().filter((l) => text.includes(l))];
}

describe('the hunt, outside the sandbox, run by a script that holds the reference alpha-beta', () => {
  let host = '';
  let hunterModule = '';

  it('the markers are the search: in its source and in the host that holds it', async () => {
    const source = readFileSync(join(ROOT, 'agents/reference/alphabeta.ts'), 'utf8');
    for (const marker of MARKERS) expect(source).toContain(marker);
    // The host: the reference alpha-beta, run as a search, calling the hunter (`this`: the search's
    // module, as a runtime holding it could leave it in reach), the search on globalThis and in its exports.
    const entry = join(work, 'host', 'host-entry.ts');
    mkdirSync(dirname(entry), { recursive: true });
    const from = (f: string) => JSON.stringify(join(ROOT, f));
    writeFileSync(
      entry,
      [
        `import alphabeta from ${from('agents/alphabeta.ts')};`,
        `import * as reference from ${from('agents/reference/alphabeta.ts')};`,
        `import { runAgent } from ${from('framework/search/run-agent.ts')};`,
        `import { MancalaGame } from ${from('framework/games/mancala/engine.ts')};`,
        `import { PROFILES } from ${from('framework/games/mancala/profiles.ts')};`,
        `import { createRandom } from ${from('framework/random.ts')};`,
        '(globalThis as Record<string, unknown>).referenceSearch = reference;',
        'export { reference };',
        'export async function main(url: string): Promise<number> {',
        '  const hunter = (await import(url)).default;',
        "  const game = new MancalaGame(PROFILES['kalah']!.rules, 'kalah(6,4)');",
        "  const heuristic = { name: 'hunter', evaluate: (s: never, p: 0 | 1, g: never) => hunter.evaluate.call(reference, s, p, g) };",
        '  const outcome = await runAgent(alphabeta, { game, state: game.initial(), heuristic, options: { depth: 2 }, random: createRandom(1) });',
        '  return outcome.choice.move;',
        '}',
        'void main(process.argv[2]!).then((move) => console.log(`move ${move}`));',
        '',
      ].join('\n'),
    );
    host = join(work, 'host', 'host.cjs');
    await build({ entryPoints: [entry], outfile: host, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent' });
    hunterModule = join(work, 'host', 'hunter', 'heuristic.mjs');
    await build({ entryPoints: [HUNTER], outfile: hunterModule, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    const hostText = readFileSync(host, 'utf8');
    for (const marker of MARKERS) expect(hostText).toContain(marker);
    // The hunter's own text holds no marker (it builds them at run time).
    expect(leaks(readFileSync(hunterModule, 'utf8')).filter((w) => w !== 'HUNT-FOUND')).toEqual([]);
  });

  it.each(CHANNELS)('finds it by %s alone', (channel) => {
    const dir = hunter(`host-${channel}`, [channel]);
    const r = spawnSync(process.execPath, [host, pathToFileURL(hunterModule).href], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`HUNT looked: ${channel}=[1-9]\\d*; refused: ${channel}=\\d+; found: [1-9]`));
    expect(r.stdout).toContain(`HUNT-FOUND ${channel}: `);
  }, 180_000);
});

describe('a TypeScript heuristic hunting in the sandbox, asked for values by the grader\'s search', () => {
  it('looks everywhere, finds nothing, and answers as its honest twin', async () => {
    const suite = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const roles = { heuristic: suite.manifest.roles['heuristic']! };
    const game = createGame(suite.manifest.game) as MancalaGame;
    const opened: { prepared: PreparedSubmission; session: SandboxSession }[] = [];
    try {
      const [hunting, honest] = await Promise.all(
        [hunter('sandboxed', 'all'), hunter('sandboxed-honest', [])].map(async (path) => {
          const prepared = await prepareSubmission(path, roles);
          const session = await SandboxSession.open(prepared, { memoryMb: 512 }, { game: suite.manifest.game, sandbox: 'full' });
          opened.push({ prepared, session });
          return session;
        }),
      );
      const random = createRandom(4);
      const states: MancalaState[] = [];
      for (let k = 0; k < 6; k++) {
        let state = game.initial();
        for (let i = 0; i < 3 + 4 * k && !game.isOver(state); i++) state = game.play(state, game.legalMoves(state)[Math.floor(random() * game.legalMoves(state).length)]!);
        if (!game.isOver(state)) states.push(state);
      }
      const options = { depth: 4, unit: 'move' as const, terminal: 'score' as const, caching: false, heuristic: 'role:heuristic', seed: 1 };
      for (const state of states) {
        const [a, b] = await Promise.all([hunting!, honest!].map((s) => new GraderSearchPlayer(s, suite.manifest.game).chooseMove(stateToBoard(game, state), game.toMove(state) as Player, options, 60_000)));
        expect(a, JSON.stringify(a)).toMatchObject({ status: 'ok' });
        expect(a).toEqual({ ...b, ms: a!.ms, observation: { ...(b as { observation: object }).observation, ms: a!.ms } });
      }
      const values = await hunting!.evaluateMany('heuristic', suite.manifest.game, 0, states, 10_000);
      expect(values).toMatchObject({ status: 'ok', values: states.map((s) => game.store(s, 0) - game.store(s, 1)) });
      const stdout = hunting!.output().stdout;
      const line = /HUNT looked: (.*); refused: (.*); found: (\d+)/.exec(stdout);
      expect(line, stdout).not.toBeNull();
      expect(line![3]).toBe('0');
      // Every channel looked at something, but the heap snapshot, which the sandbox refuses.
      const looked = Object.fromEntries(line![1]!.split(' ').map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]));
      for (const channel of CHANNELS) expect(looked[channel], channel).toBeGreaterThan(channel === 'heap' ? -1 : 0);
      expect(line![2]).toMatch(/heap=1/);
      expect(leaks(JSON.stringify(hunting!.output()))).toEqual([]);
      expect(honest!.output().stdout).not.toContain('HUNT');
    } finally {
      for (const { prepared, session } of opened) {
        await session.close();
        await prepared.dispose();
      }
    }
  }, 300_000);
});

describe('a TypeScript heuristic hunting for the reference, graded on kalah-basics', () => {
  it('scores what its honest twin scores, its playoff played, and no report shows what it looked for', async () => {
    const full = await loadSuite(join(ROOT, 'testcases/kalah-basics'));
    const suite: Suite = { ...full, cases: full.cases.filter((c) => full.manifest.roles[c.role]!.kind === 'heuristic') };
    expect(suite.cases.some((c) => c.checks.playoff !== undefined)).toBe(true);
    const hunting = hunter('graded', 'all');
    const honest = hunter('graded-honest', []);
    const report = await gradeSubmissions({ suite, submissions: [hunting, honest], visibility: 'all', jobs: 2 });
    const [got, twin] = [hunting, honest].map((p) => report.submissions.find((s) => s.path === p)!);
    const statuses = (s: typeof got) => s!.cases.map((c) => `${c.id}: ${c.status}`);
    expect(statuses(got)).toEqual(statuses(twin));
    expect(got!.score).toBe(twin!.score);
    expect(got!.cases.find((c) => /playoff/.test(c.id))?.status).toBe('passed');
    expect(leaks(JSON.stringify(report))).toEqual([]);
  }, 600_000);
});
