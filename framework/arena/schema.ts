/**
 * The arena database's schema (store.ts opens it): the migrations, oldest first, and the rows'
 * shapes. Entry k of MIGRATIONS brings a database from user_version k to k + 1; a new version adds
 * an entry, never edits one (arenas made by the older version are migrated when they open).
 */

export const SUBMISSION_STATUSES = ['checking', 'sanity', 'ladder', 'retired', 'failed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
export const GAME_KINDS = ['sanity', 'placement', 'ladder', 'scrim', 'final'] as const;
export type GameKind = (typeof GAME_KINDS)[number];
export type GameStatus = 'queued' | 'running' | 'done';

/** Schema versions, oldest first: entry k brings a database from user_version k to k + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE students (
    id TEXT PRIMARY KEY,
    name TEXT,
    email TEXT,
    pseudonym TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    student TEXT NOT NULL REFERENCES students(id),
    folder TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    form TEXT,
    status TEXT NOT NULL CHECK (status IN ('checking','sanity','ladder','retired','failed')),
    feedback TEXT,
    created_at TEXT NOT NULL,
    retired_at TEXT
  );
  CREATE INDEX submissions_student ON submissions(student, id);
  CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('sanity','placement','ladder','scrim','final')),
    a_submission INTEGER REFERENCES submissions(id),
    a_anchor TEXT,
    b_submission INTEGER REFERENCES submissions(id),
    b_anchor TEXT,
    first TEXT NOT NULL CHECK (first IN ('A','B')),
    seed INTEGER NOT NULL,
    opening INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','running','done')),
    requested_by TEXT REFERENCES students(id),
    winner TEXT CHECK (winner IN ('A','B','draw')),
    score_a INTEGER,
    score_b INTEGER,
    forfeit TEXT,
    record TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    CHECK ((a_submission IS NULL) <> (a_anchor IS NULL)),
    CHECK ((b_submission IS NULL) <> (b_anchor IS NULL))
  );
  CREATE INDEX games_status ON games(status, id);
  CREATE INDEX games_a ON games(a_submission);
  CREATE INDEX games_b ON games(b_submission);
  CREATE TABLE ratings (
    player TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    fixed INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE rating_history (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    game INTEGER NOT NULL REFERENCES games(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX rating_history_player ON rating_history(player, id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface StudentRow {
  id: string;
  name: string | null;
  email: string | null;
  pseudonym: string;
  created_at: string;
}

export interface SubmissionRow {
  id: number;
  student: string;
  folder: string;
  content_hash: string;
  form: string | null;
  status: SubmissionStatus;
  feedback: string | null;
  created_at: string;
  retired_at: string | null;
}

export interface GameRow {
  id: number;
  kind: GameKind;
  a_submission: number | null;
  a_anchor: string | null;
  b_submission: number | null;
  b_anchor: string | null;
  first: 'A' | 'B';
  seed: number;
  opening: number;
  status: GameStatus;
  requested_by: string | null;
  winner: 'A' | 'B' | 'draw' | null;
  score_a: number | null;
  score_b: number | null;
  forfeit: string | null;
  record: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface RatingRow {
  player: string;
  mu: number;
  sigma: number;
  games: number;
  fixed: number;
}

/** A side of a game: a submission, or a reference agent by its spec. */
export type GameSide = { submission: number } | { anchor: string };

export interface NewGame {
  kind: GameKind;
  A: GameSide;
  B: GameSide;
  first: 'A' | 'B';
  seed: number;
  opening: number;
  requestedBy?: string;
}

