/**
 * Inside a job's worker thread: a local executor (its own players) driven by messages from
 * worker-executor.ts. One game at a time, so an in-process reference agent's search never delays
 * the clock of another game's sandboxed agent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import { localExecutor, type JobSetup } from './executor.ts';
import type { FromWorker, ToWorker } from './worker-executor.ts';

const port = parentPort!;
const executor = localExecutor(workerData as JobSetup);
const send = (m: FromWorker) => port.postMessage(m);

port.on('message', (m: ToWorker) => {
  if (m.type === 'play') {
    executor.play(m.game).then(
      (record) => send({ type: 'played', index: m.game.index, record }),
      (e: unknown) =>
        send({
          type: 'failed',
          index: m.game.index,
          user: e instanceof UserError,
          message: e instanceof Error ? e.message : String(e),
          stack: e instanceof Error ? (e.stack ?? '') : '',
        }),
    );
  } else {
    void executor.close().finally(() => {
      send({ type: 'closed' });
      port.close();
    });
  }
});
