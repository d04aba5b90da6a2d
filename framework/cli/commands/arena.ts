/**
 * `mancala arena`: a class's live ladder (framework/arena/). `start` serves it; `roster` adds
 * students; `standings`, `freeze` and `final` work on the folder directly (the database is one
 * SQLite file: another process may read it while the server runs). `mancala submit` uploads.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../../errors.ts';
import { studentJson, studentText } from '../../student-text.ts';
import { ARENA_COURSES } from '../../arena/course.ts';
import { wholeNumber, type CliIo } from '../options.ts';
import { queueOption } from '../queue-option.ts';
import { jobsOption } from '../jobs-option.ts';
import { sandboxMode, weakSandboxOption, type SandboxFlags } from '../sandbox-options.ts';

interface StartOptions extends SandboxFlags {
  roster?: string;
  course?: string;
  port: number;
  host: string;
  allowHost: string[];
  queue?: string;
  jobs: number;
  timePerMove?: number;
  timeBank?: number;
}

/** The LMS import files `arena grades --gradebook` writes (framework/grading/gradebook). */
const LMS_KINDS = ['canvas', 'moodle', 'blackboard'] as const;
const collect = (value: string, previous: string[]): string[] => [...previous, value.trim()];

function arenaDir(dir: string, mustExist: boolean): string {
  const root = resolve(dir);
  if (mustExist && !existsSync(join(root, 'arena.sqlite'))) throw new UserError(`${dir}: no arena here (no arena.sqlite): make one with mancala arena start ${dir}`);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new UserError(`${dir}: not a folder`);
  return root;
}

async function rosterEntries(file: string): Promise<{ id: string; name?: string; email?: string }[]> {
  const { readRoster } = await import('../../intake/roster.ts');
  return readRoster(file).entries.map((e) => ({ id: e.id, ...(e.name !== undefined ? { name: e.name } : {}), ...(e.email !== undefined ? { email: e.email } : {}) }));
}

