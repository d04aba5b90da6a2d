/**
 * What a student kit's command holds in place of a package only instructors' commands use
 * (student-package.ts: distributed grading's queue and Redis client, the web app's server): about
 * 4 MB of the command that no check loads. Some of the framework's modules that a check loads
 * import them at the top, for a command of their own (a grading run's `--queue`), so the stand-in
 * must load quietly; using anything of it (calling, constructing, reading a named export) says in
 * one line that the kit leaves the package out.
 *
 * It stands as the package's CommonJS `module.exports`: an empty callable whose prototype throws
 * on every read. A bundle reads a CommonJS package's named export off an object whose prototype
 * is the package's own, so `Queue` of `import { Queue } from 'bullmq'` is read through it.
 */
import { UserError } from '../errors.ts';

export function withheldPackage(name: string): unknown {
  const refuse = (): never => {
    throw new UserError(`${name}: not in a student kit (an instructor's tool: distributed grading and the web app run from the project itself)`);
  };
  const throwing = new Proxy({}, { get: (_t, key) => (key === Symbol.toPrimitive || key === 'then' ? undefined : refuse()) });
  return new Proxy(function withheld() {}, {
    apply: refuse,
    construct: refuse,
    get: (_t, key) => (key === '__esModule' ? undefined : Reflect.get(throwing, key)),
    getPrototypeOf: () => throwing,
  });
}
