/**
 * The app's pages, in the order the navigation shows them; the first is the default page. A page
 * is one module (its `Page`: an id, a title, `mount`); a new page adds itself here, and its API,
 * if it has one, to framework/web/server/app.ts's API_MODULES.
 */
import type { Page } from '../router.ts';
import { explorerPage } from './explorer.ts';
import { playPage } from './play.ts';
import { replaysPage } from './replays.ts';
import { reportsPage } from './reports.ts';
import { tournamentsPage } from './tournaments.ts';

export const PAGES: readonly Page[] = [playPage, replaysPage, explorerPage, tournamentsPage, reportsPage];
