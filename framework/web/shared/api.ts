/**
 * The web app's API: the JSON the server answers and the page reads. Types only (and a few
 * constants), shared by the server (framework/web/server/) and the page (framework/web/client/),
 * so it imports nothing but its own parts: the page's bundle must not pull in Node code. One part
 * a page (api/), and the board they share (api/board.ts); this module is the API's one name.
 *
 * Boards are sent as the bottom player sees them: each row left to right, the top player's store
 * on the left and the bottom player's on the right, every pit with the name its course gives it
 * (game.pitName, game.pitLabel: `B3`, `A4`, cups `1`–`6`). The engine runs on the server (see
 * framework/web/README.md for why); the page draws what it is sent.
 */

/** Every error the API answers (4xx): one line, for the page to show as it is. */
export interface ApiError {
  error: string;
}

export * from './api/board.ts';
export * from './api/play.ts';
export * from './api/replays.ts';
export * from './api/tournaments.ts';
export * from './api/reports.ts';
export * from './api/search.ts';
