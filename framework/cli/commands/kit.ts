/**
 * `mancala kit <course> --out DIR [--list]`: a course's student kit (framework/kit/): the folder
 * its students unzip and `npm run check` in (`node mancala.mjs check`: nothing to install). `--list` prints every file of the kit, and
 * of the framework package inside it, with the reason it may be there.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { kitCourses, loadCourseKit } from '../../kit/course-kit.ts';
import { checkKitFolder, writeKit } from '../../kit/kit-folder.ts';
import { checkOutputFolder } from '../output-paths.ts';
import type { CliIo } from '../options.ts';

export function addKitCommand(program: Command, io: CliIo): void {
  program
    .command('kit')
    .summary("write a course's student kit: its starter, public suites and the framework without the reference solutions")
    .description(
      "Write the folder a course's students receive: the starter (agent/), the public suites (suites/), and the framework as an npm " +
        "package (vendor/, built for the course: only a TypeScript student's own agent is compiled at check time, by the command itself) holding no reference solution, example submission, hidden suite or instructor-only data. " +
        'In the kit, `npm run check` (or `node mancala.mjs check`) runs the public checks on agent/ with nothing installed, in every course.',
    )
    .argument('<course>', `the course: ${kitCourses().join(', ')}`)
    .requiredOption('--out <dir>', 'the folder to write (new, empty, or an earlier kit, which is replaced)')
    .option('--list', 'also print every file with the reason it may be there')
    .addHelpText(
      'after',
      ['', 'Examples:', '  $ mancala kit csci561 --out kits/csci561', '  $ mancala kit cs540 --out kits/cs540 --list', '  $ cd kits/csci561 && zip -r ../csci561-kit.zip . -x "node_modules/*"'].join('\n'),
    )
    .action(async (course: string, opts: { out: string; list?: boolean }) => {
      const kit = loadCourseKit(course);
      checkKitFolder(opts.out);
      checkOutputFolder('--out', opts.out);
      const written = await writeKit(kit, resolve(opts.out));
      if (opts.list === true) {
        const width = Math.max(...written.files.map((f) => f.path.length));
        for (const f of written.files) io.out(`${f.path.padEnd(width)}  ${f.why}\n`);
      }
      const inPackage = written.files.filter((f) => f.path.startsWith('vendor/')).length;
      io.out(
        `wrote the ${course} kit to ${opts.out}: ${written.files.length} files, ${(written.bytes / 1e6).toFixed(1)} MB ` +
          `(the framework package ${(written.packageBytes / 1e6).toFixed(1)} MB, ${inPackage} files); students run npm run check there\n`,
      );
    });
}
