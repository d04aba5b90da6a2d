import { describe, expect, it } from 'vitest';
import { buildProgram } from './main.ts';
import { DEFAULT_JOBS_WORDS, defaultJobs, MAX_DEFAULT_JOBS } from './jobs-option.ts';

const quiet = { out: () => {}, err: () => {} };

describe('--jobs', () => {
  it('has one default in every command that takes it (grade and csci561-grade included), said in words, not as this machine\'s number', async () => {
    const program = await buildProgram(quiet);
    const withJobs = program.commands.filter((c) => c.name() !== 'solve' && c.options.some((o) => o.long === '--jobs'));
    expect(withJobs.map((c) => c.name())).toEqual(expect.arrayContaining(['grade', 'csci561-grade', 'examples', 'similarity', 'match', 'tournament', 'gauntlet']));
    for (const command of withJobs) {
      const jobs = command.options.find((o) => o.long === '--jobs')!;
      expect({ command: command.name(), value: jobs.defaultValue, words: jobs.defaultValueDescription }).toEqual({ command: command.name(), value: defaultJobs(), words: DEFAULT_JOBS_WORDS });
    }
    expect(defaultJobs()).toBeGreaterThanOrEqual(1);
    expect(defaultJobs()).toBeLessThanOrEqual(MAX_DEFAULT_JOBS);
  });
});
