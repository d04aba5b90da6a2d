/**
 * The file the pool's threads run (pool.ts): the composition root, the job server and every job
 * module, bundled into one JavaScript module (source-bundle.ts). A thread then starts in about
 * 250 ms; with tsx registered in each thread (its own loader thread, every TypeScript file
 * resolved and loaded one by one) it took about 0.6 s, and 1.1 s for two threads on two cores.
 */
import { fileURLToPath } from 'node:url';
import { sourceBundle } from './source-bundle.ts';

/** The bundle's entry: `default` serves a task with the job modules, found by their URLs. */
function entrySource(compositionRoot: string, jobModules: readonly string[]): string {
  const serveJob = fileURLToPath(new URL('./serve-job.ts', import.meta.url));
  const lines = [`import ${JSON.stringify(fileURLToPath(compositionRoot))};`, `import { serveJob } from ${JSON.stringify(serveJob)};`];
  jobModules.forEach((url, k) => lines.push(`import * as job${k} from ${JSON.stringify(fileURLToPath(url))};`));
  lines.push(`const modules = { ${jobModules.map((url, k) => `${JSON.stringify(url)}: job${k}`).join(', ')} };`);
  lines.push('export default (task) => serveJob(task, modules);');
  return lines.join('\n');
}

/**
 * A threads' module built ahead, with the job modules it holds (their URLs): a student kit's
 * package carries one, made when the kit was made, so that a check compiles nothing (the kit
 * installs no esbuild). Declared by the kit's composition root.
 */
let prebuilt: { file: string; modules: ReadonlySet<string> } | undefined;

export function usePrebuiltWorker(file: string, jobModules: readonly string[]): void {
  prebuilt = { file, modules: new Set(jobModules) };
}

/** The threads' module for these job modules, built or reused (or the prebuilt one, when it holds them all); its file's path. */
export function workerBundle(compositionRoot: string, jobModules: readonly string[]): Promise<string> {
  if (prebuilt !== undefined && jobModules.every((m) => prebuilt!.modules.has(m))) return Promise.resolve(prebuilt.file);
  return sourceBundle({ contents: entrySource(compositionRoot, jobModules), resolveDir: fileURLToPath(new URL('.', import.meta.url)) });
}
