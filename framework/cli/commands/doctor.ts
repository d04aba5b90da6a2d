/**
 * `mancala doctor [folders…]`: does this machine have what a student kit's course needs? Node
 * (the checker's) and the course's language (kit.json's `requires`: kit/requirements.ts). In a
 * kit every command that runs the student's code checks the same first (requireKitTools), so a
 * missing python3 or JDK is one line naming what to install, before anything runs; `npm run play`
 * runs this command before a course's own game manager.
 */
import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { UserError } from '../../errors.ts';
import { loadCourseKit } from '../../kit/course-kit.ts';
import { missingRequirement, type Requirement } from '../../kit/requirements.ts';
import { studentKitCourse, studentKitRequirements } from '../../plugins/student-kit.ts';
import { findExecutable } from '../../sandbox/jail/mechanisms.ts';
import type { CliIo } from '../options.ts';

/** The folders a requirement's `when` looks in: the command's arguments that are folders, else the kit's agent/. */
function foldersOf(args: readonly string[]): string[] {
  const folders = args.filter((a) => existsSync(a) && statSync(a).isDirectory());
  return folders.length > 0 ? folders : ['agent'];
}

/** Throws the one line naming what to install when a tool of `requires` is missing (an old Node is refused by bin/mancala.js). */
export function requireTools(requires: readonly Requirement[], args: readonly string[]): void {
  const problem = missingRequirement(requires, foldersOf(args));
  if (problem !== undefined) throw new UserError(problem, 1);
}

/** In a student kit: the kit's requirements, checked before a command runs the student's code. */
export function requireKitTools(args: readonly string[]): void {
  if (studentKitCourse() !== undefined) requireTools(studentKitRequirements(), args);
}

export function addDoctorCommand(program: Command, io: CliIo): void {
  program
    .command('doctor')
    .summary("check that this machine has what the student kit needs: Node and the course's language")
    .description(
      "Checks Node and the tools the kit's course needs (kit.json's requires: python3, a JDK, g++ …) and prints one line naming what to " +
        "install when one is missing (exit code 1). In a student kit it checks the kit's course; in the project, the course given with --course.",
    )
    .argument('[folders...]', "the student's folders (a requirement that depends on the files, e.g. *.java, looks there; default agent)")
    .option('--course <course>', "the course whose kit.json to read (the project's tool; a kit knows its own)")
    .action((folders: string[], opts: { course?: string }) => {
      const course = studentKitCourse() ?? opts.course;
      if (course === undefined) throw new UserError('doctor: not a student kit: give --course (csc384, cpsc4610, …)');
      const requires = studentKitCourse() !== undefined ? studentKitRequirements() : (loadCourseKit(course).requires ?? []);
      requireTools(requires, folders);
      const tools = requires.flatMap((r) => (typeof r.tool === 'string' ? [r.tool] : r.tool)).map((t) => `${t} ${findExecutable(t) ?? '(not needed here)'}`);
      io.out(`the ${course} kit has what it needs: Node ${process.versions.node}${tools.map((t) => `, ${t}`).join('')}\n`);
    });
}
