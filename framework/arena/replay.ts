/**
 * An arena game as a replay file's text (framework/matches/replay.ts: the JSON lines `mancala match
 * --replays` writes and the web app's replay viewer reads), played again from its recorded moves,
 * with each move's time, then checked by the replay reader. Sides are named as the asker may see
 * them; the other side's forfeit message (which may quote its code or output) is left out.
 */
import { stateToBoard } from '../games/mancala/board-io/board.ts';
import { mancalaGame } from '../games/mancala/profile-game.ts';
import { findProfile } from '../games/mancala/profiles.ts';
import { parseReplay, REPLAY_VERSION, replayEnd, replayText, type Replay } from '../matches/replay.ts';
import { sideToMove, type GameRecord, type ReplayLine, type Side } from '../matches/types.ts';
import type { ArenaSettings } from './arena.ts';
import type { GameRow } from './store.ts';

export function arenaReplayText(settings: ArenaSettings, g: GameRow, names: { A: string; B: string }, ownSides: ReadonlySet<Side>): string {
  const r = JSON.parse(g.record!) as GameRecord;
  const game = mancalaGame(findProfile(settings.rules)!, settings.pits, settings.seeds);
  let s = game.initial();
  const lines: ReplayLine[] = r.moves.map((move, ply) => {
    const line: ReplayLine = {
      game: g.id,
      ply,
      side: sideToMove(game.toMove(s), g.first),
      before: stateToBoard(game, s),
      move,
      moveName: game.moveName(s, move),
      ms: r.moveMs?.[ply] ?? 0,
      ...(ply < r.openingPlies ? { by: 'opening' as const } : {}),
    };
    s = game.play(s, move);
    return line;
  });
  const end = replayEnd({ ...r, index: g.id });
  if (end.forfeit !== null && !ownSides.has(end.forfeit.side)) end.forfeit = { ...end.forfeit, message: `the opponent forfeited (${end.forfeit.reason})` };
  const replay: Replay = {
    header: {
      type: 'game',
      version: REPLAY_VERSION,
      game: g.id,
      rules: settings.rules,
      pits: settings.pits,
      seeds: settings.seeds,
      A: names.A,
      B: names.B,
      first: g.first,
      seed: g.seed,
      timePerMoveMs: settings.timePerMoveMs,
      forfeitPolicy: 'loss',
    },
    moves: lines,
    end,
  };
  const text = replayText(replay);
  // The replay reader's own checks: the score and the winner follow from the moves.
  parseReplay(text, `arena game ${g.id}`);
  return text;
}
