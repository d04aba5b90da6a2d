/**
 * `npm run docs`: rewrites docs/commands.md from the CLI's definitions (bin/command-reference.ts).
 * `--check` only says whether the committed page is up to date (exit 1 when it is not).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMMAND_REFERENCE_PATH, REGENERATE_COMMAND, renderCommandReference } from './command-reference.ts';

const file = fileURLToPath(new URL(`../${COMMAND_REFERENCE_PATH}`, import.meta.url));
const page = await renderCommandReference();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing: stale
  }
  if (committed !== page) {
    process.stderr.write(`${COMMAND_REFERENCE_PATH} is not what the CLI defines: run \`${REGENERATE_COMMAND}\`\n`);
    process.exit(1);
  }
  process.stdout.write(`${COMMAND_REFERENCE_PATH} is up to date\n`);
} else {
  writeFileSync(file, page);
  process.stdout.write(`wrote ${COMMAND_REFERENCE_PATH}\n`);
}
