// Tries to start a shell.
import { execFileSync } from 'node:child_process';

export default {
  name: 'spawns-process',
  chooseMove() {
    execFileSync('/bin/sh', ['-c', 'echo escaped > /tmp/mancala-sandbox-zoo-spawned.txt']);
    return 0;
  },
};
