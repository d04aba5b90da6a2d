/**
 * The check every command that plays submitted agents makes before it starts: when none of the
 * submission paths it was given holds anything (an empty folder, notes only), it stops with one
 * line in the words of the course being played (sandbox/submission-presence.ts) and exit 2,
 * never a table of forfeits and "score 0 / 100" that exits 0. Reference agents (random,
 * alphabeta:depth=4) are no submissions and are left alone.
 */
import { AGENT_ROLE, isPathSpec, splitOptions } from '../matches/player.ts';

/** Refuses a run whose submission specs all hold nothing; `profile` names the course (cs540, csc384 …). */
export async function refuseRunWithoutSubmission(specs: readonly string[], profile: string): Promise<void> {
  const paths = specs.filter(isPathSpec).map((s) => splitOptions(s).path);
  if (paths.length === 0) return;
  // Loaded on use: a run of reference agents alone never reads a submission folder.
  const { requireSomeSubmission } = await import('../sandbox/submission-presence.ts');
  await requireSomeSubmission(paths, { profile, rolePatterns: AGENT_ROLE.files });
}
