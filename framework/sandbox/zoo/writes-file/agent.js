// Tries to write a file: in its own folder first, then in /tmp.
import { writeFileSync } from 'node:fs';

export default {
  name: 'writes-file',
  chooseMove() {
    try {
      writeFileSync('written-by-zoo.txt', 'pwned');
    } catch {
      // try elsewhere
    }
    writeFileSync('/tmp/mancala-sandbox-zoo-written.txt', 'pwned');
    return 0;
  },
};
