/**
 * A private redis-server for the bench and the tests: on a free loopback port, in a temp folder,
 * without persistence (`--save ''`, no append-only file), stopped (and its folder removed) by
 * stop(). `restart()` stops it and starts it again on the same port: what a Redis restart does to
 * the runs using it (without persistence, it comes back empty).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../sandbox/jail/mechanisms.ts';
import { RedisCommands } from './redis-commands.ts';

export interface PrivateRedis {
  port: number;
  url: string;
  /** stops it (SIGKILL: as a crash would) and starts it again on the same port, empty */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Where redis-server is, or undefined when it is not installed (Debian: apt-get install redis-server). */
export function redisServerPath(): string | undefined {
  return findExecutable('redis-server');
}

/** A free TCP port on 127.0.0.1 (the OS picks it; it is free the moment this returns). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPing(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const c = new RedisCommands({ host: '127.0.0.1', port, connectTimeoutMs: 500 });
    try {
      await c.connect();
      if ((await c.send('PING')) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      c.close();
    }
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a redis-server of its own (see the module comment); throws when redis-server is not installed. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const binary = redisServerPath();
  if (binary === undefined) throw new Error('redis-server is not installed (Debian: apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'mancala-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const c = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes', '--loglevel', 'warning'], {
      cwd: dir,
      stdio: 'ignore',
    });
    child = c;
    const exited = new Promise<never>((_, reject) => c.once('exit', (code, signal) => reject(new Error(`redis-server exited at start (${code ?? signal})`))));
    await Promise.race([waitForPing(port, 10_000), exited]);
    exited.catch(() => {});
  };
  const kill = async () => {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await kill();
      await start();
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
