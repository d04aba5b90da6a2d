/**
 * The web app's front end, bundled by esbuild: framework/web/client/ (TypeScript, plain DOM, no
 * UI library) into one script and one style sheet, with the page that loads them. `npm run build`
 * writes them to dist/web/ (bin/build-dist.ts); `mancala serve` serves that folder, or builds the
 * same files in memory when it is missing (a checkout not built yet). Everything the page loads
 * comes from these files: no CDN, no web font, so the app works offline.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface WebFile {
  name: string;
  bytes: Uint8Array;
}

/** The front end's sources (a build script compiled elsewhere passes them in: bin/build-dist.ts). */
export const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));

/** The page's icon: a board of two rows of pits between two stores. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="2" y="14" width="60" height="36" rx="12" fill="#8a5a2b"/><rect x="6" y="20" width="8" height="24" rx="4" fill="#3e2611"/><rect x="50" y="20" width="8" height="24" rx="4" fill="#3e2611"/><g fill="#3e2611"><circle cx="22" cy="25" r="4"/><circle cx="32" cy="25" r="4"/><circle cx="42" cy="25" r="4"/><circle cx="22" cy="39" r="4"/><circle cx="32" cy="39" r="4"/><circle cx="42" cy="39" r="4"/></g></svg>
`;

function page(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mancala</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/${style}">
<script type="module" src="/assets/${script}"></script>
</head>
<body>
<noscript>This app needs JavaScript.</noscript>
</body>
</html>
`;
}

/** The front end's files: index.html, app.js and app.css (named by a hash of their content), icon.svg. */
export async function buildWebFiles(clientDir = CLIENT_DIR): Promise<WebFile[]> {
  const result = await build({
    entryPoints: { app: join(clientDir, 'main.ts'), style: join(clientDir, 'styles.css') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    outdir: 'out',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const out = (ending: string) => result.outputFiles.find((f) => f.path.endsWith(ending))!.contents;
  const named = (base: string, ext: string, bytes: Uint8Array) => ({ name: `${base}-${createHash('sha256').update(bytes).digest('hex').slice(0, 10)}${ext}`, bytes });
  const script = named('app', '.js', out('app.js'));
  const style = named('app', '.css', out('style.css'));
  return [{ name: 'index.html', bytes: Buffer.from(page(script.name, style.name)) }, script, style, { name: 'icon.svg', bytes: Buffer.from(ICON) }];
}

/** An older build's file no build wrote for this long: no server still starting would read it. */
const STALE_MS = 60 * 1000;

/**
 * `npm run build`: the front end into `outDir` (dist/web). Each file is written aside and renamed
 * into place, index.html last, so a server starting meanwhile reads a whole page whose assets are
 * there; an older build's assets go once they are a minute old (so a packed package holds one build's).
 */
export async function writeWebFiles(outDir: string, clientDir = CLIENT_DIR): Promise<WebFile[]> {
  const files = await buildWebFiles(clientDir);
  mkdirSync(outDir, { recursive: true });
  const names = new Set(files.map((f) => f.name));
  for (const f of [...files.filter((f) => f.name !== 'index.html'), ...files.filter((f) => f.name === 'index.html')]) {
    const aside = join(outDir, `.${f.name}.${process.pid}.partial`);
    writeFileSync(aside, f.bytes);
    renameSync(aside, join(outDir, f.name));
  }
  for (const old of readdirSync(outDir)) {
    const file = join(outDir, old);
    try {
      if (!names.has(old) && Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true, recursive: true });
    } catch {
      // another build removed it first
    }
  }
  return files;
}
