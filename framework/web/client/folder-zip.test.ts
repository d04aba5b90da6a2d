/**
 * The arena page's folder upload, zipped as `mancala submit` zips a folder: the picked folder's
 * name off the paths, the same folders left out, name order, the arena's bound said before zipping.
 * Read back with a zip reader of its own (fflate's), so a zip the page makes is one a reader takes.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MAX_SUBMISSION_BYTES } from '../../arena/limits.ts';
import { zipFiles, type PickedFile } from './folder-zip.ts';

const file = (path: string, text: string): PickedFile => ({ path, file: new File([text], path.split('/').at(-1)!) });

describe('a folder zipped in the page', () => {
  it('keeps the files inside the folder, leaves out what mancala submit leaves out', async () => {
    const zip = await zipFiles([
      file('my-agent/src/agent.py', 'print(1)'),
      file('my-agent/agent.json', '{}'),
      file('my-agent/.git/config', 'secret'),
      file('my-agent/src/__pycache__/agent.pyc', 'x'),
      file('my-agent/node_modules/a/index.js', 'x'),
    ]);
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual(['agent.json', 'src/agent.py']);
    expect(new TextDecoder().decode(back['src/agent.py'])).toBe('print(1)');
  });

  it('refuses an empty folder and one larger than the arena takes, before zipping', async () => {
    await expect(zipFiles([file('my-agent/.git/HEAD', 'x')])).rejects.toThrow(/no file to submit/);
    await expect(zipFiles([file('my-agent/big.bin', 'x'.repeat(MAX_SUBMISSION_BYTES + 1))])).rejects.toThrow(`more than the ${MAX_SUBMISSION_BYTES / 1024 / 1024} MB the arena takes`);
    // The page's bound is the server's (it keeps a copy: the web folder does not import the arena's).
    expect(await zipFiles([file('my-agent/just.bin', 'x'.repeat(MAX_SUBMISSION_BYTES))])).toBeInstanceOf(Uint8Array);
  });
});
