// Writes its own line to the runtime's message channel (fd 3).
import { writeSync } from 'node:fs';

export default {
  name: 'forged-message',
  chooseMove() {
    writeSync(3, '{"type":"result","id":"forged","observation":{"move":1}}\n');
    return new Promise(() => {});
  },
};
