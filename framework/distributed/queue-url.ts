/**
 * `--queue redis://[[user]:password@]HOST[:PORT][/DB]`: where the distributed runs' Redis is.
 * A malformed URL, or a Redis that cannot be reached or refuses us, is one line (a UserError,
 * exit 2) within a few seconds, before anything is queued or served.
 */
import { UserError } from '../errors.ts';
import { RedisCommands, type RedisTarget } from './redis-commands.ts';

export interface QueueTarget extends RedisTarget {
  /** the URL as given, without its password: for messages and logs */
  shown: string;
}

const EXAMPLE = 'redis://HOST:PORT, e.g. redis://127.0.0.1:6379';

export function parseQueueUrl(text: string): QueueTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`--queue ${text}: not a URL: expected ${EXAMPLE}`);
  }
  if (url.protocol !== 'redis:') throw new UserError(`--queue ${text}: expected a redis:// URL (${EXAMPLE}), got ${url.protocol.replace(/:$/, '')}://`);
  if (url.hostname === '') throw new UserError(`--queue ${text}: no host: expected ${EXAMPLE}`);
  const port = url.port === '' ? 6379 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UserError(`--queue ${text}: port ${url.port}: expected 1 to 65535`);
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) throw new UserError(`--queue ${text}: /${path}: expected a database number (/0 to /15) or nothing`);
  if (url.search !== '' || url.hash !== '') throw new UserError(`--queue ${text}: expected no query or fragment (${EXAMPLE})`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const password = url.password !== '' ? decodeURIComponent(url.password) : undefined;
  const username = url.username !== '' && password !== undefined ? decodeURIComponent(url.username) : undefined;
  const shown = `redis://${url.hostname}:${port}${path !== '' ? `/${path}` : ''}`;
  return {
    host,
    port,
    shown,
    ...(password !== undefined ? { password } : {}),
    ...(username !== undefined ? { username } : {}),
    ...(path !== '' ? { db: Number(path) } : {}),
  };
}

/** Connects, authenticates and pings within `timeoutMs`; a UserError naming the URL and what went wrong otherwise. */
export async function probeRedis(target: QueueTarget, timeoutMs = 3000): Promise<void> {
  const c = new RedisCommands({ ...target, connectTimeoutMs: timeoutMs });
  try {
    const pong = await Promise.race([c.connect().then(() => c.send('PING')), new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer to PING within ${timeoutMs} ms`)), timeoutMs).unref())]);
    if (pong !== 'PONG') throw new Error(`PING answered ${JSON.stringify(pong)}: is this Redis?`);
  } catch (e) {
    const m = e instanceof Error ? e.message : String(e);
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ECONNREFUSED'
        ? 'connection refused (is redis-server running there, and listening on that address?)'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `no such host ${target.host}`
          : /NOAUTH|WRONGPASS|invalid password|AUTH/i.test(m)
            ? `authentication failed (${m})`
            : /^Connection (is )?closed/.test(m) || code === 'EPIPE' || code === 'ECONNRESET'
              ? 'the connection was closed before Redis answered (is Redis listening there?)'
              : m;
    throw new UserError(`--queue ${target.shown}: cannot reach Redis: ${why}`);
  } finally {
    c.close();
  }
}
