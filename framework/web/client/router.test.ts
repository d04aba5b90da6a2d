/**
 * The router's reading and writing of the URL's hash (the part that needs no browser): every page
 * state worth sharing is a link.
 */
import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './router.ts';
import { PAGES } from './pages/index.ts';

describe('the router', () => {
  it('reads a page and its parameters from the hash', () => {
    const r = parseRoute('#/replays?path=replays%2Fgame-001.jsonl&ply=12');
    expect(r.page).toBe('replays');
    expect(r.params.get('path')).toBe('replays/game-001.jsonl');
    expect(r.params.get('ply')).toBe('12');
    expect(parseRoute('').page).toBe('');
    expect(parseRoute('#/').page).toBe('');
    expect(parseRoute('#play').page).toBe('play');
    expect(parseRoute('#//play/').page).toBe('play');
    expect(parseRoute('#/%zz?x').page).toBe('%zz');
  });

  it('writes a hash that reads back the same, leaving out empty parameters', () => {
    const hash = routeHash('play', { rules: 'cpsc4610', top: 'alphabeta:depth=6', pits: 6, seeds: undefined, bottom: '' });
    expect(hash).toBe('#/play?rules=cpsc4610&top=alphabeta%3Adepth%3D6&pits=6');
    const back = parseRoute(hash);
    expect(back.page).toBe('play');
    expect(Object.fromEntries(back.params)).toEqual({ rules: 'cpsc4610', top: 'alphabeta:depth=6', pits: '6' });
    expect(routeHash('replays')).toBe('#/replays');
  });

  it('has one page a module, each with its own id; Play is the default', () => {
    expect(PAGES.map((p) => p.id)).toEqual(['play', 'replays', 'explorer', 'tournaments', 'reports']);
    expect(new Set(PAGES.map((p) => p.id)).size).toBe(PAGES.length);
  });
});
