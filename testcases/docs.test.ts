/**
 * Docs that cannot rot: every relative link of the project's Markdown pages resolves (the file,
 * and the heading an #anchor names), every project path they name in inline code exists, and every `mancala …` command line the README and docs/ show
 * parses with the real CLI, options included (parsed only, never run: testcases/fixtures/parse-only-cli.ts).
 * A failure names the file and the line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allPages, brokenLink, codePathsOf, commandLinesOf, isExternal, linksOf, manualPages, mancalaCommandsIn, ROOT } from './fixtures/markdown-docs.ts';
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
