import { describe, expect, it } from 'vitest';
import { analyze, makeFile, PARSED_LANGUAGES } from './dolos-index.ts';
import { SOURCE_LANGUAGES } from './source-files.ts';

describe("Dolos's index with WebAssembly parsers", () => {
  it('has a grammar for every language --language accepts, and each loads and parses', async () => {
    expect([...SOURCE_LANGUAGES]).toEqual([...PARSED_LANGUAGES]);
    for (const language of PARSED_LANGUAGES) {
      const text = 'x = f(1, 2);\ny = g(x);\n';
      const { files } = await analyze(language, [await makeFile('a', text), await makeFile('b', text)]);
      expect(files[0]!.tokens.length, language).toBeGreaterThan(3);
      // The tokens are the tree's: a node's type in parentheses, as Dolos's CodeTokenizer makes them.
      expect(files[0]!.tokens[0], language).toBe('(');
    }
  });

  it('a renamed copy shares every fingerprint; another program shares fewer', async () => {
    const a = 'def best(pits):\n    m = -1\n    for i in range(len(pits)):\n        if pits[i] > 0 and (m < 0 or pits[i] > pits[m]):\n            m = i\n    return m\n';
    const b = a.replaceAll('best', 'choose').replaceAll('pits', 'board').replaceAll('m', 'k');
    const c = 'import random\n\ndef move(board):\n    legal = [i for i, s in enumerate(board) if s]\n    random.shuffle(legal)\n    return legal[0] if legal else None\n';
    const { files, index } = await analyze('python', [await makeFile('a.py', a), await makeFile('b.py', b), await makeFile('c.py', c)]);
    const copy = index.getPair(files[0]!, files[1]!);
    expect(copy.leftCovered).toBe(copy.leftTotal);
    const other = index.getPair(files[0]!, files[2]!);
    expect(other.leftCovered).toBeLessThan(other.leftTotal);
  });

  it('refuses a language it has no grammar for, by name', async () => {
    await expect(analyze('cobol', [await makeFile('a', 'x'), await makeFile('b', 'x')])).rejects.toThrow(/no parser for cobol \(these are: bash, c, /);
  });
});
