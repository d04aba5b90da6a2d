/**
 * The final of a frozen arena (`mancala arena final DIR`), on the KWARC schedule: a round robin of
 * every student's current submission and the anchors, every pair in both seats; then the bottom
 * half is cut and the rest play another round robin with twice the games a pair; and so on for
 * `stages` stages. Each stage is a resumable tournament (framework/tournaments/runner.ts) in
 * DIR/final/stage-K/results.jsonl: a final stopped midway plays only its missing games when run
 * again. The ranking: the last stage's players by its standings, then each earlier stage's cut
 * players by that stage's standings. Written to DIR/final/standings.json.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.ts';
import type { SandboxMode } from '../sandbox/jail/mechanisms.ts';
import { runTournament } from '../tournaments/runner.ts';
import type { Standing as TournamentStanding } from '../tournaments/ratings.ts';
import { writeFileAtomically } from '../write-file.ts';
import type { Arena } from './arena.ts';
import { arenaRoundRobin } from './settings.ts';
import { studentJson } from '../student-text.ts';

export interface FinalOptions {
  gamesPerPair: number;
  stages: number;
  jobs: number;
  sandbox: SandboxMode;
  queue?: string;
  log?(line: string): void;
}

export interface FinalStanding {
  rank: number;
  student: string | null;
  pseudonym: string;
  anchor: boolean;
  /** the last stage this player played */
  stage: number;
  rating: number;
  wins: number;
  draws: number;
  losses: number;
  forfeits: number;
}

export async function playFinal(arena: Arena, o: FinalOptions): Promise<{ standings: FinalStanding[]; text: string }> {
  const who = new Map<string, { student: string | null; pseudonym: string; anchor: boolean }>();
  for (const s of arena.standings()) {
    const spec = s.anchor ? s.pseudonym : arena.specOf(s.submission, null);
    who.set(spec, { student: s.student, pseudonym: s.pseudonym, anchor: s.anchor });
  }
  if ([...who.values()].filter((w) => !w.anchor).length === 0) throw new UserError('the arena has no submission on the ladder: no final to play');
  const dir = join(arena.dir, 'final');
  mkdirSync(dir, { recursive: true });
  const s = arena.settings;
  let players = [...who.keys()];
  const cut: { stage: number; standings: TournamentStanding[] }[] = [];
  let last: TournamentStanding[] = [];
  let stage = 0;
  for (let k = 1; k <= o.stages && players.length >= 2; k++) {
    stage = k;
    const gamesPerPair = o.gamesPerPair * 2 ** (k - 1);
    o.log?.(`final, stage ${k}: ${players.length} players, ${gamesPerPair} games a pair`);
    const outcome = await runTournament({
      params: arenaRoundRobin(s, { agents: players, gamesPerPair, seed: s.seed + k }),
      outDir: join(dir, `stage-${k}`),
      jobs: o.jobs,
      sandbox: o.sandbox,
      ...(o.queue !== undefined ? { queue: o.queue } : {}),
    });
    if (!outcome.complete) throw new UserError(`final, stage ${k}: ${outcome.games.length} of ${outcome.schedule.length} games played; run mancala arena final again to finish`);
    last = outcome.standings;
    if (k === o.stages) break;
    const keep = Math.max(2, Math.ceil(last.length / 2));
    cut.unshift({ stage: k, standings: last.slice(keep) });
    players = last.slice(0, keep).map((x) => x.agent);
  }
  const ordered = [...last.map((x) => ({ x, stage })), ...cut.flatMap((c) => c.standings.map((x) => ({ x, stage: c.stage })))];
  const standings: FinalStanding[] = ordered.map(({ x, stage: st }, k) => ({
    rank: k + 1,
    ...who.get(x.agent)!,
    stage: st,
    rating: x.rating,
    wins: x.wins,
    draws: x.draws,
    losses: x.losses,
    forfeits: x.forfeits,
  }));
  writeFileAtomically(join(dir, 'standings.json'), `${JSON.stringify(studentJson({ stages: stage, gamesPerPair: o.gamesPerPair, standings }), null, 2)}\n`);
  const text = ['rank  stage  rating  W-D-L  who', ...standings.map((r) => `${String(r.rank).padStart(4)}  ${String(r.stage).padStart(5)}  ${r.rating.toFixed(2).padStart(6)}  ${r.wins}-${r.draws}-${r.losses}  ${r.anchor ? `${r.pseudonym} (anchor)` : `${r.pseudonym} (${r.student})`}`)].join('\n') + '\n';
  return { standings, text };
}
