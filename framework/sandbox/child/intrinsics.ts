/**
 * The built-ins the child's message path uses, captured when this module is evaluated: in the
 * bootstrap and in the runtime, that is before any student module is imported.
 *
 * A submission may replace JSON.parse, JSON.stringify, console, Object.keys, Buffer.from,
 * String.prototype.slice, Uint8Array.prototype.indexOf … in its own process (on purpose or by
 * accident). The runtime still reads requests and writes answers with the originals, so the
 * submission is judged on what its own code did (an illegal move, say), not reported as a timeout
 * because it broke the channel. Methods are "uncurried" (called as fn(self, ...args)) so a
 * replaced prototype method or Function.prototype.call later changes nothing here.
 *
 * Only what the channel needs is here; the game engine and the searches use the globals as they
 * find them (a submission that breaks Array.prototype.push breaks its own game).
 */
import { writeSync } from 'node:fs';

const bindCall = Function.prototype.bind.bind(Function.prototype.call) as (fn: unknown) => unknown;

/** `fn` as a plain function taking its receiver first. */
function uncurry<T, A extends unknown[], R>(fn: (this: T, ...args: A) => R): (self: T, ...args: A) => R {
  return bindCall(fn) as (self: T, ...args: A) => R;
}

export const parseJson: (text: string) => unknown = JSON.parse;
/** Used on strings only: JSON.stringify calls no toJSON for a primitive. */
export const quote: (s: string) => string = JSON.stringify;
export const objectKeys = Object.keys;
export const isArray = Array.isArray;
export const isFinite = Number.isFinite;
export const isSafeInteger = Number.isSafeInteger;
export const toStr = String;
export const PromiseCtor = Promise;
export const U8 = Uint8Array;

export const stringSlice = uncurry(String.prototype.slice);
export const bytesIndexOf = uncurry(Uint8Array.prototype.indexOf as (this: Uint8Array, value: number, from?: number) => number);
export const bytesSet = uncurry(Uint8Array.prototype.set as (this: Uint8Array, source: ArrayLike<number>, offset?: number) => void);

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();
const encode = uncurry(TextEncoder.prototype.encode);
const decode = uncurry(TextDecoder.prototype.decode);
export const utf8Bytes = (s: string): Uint8Array => encode(utf8Encoder, s);
export const utf8Text = (bytes: Uint8Array): string => decode(utf8Decoder, bytes);

export const fsWriteSync = writeSync;
export const nextTurn = setImmediate;

const stderr = process.stderr;
const stderrWrite = uncurry(stderr.write as (this: NodeJS.WriteStream, text: string) => boolean);
/** For the runtime's own troubles when no request is there to answer (never the student's output). */
export const logError = (text: string): void => {
  stderrWrite(stderr, text);
};
export const exitProcess = process.exit.bind(process);
