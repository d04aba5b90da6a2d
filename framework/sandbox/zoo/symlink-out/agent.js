// Reads answers.json, which the test makes a symlink to a file outside the submission.
import { readFileSync } from 'node:fs';

export default {
  name: 'symlink-out',
  chooseMove() {
    const answers = JSON.parse(readFileSync('answers.json', 'utf8'));
    return { move: answers.move };
  },
};
