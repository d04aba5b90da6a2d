/**
 * `--html FILE` on grade, check, gauntlet and csci561-grade, through main(argv, io) as the command
 * line runs them: the page is written (with the other report files, and on a shard's run), it is
 * the page the web app renders from the run's JSON file (same bytes), `check` writes the
 * student's view, and a place that cannot be written is refused before anything runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { byId, find, parsePage, text } from '../../../testcases/fixtures/html-page.ts';
import { renderHtmlReport } from '../../grading/reporters/html.ts';
import { parseReport } from '../../grading/reporters/json.ts';
import { main } from '../main.ts';
import { runMain } from '../../../testcases/fixtures/run-main.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const basics = join(root, 'testcases/kalah-basics');
const example = (name: string): string => join(root, 'agents/examples', name);
const work = mkdtempSync(join(tmpdir(), 'html-report-cli-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = runMain;

describe('--html', () => {
  it('grade writes the page beside the JSON report; the page is the one rendered from that JSON file', async () => {
    const json = join(work, 'grade', 'report.json');
    const html = join(work, 'grade', 'pages', 'report.html');
    const r = await cli(['grade', example('alice'), example('carol'), '--suite', basics, '--json', json, '--html', html, '--no-progress', '--no-color']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`wrote ${json}, ${html}`);
    const page = readFileSync(html, 'utf8');
    expect(page).toBe(renderHtmlReport(parseReport(readFileSync(json, 'utf8'), json)));
    const doc = parsePage(page);
    expect(text(byId(doc, 'r1-s1-h')!)).toContain('alice');
    expect(text(byId(doc, 'r1-s2-h')!)).toContain('carol');
    expect(find(doc, 'article').length).toBeGreaterThan(10);
  });

  it('grade --shard writes the shard\'s page too', async () => {
    const html = join(work, 'shard', 'report.html');
    const r = await cli(['grade', example('alice'), example('bob'), '--suite', basics, '--shard', '2/2', '--html', html, '--no-progress', '--no-color']);
    expect(r.code, r.err).toBe(0);
    const doc = parsePage(readFileSync(html, 'utf8'));
    expect(text(byId(doc, 'r1-s1-h')!)).toContain('bob');
    expect(byId(doc, 'r1-s2')).toBeUndefined();
  });

  it('a place that cannot be written is refused before anything runs', async () => {
    writeFileSync(join(work, 'a-file'), 'x');
    for (const args of [
      ['grade', example('alice'), '--suite', basics],
      ['check', example('alice'), '--suite', basics],
      ['csci561-grade', join(example('csci561-reference'), 'program'), '--suite', join(root, 'testcases/csci561-public')],
      ['gauntlet', 'random'],
    ]) {
      const r = await cli([...args, '--html', join(work, 'a-file', 'report.html')]);
      expect(r.code, args[0]).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^mancala: --html [^\n]*a-file[^\n]*: [^\n]*a-file is a file, not a folder\n$/);
    }
  });

  it("check writes the student's view: its visible cases, failing ones drawn out; exit 1 all the same", async () => {
    const html = join(work, 'check', 'check.html');
    const r = await cli(['check', example('carol'), '--suite', basics, '--html', html, '--no-color']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`wrote ${html}`);
    const doc = parsePage(readFileSync(html, 'utf8'));
    expect(text(find(doc, 'title')[0]!)).toBe('Check: Kalah basics');
    expect(find(doc, 'article').some((a) => text(a).includes('free-turn-next-state'))).toBe(true);
    expect(text(doc)).not.toContain('it is for instructors');
  });

  it('gauntlet and csci561-grade write it too', async () => {
    const g = join(work, 'gauntlet.html');
    const r1 = await cli(['gauntlet', 'random', '--stones', '4', '--time-per-move', '20', '--games', '1', '--html', g, '--no-progress']);
    expect(r1.code, r1.err).toBe(0);
    const gauntlet = parsePage(readFileSync(g, 'utf8'));
    expect(text(find(gauntlet, 'title')[0]!)).toBe('Grade report: cs540 gauntlet');
    expect(text(byId(gauntlet, 'r1-s1')!)).toContain('vs-');
    const c = join(work, 'csci561.html');
    const r2 = await cli(['csci561-grade', join(example('csci561-reference'), 'program'), '--suite', join(root, 'testcases/csci561-public'), '--case', 'alphabeta-d1-1', '--html', c, '--no-progress', '--no-color']);
    expect(r2.code, r2.err).toBe(0);
    expect(existsSync(c)).toBe(true);
    expect(text(byId(parsePage(readFileSync(c, 'utf8')), 'r1-s1')!)).toContain('its one case passed');
  });
});