export function addArenaCommand(program: Command, io: CliIo): void {
  const arena = program
    .command('arena')
    .summary("a class's live ladder: students submit all term; checks, a sanity stage, ratings with fixed anchors, a final")
    .description(
      'A live ladder over one folder: DIR/arena.sqlite (students, submissions, games, ratings) and DIR/submissions/. Each upload runs ' +
        "the course's public checks in the sandbox, then must beat random in seeded sanity games, then plays on the ladder (openskill " +
        'ratings, the reference agents as fixed anchors), its earlier version retired with its history.',
    )
    .addHelpText(
      'after',
      [
        '',
        'Starting:   mancala arena start DIR --roster roster.csv --course kalah   prints the URL with the instructor\'s token first,',
        '            writes DIR/tokens.csv (student id, token; mode 0600): send each student their token by a script of your choosing.',
        'The roster: a Canvas or Moodle gradebook export, or a plain CSV with an id column (and name, email). Starting again with a',
        '            roster adds the students not yet in the arena; `arena roster` adds them without serving:',
        '            mancala arena roster DIR roster.csv',
        'Students:   mancala submit --arena URL --token T FOLDER; GET /api/arena/me, /api/arena/submissions/ID (feedback),',
        '            /api/arena/games/ID and /api/arena/games/ID/log (their own only), /api/arena/standings (pseudonyms only).',
        'Freezing:   mancala arena freeze DIR: no more uploads or scrims; then mancala arena final DIR plays the final and writes',
        '            DIR/final/standings.json.',
        'Exporting:  mancala arena standings DIR --json  ({"standings":[{"student","pseudonym","rating","games","anchor",…}]}).',
        'Backup:     the database file and the submissions folder: copy DIR/arena.sqlite and DIR/submissions/ (stop the server, or',
        '            copy with sqlite3 DIR/arena.sqlite ".backup copy.sqlite"). A restart keeps everything: games left running are',
        '            played again, none counted twice.',
        '',
        'Examples:',
        '  $ mancala arena start fall-term --roster canvas-gradebook.csv --course kalah --port 8650',
        '  $ mancala arena start fall-term --queue redis://10.0.0.5:6379   # games played by mancala worker --queue … anywhere',
        '  $ mancala arena standings fall-term --json > standings.json',
        '  $ mancala arena freeze fall-term && mancala arena final fall-term',
      ].join('\n'),
    );

  arena
    .command('start')
    .description('creates or opens the arena in DIR and serves it; prints the URL with the instructor\'s token on its first lines')
    .argument('<dir>', 'the arena\'s folder (created)')
    .option('--roster <file>', 'students to add: a Canvas or Moodle gradebook export, or a CSV with an id column (name, email optional)')
    .addOption(new Option('--course <name>', "the course: its rules and its public checks (a new arena; default kalah)").choices(ARENA_COURSES.map((c) => c.name)))
    .addOption(new Option('--port <n>', 'the port to listen on (0: any free port)').argParser(wholeNumber(0, 65_535, 'a port')).default(8650))
    .addOption(new Option('--host <host>', 'the address to listen on (0.0.0.0: every network)').default('127.0.0.1'))
    .addOption(new Option('--allow-host <name>', 'another name this server answers to (repeatable)').argParser(collect).default([], 'none'))
    .addOption(new Option('--time-per-move <ms>', "a new arena's move clock").argParser(wholeNumber(1, 3_600_000, 'milliseconds')))
    .addOption(new Option('--time-bank <ms>', "a new arena's time bank a game: a move over the clock draws on it until it is empty").argParser(wholeNumber(0, 3_600_000, 'milliseconds')))
    .addOption(jobsOption('games played at once on this machine'))
    .addOption(queueOption('play the games'))
    .addOption(weakSandboxOption())
    .action(async (dir: string, opts: StartOptions) => {
      const root = arenaDir(dir, false);
      mkdirSync(root, { recursive: true });
      const host = opts.host.trim();
      const entries = opts.roster === undefined ? [] : await rosterEntries(opts.roster);
      const sandbox = sandboxMode(opts);
      const { Arena } = await import('../../arena/arena.ts');
      const { createArenaApp } = await import('../../arena/server.ts');
      const a = Arena.open(root, { ...(opts.course !== undefined ? { course: opts.course } : {}), ...(opts.timePerMove !== undefined ? { timePerMoveMs: opts.timePerMove } : {}), ...(opts.timeBank !== undefined ? { timeBankMs: opts.timeBank } : {}) }, {
        sandbox,
        jobs: opts.jobs,
        ...(opts.queue !== undefined ? { queue: opts.queue } : {}),
        // A game's or a check's failure may quote what a submission wrote: made terminal-safe (student-text.ts).
        log: (line) => io.err(`mancala arena: ${studentText(line)}\n`),
      });
      const token = a.instructorToken();
      const added = a.addStudents(entries);
      const app = await createArenaApp({ arena: a, host, allowHosts: opts.allowHost });
      try {
        await app.listen({ port: opts.port, host });
      } catch (e) {
        await app.close();
        a.close();
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new UserError(`--port ${opts.port}: ${host}:${opts.port} is already in use: stop what uses it or choose another port with --port`);
        throw e;
      }
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : opts.port;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      io.out(`mancala arena: http://${shownHost}:${port}/?token=${token}\n`);
      io.out(`instructor token: ${token} (kept in ${join(dir, 'instructor.token')})\n`);
      io.out(`students: ${a.store.students().length} (${added.length} added now); their tokens are in ${join(dir, 'tokens.csv')}\n`);
      io.out(`course ${a.settings.course}, rules ${a.settings.rules}, ${a.settings.timePerMoveMs} ms a move${(a.settings.timeBankMs ?? 0) > 0 ? ` + a ${a.settings.timeBankMs} ms time bank a game` : ''}; anchors ${a.settings.anchors.map((x) => `${x.spec} (${x.mu})`).join(', ')}${a.isFrozen() ? '; frozen' : ''}\n`);
      a.start();
      await new Promise<void>((done) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) process.exit(130);
          stopping = true;
          io.err(`mancala arena: stopping (${signal}): games in play are queued again\n`);
          void app
            .close()
            .catch(() => {})
            .then(() => a.stop())
            .finally(() => {
              a.close();
              done();
            });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });

  arena
    .command('roster')
    .description('adds the roster\'s students not yet in the arena; their tokens are appended to DIR/tokens.csv')
    .argument('<dir>', "the arena's folder")
    .argument('<file>', 'a Canvas or Moodle gradebook export, or a CSV with an id column')
    .action(async (dir: string, file: string) => {
      const root = arenaDir(dir, true);
      const entries = await rosterEntries(file);
      const { Arena } = await import('../../arena/arena.ts');
      const a = Arena.open(root);
      try {
        const added = a.addStudents(entries);
        io.out(`${added.length} student${added.length === 1 ? '' : 's'} added (${entries.length - added.length} already in the arena); tokens in ${join(dir, 'tokens.csv')}\n`);
      } finally {
        a.close();
      }
    });

  arena
    .command('standings')
    .description('the ladder now: each student\'s current submission and each anchor, by rating')
    .argument('<dir>', "the arena's folder")
    .option('--json', 'as JSON: {"standings":[{"student","pseudonym","rating","games","anchor",…}]}')
    .action(async (dir: string, opts: { json?: boolean }) => {
      const root = arenaDir(dir, true);
      const { Arena } = await import('../../arena/arena.ts');
      const a = Arena.open(root);
      try {
        const standings = a.standings();
        // A student's id comes from the roster, the instructor's file, but may hold what a student typed: every name is sanitised.
        if (opts.json === true) io.out(`${JSON.stringify(studentJson({ frozen: a.isFrozen(), standings }))}\n`);
        else {
          const rows = standings.map((s, k) => `${String(k + 1).padStart(3)}  ${s.rating.toFixed(2).padStart(6)}  ${String(s.games).padStart(5)}  ${s.wins}-${s.draws}-${s.losses}  ${s.anchor ? `${s.pseudonym} (anchor)` : `${s.pseudonym} (${s.student})`}`);
          io.out(studentText(['  #  rating  games  W-D-L  who', ...rows].join('\n') + '\n', { maxChars: Infinity }));
        }
      } finally {
        a.close();
      }
    });

  arena
    .command('grades')
    .description("each student's grade from the standings under a rule file (YAML: points for a rating above named anchors, rank bonuses; docs/arena.md), as CSV")
    .argument('<dir>', "the arena's folder")
    .requiredOption('--rule <file>', 'the grading rule (YAML): points, anchors: [{beat, points}], rank: [{top, points}]')
    .option('--out <file>', 'write the CSV there instead of to standard output')
    .option('--gradebook <kind>', `the file's form: csv (the arena's own: student,score,max_score,feedback) or an LMS's grade import, ${LMS_KINDS.join(', ')} (docs/gradebooks.md)`, 'csv')
    .option('--roster <file>', "the LMS's roster (the one the arena started with, or a newer one), for the ids an LMS import needs: Canvas's user ids, Blackboard's usernames, Moodle's emails or ID numbers")
    .option('--assignment <name>', 'the assignment\'s name in the gradebook, with its LMS id to fill an existing column: "Mancala arena (12345)" (Canvas), "Mancala arena |123456" (Blackboard)', 'Mancala arena')
    .action(async (dir: string, opts: { rule: string; out?: string; gradebook: string; roster?: string; assignment: string }) => {
      if (opts.gradebook !== 'csv' && !(LMS_KINDS as readonly string[]).includes(opts.gradebook)) throw new UserError(`--gradebook ${opts.gradebook}: expected csv, ${LMS_KINDS.join(', ')}`);
      const root = arenaDir(dir, true);
      const { Arena } = await import('../../arena/arena.ts');
      const { gradesFrom, readGradeRule } = await import('../../arena/grade-rules.ts');
      const { csvText } = await import('../../grading/reporters/csv.ts');
      const a = Arena.open(root);
      try {
        const rule = readGradeRule(opts.rule, a.settings.anchors);
        const grades = gradesFrom(a.standings(), a.settings.anchors, rule, a.store.students().map((s) => s.id));
        let text: string;
        if (opts.gradebook === 'csv') text = ['student,score,max_score,feedback', ...grades.map((g) => [g.student, String(g.score), String(g.maxScore), g.feedback].map(csvText).join(','))].join('\r\n') + '\r\n';
        else {
          const { arenaGradebook } = await import('../../arena/grade-export.ts');
          const book = arenaGradebook(opts.gradebook as (typeof LMS_KINDS)[number], grades, a.store.students(), opts.roster, opts.assignment);
          for (const line of [...book.notes, ...(book.left.length > 0 ? [`left out of the ${opts.gradebook} import (no LMS id; give --roster): ${book.left.join(', ')}`] : [])]) io.err(`${line}\n`);
          text = book.text;
        }
        if (opts.out === undefined) io.out(text);
        else {
          const { writeFileSync } = await import('node:fs');
          writeFileSync(opts.out, text);
          io.out(`${opts.out}: ${grades.length} students graded under ${opts.rule}\n`);
        }
      } finally {
        a.close();
      }
    });

  arena
    .command('freeze')
    .description('closes the term: no new submissions or scrims; games already queued are still played')
    .argument('<dir>', "the arena's folder")
    .action(async (dir: string) => {
      const root = arenaDir(dir, true);
      const { Arena } = await import('../../arena/arena.ts');
      const a = Arena.open(root);
      a.freeze();
      a.close();
      io.out(`${dir}: frozen: no new submissions; mancala arena final ${dir} plays the final\n`);
    });

  arena
    .command('final')
    .description('the final of a frozen arena: staged round robins (every pair, both seats; the bottom cut, more games among the rest); writes DIR/final/standings.json')
    .argument('<dir>', "the arena's folder")
    .addOption(new Option('--games-per-pair <n>', "the first stage's games a pair (even: both seats)").argParser(wholeNumber(2, 10_000, 'games a pair')).default(4))
    .addOption(new Option('--stages <n>', 'round robins, each among the top half of the one before').argParser(wholeNumber(1, 10, 'stages')).default(2))
    .addOption(jobsOption('games played at once'))
    .addOption(queueOption('play the games'))
    .addOption(weakSandboxOption())
    .action(async (dir: string, opts: SandboxFlags & { gamesPerPair: number; stages: number; jobs: number; queue?: string }) => {
      const root = arenaDir(dir, true);
      const { Arena } = await import('../../arena/arena.ts');
      const { playFinal } = await import('../../arena/final.ts');
      const a = Arena.open(root);
      try {
        if (!a.isFrozen()) throw new UserError(`${dir}: not frozen: run mancala arena freeze ${dir} first (the final plays the submissions as they stand)`);
        const result = await playFinal(a, { gamesPerPair: opts.gamesPerPair, stages: opts.stages, jobs: opts.jobs, sandbox: sandboxMode(opts), ...(opts.queue !== undefined ? { queue: opts.queue } : {}), log: (l) => io.err(`${studentText(l)}\n`) });
        io.out(studentText(result.text, { maxChars: Infinity }));
        io.err(`wrote ${join(dir, 'final', 'standings.json')}\n`);
      } finally {
        a.close();
      }
    });
}

export function addSubmitCommand(program: Command, io: CliIo): void {
  program
    .command('submit')
    .description("uploads a submission to a class arena: the folder (or a zip) is zipped and sent; prints the arena's answer")
    .argument('<path>', 'your submission: a folder, or a zip of it')
    .requiredOption('--arena <url>', 'the arena\'s address, e.g. http://lab-server:8650')
    .requiredOption('--token <token>', 'your token (from your instructor)')
    .option('--wait', 'wait for the checks and the sanity stage, and print the verdict')
    .action(async (path: string, opts: { arena: string; token: string; wait?: boolean }) => {
      const { submitToArena } = await import('../../arena/submit.ts');
      const out = await submitToArena(path, opts.arena, opts.token, { wait: opts.wait === true });
      io.out(out);
    });
}
