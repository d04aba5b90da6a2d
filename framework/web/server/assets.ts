/**
 * The front end's files as the server sends them: read once from dist/web/ (`npm run build`), or
 * built in memory by esbuild when that folder is missing or incomplete (framework/web/build.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { PROJECT_ROOT } from '../../sandbox/paths.ts';

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export const WEB_DIST_DIR = join(PROJECT_ROOT, 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function asset(name: string, bytes: Uint8Array): Asset {
  const body = Buffer.from(bytes);
  return { body, type: TYPES[extname(name)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/** The page's files by name, every file index.html loads among them. */
function fromDist(dir: string): Map<string, Asset> | undefined {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return undefined;
  const html = readFileSync(index, 'utf8');
  const wanted = [...html.matchAll(/\/assets\/([\w.-]+)/g)].map((m) => m[1]!);
  if (!wanted.every((name) => existsSync(join(dir, name)))) return undefined;
  const files = new Map<string, Asset>();
  for (const name of readdirSync(dir)) if (!name.startsWith('.') && (name === 'index.html' || wanted.includes(name))) files.set(name, asset(name, readFileSync(join(dir, name))));
  return files;
}

/** The front end's files: dist/web's, else a build of the sources in memory. */
export async function loadAssets(dir = WEB_DIST_DIR): Promise<{ files: Map<string, Asset>; source: string }> {
  const built = fromDist(dir);
  if (built !== undefined) return { files: built, source: dir };
  const { buildWebFiles } = await import('../build.ts');
  const files = new Map<string, Asset>();
  for (const f of await buildWebFiles()) files.set(f.name, asset(f.name, f.bytes));
  return { files, source: 'built in memory from framework/web/client (dist/web is missing: npm run build writes it)' };
}
