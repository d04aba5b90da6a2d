/**
 * `mancala serve`: the web app (framework/web/): play against any agent the CLI accepts, watch two
 * agents, step through replays, in the browser. It binds to 127.0.0.1 unless --host says otherwise,
 * reads replays, results and agent paths only under --root (default: the current folder), and runs
 * agents as `mancala play` does (submissions sandboxed). Ctrl-C stops it, closing every game's agents.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { describeMechanisms, findExecutable, sandboxFor } from '../../sandbox/jail/mechanisms.ts';
import { removeEveryTempFolderOfThisProcess } from '../../sandbox/jail/temp-folders.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';

interface ServeOptions extends SandboxFlags {
  port: number;
  host: string;
  open?: boolean;
  root?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Why listening failed, as one line naming the flag. */
function listenProblem(e: unknown, host: string, port: number): UserError | undefined {
  const code = (e as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') return new UserError(`--port ${port}: ${where} is already in use (another mancala serve?): stop it or choose another port with --port`);
  if (code === 'EACCES') return new UserError(`--port ${port}: not allowed to listen on ${where} (ports below 1024 need privileges): choose another port with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UserError(`--host ${host}: not an address of this machine (${code}): try 127.0.0.1`);
  return undefined;
}

/** Opens `url` in the default browser where the system says how (xdg-open, open, start); otherwise nothing. */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  if (process.platform !== 'win32' && findExecutable(command) === undefined) return;
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no browser to open: the URL is printed anyway
  }
}

export function addServeCommand(program: Command, io: CliIo): void {
  program
    .command('serve')
    .summary('the web app: play against an agent, watch two agents, step through replays, in the browser')
    .description(
      'A local web app. Play: you against any agent the CLI accepts (reference agents, submissions in any language, run sandboxed as ' +
        '`mancala play` runs them) or two agents watched live, under every course profile, with undo and hints. Replays: step through a ' +
        'replay written by `mancala match --replays` or `mancala gauntlet --replays`, or a game of a tournament\'s results. Binds to ' +
        '127.0.0.1 unless --host says otherwise; files and agent paths are read only under --root.',
    )
    .addOption(new Option('--port <n>', 'the port to listen on (0: any free port)').argParser(wholeNumber(0, 65_535, 'a port')).default(8080))
    .addOption(new Option('--host <host>', 'the address to listen on (0.0.0.0: every network; anyone who reaches it can run agents)').default('127.0.0.1'))
    .option('--open', 'open the app in the default browser')
    .addOption(new Option('--root <dir>', 'the folder replays, tournament results and agent paths are read under (default: the current folder)'))
    .addOption(weakSandboxOption())
    .addHelpText('after', ['', 'Examples:', '  $ mancala serve', '  $ mancala serve --port 9000 --open', '  $ mancala serve --root replays/'].join('\n'))
    .action(async (opts: ServeOptions) => {
      const root = resolve(opts.root ?? '.');
      if (!existsSync(root) || !statSync(root).isDirectory()) throw new UserError(`--root ${opts.root}: not a folder`);
      const host = opts.host.trim();
      if (host === '') throw new UserError('--host: expected an address, e.g. 127.0.0.1');
      const mode = sandboxMode(opts);
      const { createWebApp } = await import('../../web/server/app.ts');
      const app = await createWebApp({ root, sandbox: mode, host });
      try {
        await app.listen({ port: opts.port, host });
      } catch (e) {
        await app.close();
        throw listenProblem(e, host, opts.port) ?? e;
      }
      // Ctrl-C is heard from the moment the port is bound: a test, or a user, may stop the server as
      // soon as the URL appears, while the sandbox is still being probed.
      const stopped = new Promise<void>((done) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) process.exit(130);
          stopping = true;
          io.err(`\nmancala serve: stopping (${signal})\n`);
          void app
            .close()
            .catch(() => {})
            .finally(() => {
              removeEveryTempFolderOfThisProcess();
              done();
            });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : opts.port;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      const url = `http://${shownHost}:${port}/`;
      io.out(`mancala serve: ${url} (Ctrl-C stops); files and agent paths are read under ${root}\n`);
      if (!LOOPBACK.has(host)) io.err(`mancala serve: listening on ${host}: anyone who can reach this machine can run agents and read replays under ${root}\n`);
      try {
        io.err(`${describeMechanisms(await sandboxFor(mode), mode)}\n`);
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        io.err(`mancala serve: submissions cannot run here (${e.message}); reference agents can\n`);
      }
      if (opts.open === true) openBrowser(url);
      await stopped;
    });
}
