#!/usr/bin/env node
// `npm run build`: writes dist/, the `mancala` command compiled to JavaScript (bin/build-dist.ts
// says what goes in it). Plain JavaScript, so that building needs no TypeScript loader: esbuild
// compiles the builder itself first (into node_modules/.cache, from where its imports of
// installed packages resolve), then runs it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules/.cache/mancala-build');
mkdirSync(cache, { recursive: true });
const builder = join(cache, `builder-${process.pid}.mjs`);
try {
  const compiled = await build({
    entryPoints: [join(root, 'bin/build-dist.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(builder, compiled.outputFiles[0].text);
  const { buildDist } = await import(pathToFileURL(builder).href);
  await buildDist(root);
} catch (e) {
  process.stderr.write(`mancala build: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(builder, { force: true });
}
