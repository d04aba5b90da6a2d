/**
 * A folder picked or dropped on the arena page, zipped in the browser (fflate: a small, well-kept
 * zip writer that runs in the page; yazl, which `mancala submit` uses, needs Node's streams) as
 * `mancala submit` zips one (framework/arena/submit.ts): regular files only, in name order, the
 * same folders left out, the picked folder's own name taken off the paths, at most the arena's
 * upload bound. The server unpacks it with the grader's hostile-safe reader whatever the page sent.
 */
import { zipSync, type Zippable } from 'fflate';

const LEFT_OUT = new Set(['.git', 'node_modules', '__pycache__', '.venv', '.DS_Store']);
const MTIME = new Date('2020-01-01T00:00:00Z');
/**
 * The arena's upload bound (framework/arena/limits.ts MAX_SUBMISSION_BYTES; importing it would
 * tie the web folder to the arena's, which imports the web server): said here before zipping a
 * folder too large, and checked by the server again whatever the page sends.
 */
const MAX_SUBMISSION_BYTES = 8 * 1024 * 1024;

export interface PickedFile {
  /** the path inside the picked folder, the folder's own name included ("my-agent/src/agent.py") */
  path: string;
  file: File;
}

/** The files a folder input (webkitdirectory) gives. */
export function pickedFiles(list: FileList): PickedFile[] {
  return Array.from(list).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** The files under a dropped folder (its entries read one directory at a time). */
export async function droppedFiles(entry: FileSystemEntry): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const walk = async (e: FileSystemEntry, prefix: string): Promise<void> => {
    if (LEFT_OUT.has(e.name)) return;
    if (e.isFile) {
      const file = await new Promise<File>((resolve, reject) => (e as FileSystemFileEntry).file(resolve, reject));
      out.push({ path: `${prefix}${e.name}`, file });
    } else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      // readEntries answers in batches until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${e.name}/`);
      }
    }
  };
  await walk(entry, '');
  return out;
}

/** The files as a zip; an Error naming the bound when they are too large, or when there is none. */
export async function zipFiles(files: readonly PickedFile[]): Promise<Uint8Array> {
  const kept = files
    .map((f) => ({ ...f, path: f.path.split('/').slice(1).join('/') || f.path }))
    .filter((f) => !f.path.split('/').some((part) => LEFT_OUT.has(part)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (kept.length === 0) throw new Error('the folder holds no file to submit');
  const total = kept.reduce((n, f) => n + f.file.size, 0);
  if (total > MAX_SUBMISSION_BYTES) throw new Error(`the folder holds ${(total / 1024 / 1024).toFixed(1)} MB of files, more than the ${MAX_SUBMISSION_BYTES / 1024 / 1024} MB the arena takes`);
  const tree: Zippable = {};
  for (const f of kept) tree[f.path] = [new Uint8Array(await f.file.arrayBuffer()), { mtime: MTIME }];
  return zipSync(tree, { level: 6 });
}
