/**
 * Docs that cannot rot: every relative link of the project's Markdown pages resolves (the file,
 * and the heading an #anchor names), every project path they name in inline code exists, and every `mancala …` command line the README and docs/ show
 * parses with the real CLI, options included (parsed only, never run: testcases/fixtures/parse-only-cli.ts).
 * A failure names the file and the line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allPages, brokenLink, brokenTableRows, sharedPathsOf, codePathsOf, commandLinesOf, isExternal, linksOf, manualPages, mancalaCommandsIn, ROOT } from './fixtures/markdown-docs.ts';
import { cliRefusal } from './fixtures/parse-only-cli.ts';

describe('links in the Markdown pages', () => {
  it('each relative link and image resolves, its #anchor to a heading of the page it names', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of allPages()) {
      for (const link of linksOf(page)) {
        if (isExternal(link.text)) continue;
        checked++;
        const why = brokenLink(page, link.text);
        if (why !== undefined) broken.push(`${link.file}:${link.line}: ${link.text}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('each path of the project a page names in inline code exists (a file moved or renamed leaves none behind)', () => {
    const missing: string[] = [];
    for (const page of allPages()) {
      for (const path of codePathsOf(page)) if (!existsSync(join(ROOT, path.text))) missing.push(`${path.file}:${path.line}: \`${path.text}\` does not exist`);
    }
    expect(missing).toEqual([]);
  });

  it('a link to a missing file or heading is caught', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('docs/no-such-page.md does not exist');
    expect(brokenLink('README.md', 'docs/README.md#no-such-heading')).toMatch(/has no heading whose anchor is #no-such-heading/);
    expect(brokenLink('docs/README.md', '../README.md')).toBeUndefined();
  });
});

describe('what a clone of the repository renders and has', () => {
  it('no page names ../shared, the workspace folder beside the checkout that a clone does not have', () => {
    // Fixtures' notes describe tests run against that folder (a hostile program that tries to list it).
    const found = allPages().filter((page) => !page.startsWith('testcases/fixtures/')).flatMap((page) => sharedPathsOf(page).map((f) => `${f.file}:${f.line}: ${f.text}`));
    expect(found, found.join('\n')).toEqual([]);
  });

  it('no page calls a course by its specification\'s number ("seed 000"): each goes by its name (CSCI-561, CSC384, CPSC 4610, CS540)', () => {
    const found = allPages()
      .filter((page) => !page.startsWith('testcases/fixtures/'))
      .flatMap((page) =>
        readFileSync(join(ROOT, page), 'utf8')
          .split('\n')
          .flatMap((l, k) => (/\bseeds? 00\d\b/i.test(l) ? [`${page}:${k + 1}: ${l.trim()}`] : [])),
      );
    expect(found, found.join('\n')).toEqual([]);
  });

  it('every table renders whole: no row cut from its table by a blank line', () => {
    const broken = allPages().flatMap((page) => brokenTableRows(readFileSync(join(ROOT, page), 'utf8')).map((line) => `${page}:${line}: table rows Markdown prints as text`));
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('a table cut by a blank line, and ../shared, are caught', () => {
    const table = '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| 3 | 4 |\n| 5 | 6 |\n\ntext\n\n| x | y |\n|---|---|\n| 7 | 8 |\n\n```\n| in | code |\n```\n';
    expect(brokenTableRows(table)).toEqual([5]);
    expect(brokenTableRows('| a | b |\n| --- | --- |\n| 1 | 2 |\n')).toEqual([]);
  });
});

describe('mancala command lines in the README and docs/', () => {
  it('each parses with the real CLI: the command exists, its options and their values are accepted', async () => {
    const refused: string[] = [];
    let checked = 0;
    for (const page of manualPages()) {
      for (const shown of commandLinesOf(page)) {
        checked++;
        const why = await cliRefusal(shown.args);
        if (why !== undefined) refused.push(`${shown.file}:${shown.line}: ${shown.text}\n    mancala: ${why}`);
      }
    }
    expect(refused, refused.join('\n')).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('finds the command in each launcher form and after &&, and refuses what the CLI refuses', async () => {
    expect(mancalaCommandsIn('npx mancala check agents/me --json r.json   # a comment')).toEqual([['check', 'agents/me', '--json', 'r.json']]);
    expect(mancalaCommandsIn('cd kit && node bin/mancala.js demo')).toEqual([['demo']]);
    expect(mancalaCommandsIn('$ mancala grade s/* --suite <dir>')).toEqual([['grade', 's/*', '--suite', '<dir>']]);
    expect(mancalaCommandsIn('npm ci && npm test')).toEqual([]);
    expect(await cliRefusal(['grade', '<folder>', '--suite', 'testcases/kalah-basics'])).toBeUndefined();
    expect(await cliRefusal(['nosuch'])).toMatch(/unknown command 'nosuch'/);
    expect(await cliRefusal(['match', 'random', 'greedy', '--no-such-flag'])).toMatch(/unknown option '--no-such-flag'/);
    expect(await cliRefusal(['match', 'random', 'greedy', '--games', 'N'])).toMatch(/--games/);
    expect(await cliRefusal(['grade', 'alice'])).toMatch(/required option '--suite <dir>'/);
  });
});
