/**
 * The API of the Tournaments page (../api.ts): the standings as they stand, the crosstable's
 * cells and the games behind them.
 */
/** A game of a pairing, from the row agent's side (a crosstable cell's list). */
export interface PairGame {
  /** the game's schedule index: `#/replays?path=…&game=N` replays it */
  index: number;
  result: 'win' | 'draw' | 'loss';
  /** the row agent's store, then the column agent's */
  score: [number, number];
  /** the row agent moved first (the bottom seat) */
  rowFirst: boolean;
  /** a side forfeited it: 'row' or 'column' */
  forfeit: 'row' | 'column' | null;
}

/** The row agent against the column agent. */
export interface CrosstableCell {
  /** games the schedule has them play (in this file's shard) */
  scheduled: number;
  wins: number;
  draws: number;
  losses: number;
  /** wins + draws / 2 */
  points: number;
  games: PairGame[];
}

/** GET /api/standings?path= (and each event of GET /api/standings/events?path=): a tournament's results as they stand. */
export interface TournamentStandings {
  file: string;
  format: 'round-robin' | 'gauntlet';
  rules: string;
  pits: number;
  seeds: number;
  gamesPerPair: number;
  timePerMoveMs: number;
  /** a shard's file: "2/3" */
  shard: string | null;
  /** games recorded */
  played: number;
  /** games the schedule has (this shard's) */
  total: number;
  /** when the file last changed, ms since 1970 */
  updated: number;
  /** what the reader should know (a game being written was left out) */
  notes: string[];
  /** best first, as `mancala tournament` prints them */
  standings: {
    rank: number;
    agent: string;
    /** openskill mu, and mu ± 2σ */
    rating: number;
    ci: [number, number];
    wins: number;
    draws: number;
    losses: number;
    points: number;
    forfeits: number;
  }[];
  /** cells[r][c]: standings[r]'s agent against standings[c]'s; null on the diagonal and for pairs the schedule never meets */
  crosstable: (CrosstableCell | null)[][];
}
