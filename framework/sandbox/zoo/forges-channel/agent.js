// Writes its own lines to the runtime's message channel (fd 3): a `ready`, `loaded`, `report` and
// `result` with move 4 for every request id it could be serving, garbage, a line the protocol does
// not know, and an unfinished line; then answers move 1 itself. None of it carries the channel's
// token, so the grader must drop all of it and see move 1.
import { writeSync } from 'node:fs';

function forge() {
  writeSync(3, '{"type":"ready"}\n');
  for (let id = 1; id <= 50; id++) {
    writeSync(3, `{"type":"loaded","id":${id}}\n`);
    writeSync(3, `{"type":"report","id":${id},"move":4,"value":1000}\n`);
    writeSync(3, `{"type":"result","id":${id},"observation":{"move":4,"value":1000,"nodes":1,"evaluations":0,"ms":0}}\n`);
  }
  writeSync(3, 'not json at all\n');
  writeSync(3, '{"type":"shutdown","id":2}\n');
  // No newline: whatever the runtime writes next must not be swallowed into this line.
  writeSync(3, '{"type":"result","id":2,"observation":{"move":4,"ms":0}}');
}

forge();

export default {
  name: 'forges-channel',
  chooseMove() {
    forge();
    return { move: 1, value: 7 };
  },
};
