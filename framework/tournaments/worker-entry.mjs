// The entry of a tournament job's worker thread: plain JavaScript so the thread can start without
// a TypeScript loader, then registers tsx (loaders are per thread) and runs the job (worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
