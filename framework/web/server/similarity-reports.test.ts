/**
 * The Reports page shows a similarity report too: `mancala similarity --json FILE` run in-process
 * on the project's own submissions (testcases/fixtures/similarity/, source only), listed in its
 * folder (a shard's part of a run is not: merge makes the report), summed up (/api/report) and
 * served as one page (/reports/view): the ranked pairs and the top pairs' fragments side by side,
 * loading nothing but its style sheets, with no inline style or script, under the report pages'
 * policy. A submission page is refused: a similarity report has one page.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../../testcases/fixtures/run-main.ts';
import { elements, find, parsePage, text } from '../../../testcases/fixtures/html-page.ts';
import { SIMILARITY_CSS } from '../../similarity/html.ts';
import type { FolderListing, ReportSummary } from '../shared/api.ts';
import { createWebApp } from './app.ts';
import { REPORT_PAGE_CSP } from './report-pages.ts';

/** The token the test's server asks for, sent with every request (a request without it is refused: access.test.ts). */
const TOKEN = 'test-token-0123456789abcdef';
const AUTH = { authorization: `token ${TOKEN}` };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const fixtures = join(ROOT, 'testcases/fixtures/similarity');
const work = mkdtempSync(join(tmpdir(), 'web-similarity-test-'));
const root = join(work, 'root');
let app: FastifyInstance;

beforeAll(async () => {
  mkdirSync(join(root, 'sim'), { recursive: true });
  const subs = ['java-alice', 'java-carol', 'java-bob'].map((s) => join(fixtures, s));
  for (const args of [['--json', join(root, 'sim/similarity.json')], ['--shard', '1/2', '--json', join(root, 'sim/shard1.json')]]) {
    const r = await runMain(['similarity', ...subs, '--no-behaviour', '--no-progress', ...args]);
    expect(r.code, r.err).toBe(0);
  }
  app = await createWebApp({ root, sandbox: 'weak', token: TOKEN, assets: new Map([['index.html', { body: Buffer.from('<!doctype html><title>t</title>'), type: 'text/html; charset=utf-8', etag: '"x"' }]]) });
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: AUTH });
const view = '/reports/view?path=sim%2Fsimilarity.json';

describe('the Reports page: a similarity report', () => {
  it('lists it, not a shard of a run, and sums it up', async () => {
    const listing = (await get('/api/files?dir=sim')).json() as FolderListing;
    expect(listing.reports.map((f) => [f.name, f.suite])).toEqual([['similarity.json', 'similarity']]);
    const summary = (await get('/api/report?path=sim/similarity.json')).json() as ReportSummary;
    expect(summary).toEqual({ file: 'sim/similarity.json', suite: 'similarity', submissions: [], view, similarity: { submissions: 3, pairs: 3 } });
  });

  it('serves its one page: the pairs ranked, the copy first, its fragments side by side, nothing inline', async () => {
    const r = await get(view);
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    expect(r.headers['content-security-policy']).toBe(REPORT_PAGE_CSP);
    const html = parsePage(r.body);
    for (const e of elements(html)) {
      expect(e.attrs.style, `${e.tag} style`).toBeUndefined();
      expect(['script', 'style', 'img', 'iframe', 'form'], e.tag).not.toContain(e.tag);
      if (e.tag === 'link') expect(['/reports/report.css', '/reports/similarity.css']).toContain(e.attrs.href);
    }
    const firstRow = find(html, 'tbody')[0]!.children.find((c) => typeof c !== 'string')!;
    expect(text(firstRow)).toContain(`${join(fixtures, 'java-alice')}${join(fixtures, 'java-bob')}100%`);
    const fragments = find(html, 'div', 'frag');
    expect(fragments.length).toBeGreaterThan(0);
    // a's side, then b's: the original's minimax beside the copy's search.
    const sides = find(fragments[0]!, 'pre').map((p) => text(p));
    expect(sides[0]).toContain('static int minimax(int[] board, int depth, boolean max)');
    expect(sides[1]).toContain('static int search(int[] state, int plies, boolean maximizing)');
    const css = await get('/reports/similarity.css');
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe(SIMILARITY_CSS);
  });

  it('refuses a submission page of it, in one line', async () => {
    const r = await get(`${view}&submission=1`);
    expect(r.statusCode).toBe(404);
    expect((r.json() as { error: string }).error).toBe('sim/similarity.json: a similarity report has one page, the pairs: no submission=1');
  });
});
