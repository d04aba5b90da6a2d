/**
 * Vitest's global setup: the CLI tests spawn `node bin/mancala.js`, which runs dist/; building it
 * first means they always run the sources under test, not an older build.
 */
import { fileURLToPath } from 'node:url';
import { buildDist } from './build-dist.ts';

export default async function buildBeforeTests(): Promise<void> {
  await buildDist(fileURLToPath(new URL('..', import.meta.url)));
}
