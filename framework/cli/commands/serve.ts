/**
 * `mancala serve`: the web app (framework/web/): play against any agent the CLI accepts, watch two
 * agents, step through replays, in the browser. It binds to 127.0.0.1 unless --host says otherwise,
 * reads replays, results and agent paths only under --root (default: the current folder), and runs
 * agents as `mancala play` does (submissions sandboxed). Every request carries the token printed in
 * its URL (web/server/access.ts). Ctrl-C stops it, closing every game's agents.
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
  /** a string (--token, MANCALA_SERVE_TOKEN), false (--no-token), or undefined: a new one */
  token?: string | false;
  allowHost: string[];
  readOnly?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const TOKEN_ENV = 'MANCALA_SERVE_TOKEN';

/** The token the server asks for: --token, else MANCALA_SERVE_TOKEN, else a new one; null with --no-token (loopback only). */
function chooseToken(opts: ServeOptions, host: string, patternOk: (t: string) => boolean, fresh: () => string): string | null {
  if (opts.token === false) {
    if (!LOOPBACK.has(host)) throw new UserError(`--no-token: only with a loopback --host (127.0.0.1, localhost, ::1), not ${host}: anyone who reaches ${host} could then run agents and read every file under --root`);
    return null;
  }
  const given = opts.token ?? process.env[TOKEN_ENV];
  if (given === undefined) return fresh();
  const where = opts.token !== undefined ? '--token' : TOKEN_ENV;
  if (!patternOk(given)) throw new UserError(`${where}: expected 16 to 512 printable characters without spaces (e.g. the output of openssl rand -hex 24), got ${given.length} characters`);
  return given;
}

const collect = (value: string, previous: string[]): string[] => {
  const name = value.trim();
  if (name === '' || /[\s/@]/.test(name)) throw new UserError(`--allow-host ${JSON.stringify(value)}: expected a host name or address, e.g. lab-server.example.edu`);
  return [...previous, name];
};

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
        '127.0.0.1 unless --host says otherwise; files and agent paths are read only under --root. Every request needs the token ' +
        'of the printed URL (as Jupyter asks for one), and must name this server in its Host (loopback, the machine\'s addresses, --allow-host).',
    )
    .addOption(new Option('--port <n>', 'the port to listen on (0: any free port)').argParser(wholeNumber(0, 65_535, 'a port')).default(8080))
    .addOption(new Option('--host <host>', 'the address to listen on (0.0.0.0: every network; anyone who reaches it with the token can run agents)').default('127.0.0.1'))
    .option('--open', 'open the app in the default browser')
    .addOption(new Option('--token <value>', `the token every request must carry (default: a new random one, printed in the URL; also ${TOKEN_ENV})`))
    .addOption(new Option('--no-token', 'ask for no token: only with a loopback --host, for one-user machines'))
    .addOption(
      new Option('--allow-host <name>', 'another name this server answers to, as the browser writes it in the address (repeatable; loopback and the machine\'s own addresses always are)')
        .argParser(collect)
        .default([], 'none'),
    )
    .option('--read-only', 'a display (a class watching a projector): standings, replays and reports are shown; no game, search or upload runs')
    .addOption(new Option('--root <dir>', 'the folder replays, tournament results and agent paths are read under (default: the current folder)'))
    .addOption(weakSandboxOption())
    .addHelpText(
      'after',
      [
        '',
        'Every request needs the token of the URL printed on the first line (opened once, a cookie keeps it).',
        '',
        'Examples:',
        '  $ mancala serve',
        '  $ mancala serve --port 9000 --open',
        '  $ mancala serve --root replays/',
        '  $ mancala serve --host 0.0.0.0 --allow-host lab-server.example.edu --read-only',
      ].join('\n'),
    )
    .action(async (opts: ServeOptions) => {
      const root = resolve(opts.root ?? '.');
      if (!existsSync(root) || !statSync(root).isDirectory()) throw new UserError(`--root ${opts.root}: not a folder`);
      const host = opts.host.trim();
      if (host === '') throw new UserError('--host: expected an address, e.g. 127.0.0.1');
      const mode = sandboxMode(opts);
      const { createWebApp } = await import('../../web/server/app.ts');
      const { newToken, TOKEN_PATTERN } = await import('../../web/server/access.ts');
      const token = chooseToken(opts, host, (t) => TOKEN_PATTERN.test(t), newToken);
      const app = await createWebApp({ root, sandbox: mode, host, token, allowHosts: opts.allowHost, readOnly: opts.readOnly === true });
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
      const url = `http://${shownHost}:${port}/${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;
      io.out(`mancala serve: ${url} (Ctrl-C stops); files and agent paths are read under ${root}${opts.readOnly === true ? '; read-only' : ''}\n`);
      if (!LOOPBACK.has(host)) io.err(`mancala serve: listening on ${host}: anyone who can reach this machine and has the token can ${opts.readOnly === true ? 'read' : 'run agents and read'} replays and reports under ${root}\n`);
      if (token === null) io.err('mancala serve: --no-token: every user of this machine can use the app\n');
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
