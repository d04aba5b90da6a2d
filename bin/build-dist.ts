/**
 * What `npm run build` runs (bin/build.mjs compiles this file first): the `mancala` command,
 * bin/cli.ts (the composition root and the command line), bundled into dist/: dist/cli.mjs and
 * the chunks it loads on demand; and the web app's front end (`mancala serve`), bundled for the
 * browser into dist/web/ (framework/web/build.ts).
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeWebFiles } from '../framework/web/build.ts';
import { writeShippedBundle } from '../framework/workers/source-bundle.ts';

/** A chunk no build wrote for this long is from older sources: no process still starting would load it. */
const STALE_MS = 60 * 60 * 1000;

export async function buildDist(root: string): Promise<void> {
  const out = join(root, 'dist');
  mkdirSync(out, { recursive: true });
  const [bundle] = await Promise.all([writeShippedBundle(join(root, 'bin/cli.ts'), root, out), writeWebFiles(join(out, 'web'), join(root, 'framework/web/client'))]);
  const written = new Set(bundle);
  for (const name of readdirSync(out)) {
    const file = join(out, name);
    if (!written.has(file) && name.startsWith('chunk-') && Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
  }
}
