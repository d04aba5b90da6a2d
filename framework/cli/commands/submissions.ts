/**
 * `mancala submissions PATH… [--roster FILE] [--json]`: what the intake makes of the given
 * submissions (an LMS's zip or folder in any layout, folders, files), without running anything:
 * each student, their files as the course names them, the times and late marks the export gives,
 * what was left out, and with a roster who matched.
 */
import type { Command } from 'commander';
import { LAYOUT_NAMES } from '../../intake/layouts/detect.ts';
import { studentJson, studentText } from '../../student-text.ts';
import { describeIntake, takeInSubmissions, type Intake } from '../../intake/take-in.ts';
import type { SubmissionRecord } from '../../intake/submission.ts';
import { cleanUpOnInterrupt } from '../interrupt.ts';
import { rosterLines, rosterOption } from '../intake.ts';
import type { CliIo } from '../options.ts';

interface SubmissionsFlags {
  roster?: string;
  json?: boolean;
}

export function addSubmissionsCommand(program: Command, io: CliIo): void {
  program
    .command('submissions')
    .description("show what the submissions given are read as — each student's id, name, files, time and late mark, and the layout (Canvas, Moodle, Blackboard, Gradescope, GitHub Classroom, a folder per student, one submission) — without running anything")
    .argument('<path...>', "an LMS's download (zip or unzipped folder), a folder of students' folders, or submission folders and agent files")
    .addOption(rosterOption())
    .option('--json', 'print the records as JSON ({"version":1,"reads":[…],"submissions":[…],"notes":[…],"roster":{…}}) instead of text')
    .addHelpText(
      'after',
      [
        '',
        'Every command that takes submissions (grade, check, csci561-grade, gauntlet, tournament, similarity, match, play) reads them this way.',
        '',
        'Examples:',
        '  $ mancala submissions canvas-submissions.zip --roster canvas-gradebook.csv',
        '  $ mancala submissions moodle-download/ --json',
        '  $ mancala submissions submissions/*/',
      ].join('\n'),
    )
    .action(async (paths: string[], flags: SubmissionsFlags) => {
      cleanUpOnInterrupt(io);
      const intake = await takeInSubmissions(paths, flags.roster !== undefined ? { roster: flags.roster } : {});
      try {
        io.out(flags.json === true ? `${JSON.stringify(intakeJson(intake), null, 2)}\n` : renderIntake(intake));
      } finally {
        await intake.dispose();
      }
    });
}

/** A record as shown: everything but the snapshot's path, which is gone when the command ends. */
function shownRecord(r: SubmissionRecord): Omit<SubmissionRecord, 'path'> {
  const { path: _path, ...rest } = r;
  return rest;
}

/** The intake as JSON, every string of it through the sanitiser (names, files and notes are the students'). */
export function intakeJson(intake: Intake): unknown {
  return studentJson({
    version: 1,
    reads: intake.reads,
    submissions: intake.records.map(shownRecord),
    notes: intake.notes,
    ...(intake.roster !== undefined ? { roster: intake.roster } : {}),
  });
}

/** What students named (files, folders, their own names) reaches the terminal with its control characters shown, never obeyed. */
export function renderIntake(intake: Intake): string {
  return renderRaw(intake)
    .split('\n')
    .map((line) => studentText(line, { multiline: false, maxChars: 2000, maxLineChars: 2000 }))
    .join('\n');
}

function renderRaw(intake: Intake): string {
  const lines = [describeIntake(intake)];
  for (const read of intake.reads) lines.push(`${read.path}: ${LAYOUT_NAMES[read.layout]}, ${read.count} submission${read.count === 1 ? '' : 's'}`);
  for (const r of intake.records) {
    const who = [r.name, r.email].filter((x) => x !== undefined).join(' <') + (r.email !== undefined && r.name !== undefined ? '>' : '');
    const when = r.submittedAt === undefined ? '' : `, handed in ${r.submittedAt}${r.submittedAtSource === 'file-times' ? ' (the files\' times)' : ''}`;
    const attempt = r.attempt === undefined ? '' : `, attempt ${r.attempt}`;
    lines.push('', `${r.id}${who !== '' ? `  ${who}` : ''}${r.late === true ? '  LATE' : ''}${when}${attempt}`, `  from ${r.source}`);
    lines.push(`  ${r.files.length} file${r.files.length === 1 ? '' : 's'}${r.files.length === 0 ? '' : `: ${r.files.slice(0, 12).join(', ')}${r.files.length > 12 ? `, … (${r.files.length - 12} more)` : ''}`}`);
    for (const n of r.notes) lines.push(`  note: ${n}`);
  }
  if (intake.notes.length > 0) lines.push('', ...intake.notes.map((n) => `note: ${n}`));
  let text = `${lines.join('\n')}\n`;
  if (intake.roster !== undefined) text += `\n${rosterLines(intake.roster)}`;
  return text;
}
