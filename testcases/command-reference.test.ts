/**
 * docs/commands.md is generated from the CLI's definitions (bin/command-reference.ts): the page
 * committed must be what they render now, or a flag added, renamed or re-described has left the
 * reference behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_REFERENCE_PATH, REGENERATE_COMMAND, renderCommandReference } from '../bin/command-reference.ts';
import { ROOT } from './fixtures/markdown-docs.ts';

describe('the command reference', () => {
  it(`${COMMAND_REFERENCE_PATH} is what the CLI defines`, async () => {
    const committed = readFileSync(join(ROOT, COMMAND_REFERENCE_PATH), 'utf8');
    const rendered = await renderCommandReference();
    expect(committed === rendered, `${COMMAND_REFERENCE_PATH} is stale: run \`${REGENERATE_COMMAND}\` and commit it`).toBe(true);
  });

  it('names every command, its options and their defaults', async () => {
    const page = await renderCommandReference();
    expect(page).toContain('## mancala suite bless');
    expect(page).toContain('| `--games-per-pair <n>` |');
    expect(page).toMatch(/\| `--port <n>` \| [^\n]* \| `8080` \|/);
    expect(page).toMatch(/\| `--suite <dir>` \(required\) \|/);
  });
});
