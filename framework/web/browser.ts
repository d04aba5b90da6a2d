/**
 * A real browser for the web app's end-to-end tests and `mancala bench`: Debian's chromium
 * (`apt-get install chromium`; .ci/run installs it), driven by playwright-core (a devDependency:
 * the packed package does not carry it, so its absence is said, never a crash).
 */
import { existsSync } from 'node:fs';
import { findExecutable } from '../sandbox/jail/mechanisms.ts';

/** Where chromium is: /usr/bin/chromium, else the first of its usual names on PATH. */
export function findChromium(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = findExecutable(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

export type Playwright = typeof import('playwright-core');

/** playwright-core, or why not. Imported by a name esbuild cannot follow: it stays out of dist/. */
export async function loadPlaywright(): Promise<Playwright | { missing: string }> {
  const name = 'playwright-core';
  try {
    return (await import(name)) as Playwright;
  } catch {
    return { missing: 'playwright-core is not installed (a devDependency: npm ci in the project installs it)' };
  }
}

/** Launches headless chromium, or says what is missing. */
export async function launchChromium(): Promise<import('playwright-core').Browser | { missing: string }> {
  const executablePath = findChromium();
  if (executablePath === undefined) return { missing: 'chromium is not installed (apt-get install chromium)' };
  const pw = await loadPlaywright();
  if ('missing' in pw) return pw;
  return pw.chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
