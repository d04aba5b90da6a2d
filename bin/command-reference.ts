/**
 * docs/commands.md, the command reference, written from the CLI's own definitions: the commander
 * program `mancala` builds (framework/cli/main.ts), walked command by command — its usage, its
 * description, its arguments, its options with their descriptions, defaults and choices, and the
 * examples its --help prints. Nothing in it is written by hand, so it cannot drift from the CLI:
 * `npm run docs` rewrites it, and testcases/docs/command-reference.test.ts fails when the
 * committed page is not what this renders.
 */
import type { EventEmitter } from 'node:events';
import './plugins.ts';
import { Help, type Argument, type Command, type Option } from 'commander';
import { buildProgram } from '../framework/cli/main.ts';

/** Where the page lives, from the project root, and the command that rewrites it. */
export const COMMAND_REFERENCE_PATH = 'docs/commands.md';
export const REGENERATE_COMMAND = 'npm run docs';

const silent = { out: () => {}, err: () => {} };

/** Prose as Markdown shows it: `<testsuite>` outside a code span is text, not an HTML tag. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');
}

/** A table cell: one line of prose, with the characters a Markdown table would misread escaped. */
function cell(text: string): string {
  return prose(text.replace(/\s*\n\s*/g, ' ')).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').trim();
}

/** Inline code that survives backticks inside it. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`;
}

/** The full name, as typed: `mancala suite bless`. */
function fullName(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The text a command's --help prints after its options (its examples), as commander writes it. */
function helpAfter(command: Command): string {
  let text = '';
  const context = { error: false, command, write: (s: string) => void (text += s) };
  // commander's Command is an EventEmitter (its typings leave that out); addHelpText listens on afterHelp.
  for (const listener of (command as unknown as EventEmitter).listeners('afterHelp')) (listener as (c: typeof context) => void)(context);
  return text.replace(/^\n+|\s+$/g, '');
}

function defaultOf(value: unknown, description: string | undefined): string {
  if (description !== undefined) return description;
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function argumentRows(args: readonly Argument[]): string[] {
  if (args.length === 0) return [];
  const rows = ['| argument | what it is | default |', '| --- | --- | --- |'];
  for (const a of args) {
    const name = a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? '...' : ''}]`;
    const choices = a.argChoices ? ` (one of: ${a.argChoices.join(', ')})` : '';
    const dflt = defaultOf(a.defaultValue, a.defaultValueDescription);
    rows.push(`| ${code(name)} | ${cell(a.description + choices)} | ${dflt === '' ? '' : code(dflt.replace(/\|/g, '\\|'))} |`);
  }
  return rows;
}

function optionRows(options: readonly Option[]): string[] {
  if (options.length === 0) return [];
  const rows = ['| option | what it does | default |', '| --- | --- | --- |'];
  for (const o of options) {
    const required = o.mandatory ? ' (required)' : '';
    const choices = o.argChoices ? ` (one of: ${o.argChoices.join(', ')})` : '';
    const dflt = o.negate ? '' : defaultOf(o.defaultValue, o.defaultValueDescription);
    rows.push(`| ${code(o.flags)}${required} | ${cell(o.description + choices)} | ${dflt === '' ? '' : code(dflt.replace(/\|/g, '\\|'))} |`);
  }
  return rows;
}

/** The commands in the order `mancala --help` lists them, subcommands after their parent. */
function commandsOf(program: Command): Command[] {
  const all: Command[] = [];
  const visit = (c: Command): void => {
    for (const sub of c.commands) {
      all.push(sub);
      visit(sub);
    }
  };
  visit(program);
  return all;
}

function section(command: Command, help: Help): string[] {
  const lines = [`## ${fullName(command)}`, '', code(`${fullName(command)} ${command.usage()}`), ''];
  // A command with a summary only (suite bless) is described by it.
  const description = command.description() || command.summary();
  if (description !== '') lines.push(prose(description), '');
  const args = argumentRows(command.registeredArguments);
  if (args.length > 0) lines.push(...args, '');
  // Help options (-h) are the same everywhere and said once at the top.
  const options = optionRows(help.visibleOptions(command).filter((o) => o.long !== '--help'));
  if (options.length > 0) lines.push(...options, '');
  const subcommands = help.visibleCommands(command).filter((c) => c.name() !== 'help');
  if (subcommands.length > 0) {
    lines.push('Subcommands: ' + subcommands.map((c) => `[${c.name()}](#${anchorOf(c)})`).join(', ') + '.', '');
  }
  const after = helpAfter(command);
  if (after !== '') lines.push('```', after, '```', '');
  return lines;
}

/** GitHub's anchor of a section heading `mancala suite bless`: lower case, spaces to hyphens. */
function anchorOf(command: Command): string {
  return fullName(command).toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

/** The whole page, as `npm run docs` writes it. */
export async function renderCommandReference(): Promise<string> {
  const program = await buildProgram(silent);
  const help = program.createHelp();
  const commands = commandsOf(program).filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
  const lines = [
    '# Command reference',
    '',
    `<!-- Generated from the CLI's own definitions by bin/command-reference.ts: do not edit by hand; run \`${REGENERATE_COMMAND}\`. -->`,
    '',
    `Every \`mancala\` command with its arguments and options, as \`mancala <command> --help\` prints them. ` +
      `Run it with \`npx mancala\` in this project (after \`npm run build\`) or in a student kit. Every command takes ` +
      '`-h, --help`; a mistake in a flag or its value is one line on stderr and exit code 2.',
    '',
    '| command | what it does |',
    '| --- | --- |',
    ...commands.map((c) => `| [${fullName(c)}](#${anchorOf(c)}) | ${cell(c.summary() || c.description().split('\n')[0] || '')} |`),
    '',
  ];
  const after = helpAfter(program);
  if (after !== '') lines.push('```', after, '```', '');
  for (const command of commands) lines.push(...section(command, help));
  return lines.join('\n').replace(/\n+$/, '\n');
}
