// The entry of the worker pool's threads (pool.ts): plain JavaScript so a thread can start without
// a TypeScript loader; it registers tsx (loaders are per thread on Node 20) and hands piscina the
// job server, which loads each job's own TypeScript module when its first task arrives.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// The plugins (reference agents, graders) this thread's jobs may look up, as the main thread has them.
await import(workerData.compositionRoot);
const { serveJob } = await import('./serve-job.ts');
export default serveJob;
