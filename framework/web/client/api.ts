/**
 * The page's calls to the server's API (framework/web/shared/api.ts): JSON in, JSON out. A
 * refusal (4xx) becomes an ApiFailure holding the server's one-line reason, which the page shows.
 */

export class ApiFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export async function api<T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiFailure(0, 'the server does not answer: is `mancala serve` still running?');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ApiFailure(response.status, `the server answered ${response.status} with something other than JSON`);
  }
  if (!response.ok) {
    const error = (data as { error?: unknown }).error;
    throw new ApiFailure(response.status, typeof error === 'string' ? error : `the server answered ${response.status}`);
  }
  return data as T;
}

/** The query string of `params`, its undefined values left out. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

/** What the server said of itself at start (GET /api/health): read-only, it runs nothing, and the page hides what would; arena, `mancala arena start`'s (its games' replays come from its API). */
export const server = { readOnly: false, arena: false };
