// The entry of the worker pool's threads (pool.ts): plain JavaScript so a thread can start without
// a TypeScript loader; it registers tsx (loaders are per thread on Node 20) and hands piscina the
// job server, which loads each job's own TypeScript module when its first task arrives.
import { register } from 'tsx/esm/api';

register();
const { serveJob } = await import('./serve-job.ts');
export default serveJob;
