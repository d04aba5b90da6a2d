/**
 * The course-file copy of the public csci561 cases (what the CSCI-561 student kit grades programs
 * with) stays what the reference writes: each input is csci561-public's, and each expected file is
 * the reference solution's output for it, OPTIONAL lines marked as the official files mark them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { solveCsci561 } from '../../agents/reference/csci561-task.ts';

const here = dirname(fileURLToPath(import.meta.url));
const publicInputs = join(here, '../csci561-public/inputs');

describe('csci561-public-programs', () => {
  const ids = readdirSync(publicInputs).map((f) => f.replace(/\.txt$/, '')).sort();

  it('holds one case per input of csci561-public, and nothing else of the course format', () => {
    const inputs = readdirSync(here).filter((f) => f.startsWith('testInput_')).map((f) => f.replace(/^testInput_|\.txt$/g, '')).sort();
    expect(inputs).toEqual(ids);
    expect(ids).toHaveLength(30);
  });

  it.each(ids)('%s: the input is the public one, the expected files the reference\'s', (id) => {
    const input = readFileSync(join(publicInputs, `${id}.txt`), 'utf8');
    expect(readFileSync(join(here, `testInput_${id}.txt`), 'utf8')).toBe(input);
    const solved = solveCsci561(input, `${id}.txt`, { optionalLines: 'mark' });
    expect(readFileSync(join(here, `next_state_${id}.txt`), 'utf8')).toBe(solved.nextState);
    const log = readdirSync(here).includes(`traverse_log_${id}.txt`) ? readFileSync(join(here, `traverse_log_${id}.txt`), 'utf8') : undefined;
    expect(log).toBe(solved.traverseLog === undefined ? undefined : `${solved.traverseLog.join('\n')}\n`);
  });
});
