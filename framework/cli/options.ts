/**
 * Option parsing shared by the commands: each parser checks one flag's value and, when it is
 * wrong, says what was expected; commander prefixes the flag ("option '--pits <n>' argument '25'
 * is invalid. …") and main.ts prints that as one line with exit code 2.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { PROFILE_NAMES } from '../games/mancala/profiles.ts';
import { LIMITS } from '../games/mancala/rules.ts';
import type { DepthUnit, TerminalEvaluation } from '../contracts/search-conventions.ts';

/** Where a command writes: the process's streams, or a buffer in tests. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const GAME_KINDS = ['mancala', 'tictactoe'] as const;
export type GameKind = (typeof GAME_KINDS)[number];
export const DEPTH_UNITS: readonly DepthUnit[] = ['move', 'turn'];
export const TERMINALS: readonly TerminalEvaluation[] = ['score', 'heuristic'];
export const PLAYERS = ['bottom', 'top'] as const;
export type PlayerSide = (typeof PLAYERS)[number];

/** A whole number in min..max (written in decimal, no sign unless negative numbers are allowed). */
export function wholeNumber(min: number, max: number, what: string): (value: string) => number {
  return (value) => {
    const t = value.trim();
    const n = /^-?\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`Expected ${what}: a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}

/** A depth: a whole number ≥ min, or -1 for "no limit" when `unlimited` is allowed. */
export function depthParser(min: number, unlimited: boolean): (value: string) => number {
  return (value) => {
    const t = value.trim();
    const n = /^-?\d+$/.test(t) ? Number(t) : NaN;
    if ((unlimited && n === -1) || (Number.isSafeInteger(n) && n >= min)) return n;
    throw new InvalidArgumentError(`Expected a whole number ≥ ${min}${unlimited ? ', or -1 for no depth limit' : ''}.`);
  };
}

function profileName(value: string): string {
  if (PROFILE_NAMES.includes(value)) return value;
  throw new InvalidArgumentError(`Expected a rules profile: ${PROFILE_NAMES.join(', ')}.`);
}

/** The options naming a game and its size: --game, --rules, --pits, --seeds. */
export interface GameOptions {
  game: GameKind;
  rules?: string;
  pits?: number;
  seeds?: number;
}

export function addGameOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--game <game>', 'the game').choices(GAME_KINDS).default('mancala'))
    .addOption(new Option('--rules <profile>', `Mancala rules profile: ${PROFILE_NAMES.join(', ')}`).argParser(profileName))
    .addOption(
      new Option('--pits <n>', `pits a side (${LIMITS.minPits}..${LIMITS.maxPits}; default: the profile's)`).argParser(
        wholeNumber(LIMITS.minPits, LIMITS.maxPits, 'pits a side'),
      ),
    )
    .addOption(
      new Option('--seeds <n>', `stones a pit at the start (${LIMITS.minSeeds}..${LIMITS.maxSeeds}; default: the profile's)`).argParser(
        wholeNumber(LIMITS.minSeeds, LIMITS.maxSeeds, 'stones a pit'),
      ),
    );
}

export function unitOption(description: string): Option {
  return new Option('--unit <unit>', description).choices(DEPTH_UNITS);
}

/** Milliseconds for reports: three decimals are plenty and keep JSON short. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** "12,345,678" style grouping for tables (fixed locale so output does not depend on the machine). */
export function grouped(n: number): string {
  // By hand, not toLocaleString: the first call loads ICU's locale data, 15 ms of a command's start.
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  const withCommas = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${withCommas}` : withCommas;
}

/** A rate such as moves/s, in millions with one decimal. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? count / (ms / 1000) : 0;
}

export function millions(rate: number): string {
  return `${(rate / 1e6).toFixed(2)} M`;
}
