/**
 * Vitest's global setup: without ../shared, the tests that read it skip — said once here, at the
 * start of the run, rather than only in each skipped test's name. Under CI (CI=true) a missing
 * ../shared fails the run instead: a CI that skips the conformance checks would pass untested.
 */
import { CSCI561_OFFICIAL_DIR, haveSharedData, KALAH_C, SHARED_DIR } from './shared-data.ts';

export default function checkSharedData(): void {
  if (haveSharedData()) return;
  const what = `${SHARED_DIR} (../shared beside the repository) is missing or incomplete: it must hold ${CSCI561_OFFICIAL_DIR} and ${KALAH_C}`;
  if (process.env.CI === 'true') throw new Error(`${what}. CI runs every test: check out the workspace's shared folder beside the repository.`);
  console.warn(`\nnotice: ${what}; the tests that compare with seed 000's official cases and with the C engine are skipped.\n`);
}
