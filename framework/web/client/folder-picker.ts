/**
 * The folder picker of the Replays, Tournaments and Reports pages: a folder under the server's
 * root (GET /api/files, FolderListing) as breadcrumbs (root / a / b), its subfolders and the files
 * a page opens, each with its size. The page says which files it lists and what a click on one
 * does; the picker keeps the folder shown and marks the file open (`li.current`).
 */
import type { FolderListing } from '../shared/api.ts';
import { api, ApiFailure, query } from './api.ts';
import { h, replace } from './dom.ts';

/** A size as the lists show it: 512 B, 3.4 KB, 1.2 MB. */
export function fileSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The folder a page shows first: the one its address asks for, else the opened file's, else the root (''). */
export function startFolder(asked: string | null, path: string | undefined): string {
  return asked ?? (path !== undefined && path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
}

/** A file the picker lists. */
export interface PickerFile {
  name: string;
  /** its class beside `file` (replay, tournament, report) */
  kind: string;
  /** what shows at its right: its size, or what it is */
  size: string;
  /** the link's tooltip */
  title?: string;
}

export interface FolderPickerOptions {
  /** the list's id (the page's tests and styles find it by it) */
  id: string;
  /** the folder first shown ('' the root): startFolder() */
  dir: string;
  /** the files of a listing the page opens */
  files: (listing: FolderListing) => PickerFile[];
  /** what the list says when a folder holds neither */
  none: string;
  /** the path (under the root) of the file open, if any */
  current: () => string | undefined;
  /** a file chosen: its path under the root */
  open: (path: string, file: PickerFile) => void;
  /** after each listing shown (the page writes its state into the address) */
  listed: () => void;
  showError: (text: string) => void;
  mounted: () => boolean;
}

export interface FolderPicker {
  /** the breadcrumbs and the list, for the page to place */
  crumbs: HTMLElement;
  files: HTMLUListElement;
  /** the folder shown ('' the root) */
  readonly dir: string;
  /** Shows `folder`; one it cannot list is said, and the root shown instead. */
  list(folder: string): Promise<void>;
  /** Marks the file at `path` as the one open. */
  markCurrent(path: string | undefined): void;
}

export function folderPicker(o: FolderPickerOptions): FolderPicker {
  let dir = o.dir;
  const crumbs = h('nav', { class: 'crumbs', 'aria-label': 'folder' });
  const files = h('ul', { class: 'files', id: o.id });
  const join = (name: string) => (dir === '' ? name : `${dir}/${name}`);

  function markCurrent(path: string | undefined): void {
    for (const li of Array.from(files.querySelectorAll<HTMLElement>('li.file'))) li.classList.toggle('current', join(li.dataset['name'] ?? '') === path);
  }

  async function list(folder: string): Promise<void> {
    let listing: FolderListing;
    try {
      listing = await api<FolderListing>('GET', `/api/files${query({ dir: folder === '' ? undefined : folder })}`);
    } catch (e) {
      if (!o.mounted()) return;
      o.showError(`Could not list ${folder === '' ? 'the folder' : folder}: ${e instanceof ApiFailure ? e.message : String(e)}`);
      if (folder !== '') return list('');
      return;
    }
    if (!o.mounted()) return;
    dir = listing.dir;
    const parts = dir === '' ? [] : dir.split('/');
    replace(
      crumbs,
      h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), void list('')) }, 'root'),
      parts.map((part, k) => [' / ', h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), void list(parts.slice(0, k + 1).join('/'))) }, part)]),
    );
    const shown = o.files(listing);
    const current = o.current();
    replace(
      files,
      listing.folders.map((f) => h('li', { class: 'folder' }, h('a', { href: '#', 'data-folder': f, onclick: (e: Event) => (e.preventDefault(), void list(join(f))) }, `▸ ${f}/`))),
      shown.map((f) =>
        h(
          'li',
          { class: `file ${f.kind}${join(f.name) === current ? ' current' : ''}`, 'data-name': f.name },
          h('a', { href: '#', 'data-file': f.name, title: f.title, onclick: (e: Event) => (e.preventDefault(), markCurrent(join(f.name)), o.open(join(f.name), f)) }, f.name),
          h('span', { class: 'size' }, f.size),
        ),
      ),
      listing.folders.length + shown.length === 0 ? h('li', { class: 'none' }, o.none) : null,
    );
    o.listed();
  }

  return {
    crumbs,
    files,
    get dir() {
      return dir;
    },
    list,
    markCurrent,
  };
}
