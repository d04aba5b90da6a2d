/**
 * The Reports page's server side (report-files.ts reads the files, under the server's root only;
 * report-pages.ts renders them):
 *
 *   GET /api/report?path=P                      → ReportSummary: the report checked, in brief
 *   GET /reports/view?path=P[&submission=N|all] → the class page, submission N's (from 1), or
 *                                                 every submission's: HTML documents
 *                                                 (a similarity report: its one page, the pairs)
 *   GET /reports/report.css, /reports/report.js, /reports/similarity.css → what those documents load
 *
 * The documents are pages of their own, outside /api/, each with its own Content-Security-Policy
 * (app.ts leaves a policy a route set alone). Their refusals are the API's: a 4xx with one line of
 * JSON (the page checks a file through /api/report first and shows that line; a document asked
 * for by hand shows it as the browser shows JSON). A malformed file is a 422 naming the file and
 * the line or field.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import type { ReportSummary } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';
import { checked, HttpError } from '../http-error.ts';
import { ReportFiles } from '../report-files.ts';
import { REPORT_ASSETS, REPORT_PAGE_CSP, reportPageHtml, reportPageUrl, type ReportPageKind } from '../report-pages.ts';
import { similarityPageHtml } from '../../../similarity/html.ts';

const path = z
  .string({ error: "expected a grade report's path under the server's folder" })
  .min(1, { error: "expected a grade report's path under the server's folder" })
  .max(4096, { error: 'expected a path of at most 4096 characters' });
const summaryQuery = z.strictObject({ path }, { error: 'expected ?path=FILE' });
const viewQuery = z.strictObject(
  { path, submission: z.string().regex(/^([1-9]\d{0,8}|all)$/, { error: 'expected a submission number ≥ 1, or all' }).optional() },
  { error: 'expected ?path=FILE[&submission=N]' },
);

export const reportsApi: ApiModule = (app, ctx) => {
  const files = new ReportFiles(ctx.root);

  app.get('/api/report', async (req): Promise<ReportSummary> => {
    const opened = files.openAny(checked(summaryQuery, req.query, 'query').path);
    if ('similarity' in opened) {
      const r = opened.similarity;
      return { file: opened.file, suite: 'similarity', submissions: [], view: reportPageUrl(opened.file), similarity: { submissions: r.submissions.length, pairs: r.pairs.length } };
    }
    const { file, report } = opened;
    return {
      file,
      suite: report.suite,
      submissions: report.submissions.map((s) => ({ id: s.id, score: s.score, maxScore: s.maxScore, cases: s.cases.length, passed: s.cases.filter((c) => c.status === 'passed').length })),
      view: reportPageUrl(file),
    };
  });

  app.get('/reports/view', async (req, reply) => {
    // Set first, so that a refusal has it too: the app's policy would refuse to be framed, and the page could not read why.
    reply.header('content-security-policy', REPORT_PAGE_CSP).header('cache-control', 'no-store');
    const q = checked(viewQuery, req.query, 'query');
    const any = files.openAny(q.path);
    if ('similarity' in any) {
      if (q.submission !== undefined) throw new HttpError(404, `${any.file}: a similarity report has one page, the pairs: no submission=${q.submission}`);
      let page = any.pages.get('pairs');
      if (page === undefined) any.pages.set('pairs', (page = similarityPageHtml(any.similarity, any.file)));
      return reply.type('text/html; charset=utf-8').send(page);
    }
    const opened = any;
    const n = opened.report.submissions.length;
    let page: ReportPageKind = { kind: 'class' };
    if (q.submission === 'all') page = { kind: 'all' };
    else if (q.submission !== undefined) {
      const number = Number(q.submission);
      if (number > n) throw new HttpError(404, `${opened.file}: no submission ${number}: it has ${n === 0 ? 'none' : n === 1 ? 'one (submission=1)' : `${n} (submission=1 to ${n})`}`);
      page = { kind: 'submission', index: number - 1 };
    }
    // The class page is the one every visit starts on, and the dearest (every submission's every case): kept with the report.
    let html = page.kind === 'class' ? opened.pages.get('class') : undefined;
    if (html === undefined) {
      html = reportPageHtml(opened.report, opened.file, page);
      if (page.kind === 'class') opened.pages.set('class', html);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  });

  const sendAsset = (name: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const a = REPORT_ASSETS.get(name)!;
    reply.header('etag', a.etag).header('cache-control', 'no-cache').type(a.type);
    if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.send(a.body);
  };
  for (const name of REPORT_ASSETS.keys()) app.get(`/reports/${name}`, sendAsset(name));
};
