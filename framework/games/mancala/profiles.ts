/**
 * Named rule profiles: the rules and search conventions each course (seed) uses.
 * docs/profiles.md's table explains each choice; keep the two in step.
 */
import type { SearchConventions } from '../../contracts/search-conventions.ts';
import type { MancalaRules } from './rules.ts';

export interface MancalaProfile {
  name: string;
  /** the seed file this profile serves, if any */
  seed?: string;
  summary: string;
  rules: MancalaRules;
  search: SearchConventions;
}

const kalahRules: MancalaRules = {
  pits: 6,
  seeds: 4,
  freeTurn: true,
  capture: 'last-and-opposite',
  captureEmptyOpposite: false,
  gameEnd: 'either-row-empty',
  moveOrder: 'sowing',
  pitNaming: 'bt',
};

export const PROFILES: Readonly<Record<string, MancalaProfile>> = {
  kalah: {
    name: 'kalah',
    summary: 'standard Kalah (OpenSpiel, Ludii): a capture needs a non-empty opposite pit',
    rules: kalahRules,
    search: { depthUnit: 'move', defaultDepth: 8, terminal: 'score' },
  },
  'kalah-empty-capture': {
    name: 'kalah-empty-capture',
    summary: 'Kalah as the published solutions play it: landing in an empty own pit always captures',
    rules: { ...kalahRules, captureEmptyOpposite: true },
    search: { depthUnit: 'move', defaultDepth: 8, terminal: 'score' },
  },
  csci561: {
    name: 'csci561',
    seed: '000',
    summary: 'file-in/file-out homework: free turns, capture with an empty opposite pit, depth in turns, A/B pit names',
    rules: { ...kalahRules, captureEmptyOpposite: true, moveOrder: 'left-to-right', pitNaming: 'csci561' },
    search: { depthUnit: 'turn', defaultDepth: 2, terminal: 'score' },
  },
  csc384: {
    name: 'csc384',
    seed: '001',
    summary: 'no free turns; a capture leaves the last stone in its pocket; finished positions evaluated without the sweep',
    rules: { ...kalahRules, freeTurn: false, capture: 'opposite-only', captureEmptyOpposite: true, moveOrder: 'left-to-right' },
    search: { depthUnit: 'move', defaultDepth: null, terminal: 'heuristic' },
  },
  cpsc4610: {
    name: 'cpsc4610',
    seed: '002',
    summary: 'free turns, capture with an empty opposite pit, depth in moves (a 5-ply player is the default), cups numbered 1 to 6',
    rules: { ...kalahRules, captureEmptyOpposite: true, pitNaming: 'cups' },
    search: { depthUnit: 'move', defaultDepth: 5, terminal: 'score' },
  },
  cs540: {
    name: 'cs540',
    seed: '003',
    summary: 'free turns, capture with an empty opposite bin, 3 to 5 stones a bin, depth in moves',
    rules: { ...kalahRules, captureEmptyOpposite: true },
    search: { depthUnit: 'move', defaultDepth: 6, terminal: 'score' },
  },
};

export const PROFILE_NAMES = Object.keys(PROFILES);

export function findProfile(name: string): MancalaProfile | undefined {
  return Object.hasOwn(PROFILES, name) ? PROFILES[name] : undefined;
}
