/**
 * The API's errors: every request the server refuses is answered 4xx with `{"error": "one line"}`,
 * a reason the page shows as it is. A route throws HttpError (or a UserError: the CLI's own
 * one-line messages, a malformed replay naming its file and field, are 400s here); the error
 * handler (app.ts) answers both, and anything else Fastify raised on a malformed request.
 */
import * as z from 'zod';
import { UserError } from '../../errors.ts';
import { describeValue, formatPath, valueAt } from '../../field-path.ts';

export class HttpError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
  }
}

/** A message as one line (the CLI's errors may carry a second line of hints). */
export function oneLine(message: string): string {
  const line = message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
  return line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
}

/** The status and one-line reason of anything a route or Fastify threw; 500 for a bug. */
export function errorReply(e: unknown): { status: number; error: string } {
  if (e instanceof HttpError) return { status: e.statusCode, error: oneLine(e.message) };
  if (e instanceof UserError) return { status: 400, error: oneLine(e.message) };
  const status = (e as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, error: oneLine(e instanceof Error ? e.message : String(e)) || 'bad request' };
  }
  return { status: 500, error: `internal error: ${oneLine(e instanceof Error ? e.message : String(e))}` };
}

/** `data` checked against `schema`, or a 400 naming the field (`body field "move": expected …, got "x"`). */
export function checked<T>(schema: z.ZodType<T>, data: unknown, where: 'body' | 'query' | 'path'): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') throw new HttpError(400, `${where} field "${formatPath([...issue.path, issue.keys[0]!])}": unknown field`);
  if (issue.path.length === 0) throw new HttpError(400, `${where}: ${issue.message}${data === undefined ? ', but there is none' : `, got ${describeValue(data)}`}`);
  const value = valueAt(data, issue.path);
  throw new HttpError(400, `${where} field "${formatPath(issue.path)}": ${issue.message}${value === undefined ? ', but it is missing' : `, got ${describeValue(value)}`}`);
}
