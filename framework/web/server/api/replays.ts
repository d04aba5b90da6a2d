/**
 * The Replays page's API (replay-files.ts reads the files, under the server's root only):
 *
 *   GET  /api/files?dir=D               → FolderListing: D's folders, replays and results files
 *                                         (and its grade reports, which the Reports page lists)
 *   GET  /api/tournament?path=P         → TournamentGames: the games a results.jsonl records
 *   GET  /api/replay?path=P[&game=N]    → ReplayView (a results file needs game=N)
 *   POST /api/replay {name, text}       → ReplayView of a file the page read from the user's disk
 *                                         (a few at once: upload-gate.ts; beyond, 429)
 *
 * A malformed file is a 422 whose one line is the reader's: the file, the line and the field.
 */
import * as z from 'zod';
import type { FolderListing, ReplayView, TournamentGames } from '../../shared/api.ts';
import type { ApiModule } from '../context.ts';
import { checked } from '../http-error.ts';
import { UPLOAD_BODY_LIMIT, UploadGate } from '../upload-gate.ts';
import { listFolder, openReplay, tournamentGames, uploadedReplay } from '../replay-files.ts';

const path = z.string({ error: 'expected a path under the server\'s folder' }).max(4096, { error: 'expected a path of at most 4096 characters' });
const filesQuery = z.strictObject({ dir: path.optional() }, { error: 'expected ?dir=FOLDER' });
const tournamentQuery = z.strictObject({ path }, { error: 'expected ?path=FILE' });
const replayQuery = z.strictObject(
  { path, game: z.string().regex(/^[1-9]\d{0,8}$/, { error: 'expected a game number ≥ 1' }).optional() },
  { error: 'expected ?path=FILE[&game=N]' },
);
const upload = z.strictObject(
  {
    name: z.string({ error: 'expected the file\'s name' }).min(1, { error: 'expected the file\'s name' }).max(300, { error: 'expected a name of at most 300 characters' }),
    text: z.string({ error: 'expected the file\'s text' }),
  },
  { error: 'expected {"name", "text"}' },
);

export const replaysApi: ApiModule = (app, ctx) => {
  app.get('/api/files', async (req): Promise<FolderListing> => listFolder(ctx.root, checked(filesQuery, req.query, 'query').dir ?? ''));
  app.get('/api/tournament', async (req): Promise<TournamentGames> => tournamentGames(ctx.root, checked(tournamentQuery, req.query, 'query').path));
  app.get('/api/replay', async (req): Promise<ReplayView> => {
    const q = checked(replayQuery, req.query, 'query');
    return openReplay(ctx.root, q.path, q.game === undefined ? undefined : Number(q.game));
  });
  const uploads = new UploadGate(UPLOAD_BODY_LIMIT);
  app.post('/api/replay', { bodyLimit: UPLOAD_BODY_LIMIT, onRequest: uploads.admit }, async (req): Promise<ReplayView> => {
    const body = checked(upload, req.body, 'body');
    return uploadedReplay(body.name.replace(/[\r\n]/g, ' '), body.text);
  });
};
