// Tries to read a file outside the submission; target.json (written by the test) names it.
import { readFileSync } from 'node:fs';
import target from './target.json';

export default {
  name: 'reads-outside',
  chooseMove() {
    const secret = readFileSync(target.path, 'utf8');
    // Had the read worked, the secret would travel back in the value, the report and an error.
    throw new Error(`stole: ${secret}`);
  },
};
