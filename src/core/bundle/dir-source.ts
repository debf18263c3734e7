import { constants, type Dirent } from 'node:fs';
import { lstat, open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { hashStream } from './hash-stream.js';
import {
  DEFAULT_BOUNDS,
  EXCLUDED_DIRS,
  type BundleBounds,
  type BundleFile,
  type BundleListing,
  type BundleSource,
} from './source.js';

// Control characters and backslashes make a path mean different things on different systems;
// U+FFFD means the name was not valid UTF-8 and cannot be reopened by the decoded name.
const SMALL_FILE = 1024 * 1024;

const UNPORTABLE_NAME = /[\u0000-\u001f\u007f\\\ufffd]/;

/**
 * Opens a listed file without following a symlink in its last component: a file swapped for a
 * link after listing must not make us read outside the bundle.
 */
async function openRegular(file: string): Promise<{ fh: FileHandle; size: number }> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw Object.assign(new Error(`${file} is not a regular file`), { code: 'EINVAL' });
  }
  return { fh, size: st.size };
}

async function loadIgnore(root: string): Promise<Ignore> {
  const text = await readFile(join(root, '.skillignore'), 'utf8');
  const { default: ignore } = await import('ignore');
  return ignore().add(text);
}

/** Reads exactly `size` bytes from an open file (one fstat was already paid by the caller). */
async function readAll(fh: FileHandle, size: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const { bytesRead } = await fh.read(buf, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return off === size ? buf : buf.subarray(0, off);
}

/** A bundle read from a directory on disk. Nothing outside `root` is ever opened. */
export function dirSource(root: string, bounds: BundleBounds = DEFAULT_BOUNDS): BundleSource {
  const abs = (rel: string): string => join(root, ...rel.split('/'));
  return {
    location: root,
    async list(): Promise<BundleListing> {
      const files: BundleFile[] = [];
      const diagnostics: Diagnostic[] = [];
      let total = 0;
      let over = false;
      let ig: Ignore | undefined;
      // Iterative walk: depth cannot exhaust the stack, and symlinks are never followed, so a
      // link loop is reported once and never entered.
      const stack: string[] = [''];
      while (stack.length > 0 && !over) {
        const dir = stack.pop() as string;
        let entries: Dirent[];
        try {
          entries = await readdir(dir === '' ? root : abs(dir), { withFileTypes: true });
        } catch (err) {
          diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read directory: ${errnoCode(err) ?? String(err)}`, { file: dir || '.' }));
          continue;
        }
        if (dir === '' && entries.some((e) => e.name === '.skillignore' && e.isFile())) {
          try {
            ig = await loadIgnore(root);
          } catch (err) {
            diagnostics.push(diag('BUNDLE_UNREADABLE', `.skillignore could not be read: ${errnoCode(err) ?? String(err)}`, { file: '.skillignore' }));
          }
        }
        for (const ent of entries) {
          const rel = dir === '' ? ent.name : `${dir}/${ent.name}`;
          if (ent.isDirectory() && EXCLUDED_DIRS.has(ent.name)) continue;
          if (ig?.ignores(ent.isDirectory() ? `${rel}/` : rel)) continue;
          if (UNPORTABLE_NAME.test(ent.name)) {
            diagnostics.push(diag('BUNDLE_PATH_INVALID', `file name ${JSON.stringify(ent.name)} is not portable`, { file: rel }));
            continue;
          }
          if (ent.isSymbolicLink()) {
            diagnostics.push(
              diag('BUNDLE_SYMLINK', 'symbolic links are not allowed in a bundle', {
                file: rel,
                hint: 'replace the link with a copy of the file, or list it in .skillignore',
              }),
            );
            continue;
          }
          if (ent.isDirectory()) {
            stack.push(rel);
            continue;
          }
          if (!ent.isFile()) {
            diagnostics.push(diag('BUNDLE_SPECIAL_FILE', 'devices, FIFOs and sockets are not allowed in a bundle', { file: rel }));
            continue;
          }
          let st;
          try {
            st = await lstat(abs(rel));
          } catch (err) {
            diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot stat file: ${errnoCode(err) ?? String(err)}`, { file: rel }));
            continue;
          }
          total += st.size;
          files.push({ path: rel, size: st.size, mode: modeOf(st.mode) });
          if (files.length > bounds.maxFiles || total > bounds.maxTotalBytes) {
            diagnostics.push(
              diag(
                'BUNDLE_TOO_LARGE',
                `bundle exceeds ${bounds.maxFiles} files or ${bounds.maxTotalBytes} bytes; stopped reading`,
                { hint: 'exclude generated or vendored files with .skillignore' },
              ),
            );
            over = true;
            break;
          }
        }
      }
      files.sort((a, b) => comparePaths(a.path, b.path));
      return { files, diagnostics };
    },
    async read(path: string): Promise<Buffer> {
      const { fh, size } = await openRegular(abs(path));
      try {
        return await readAll(fh, size);
      } finally {
        await fh.close();
      }
    },
    async digest(path: string): Promise<Sha256Digest> {
      const { fh, size } = await openRegular(abs(path));
      try {
        // Small files in one read; large ones streamed so memory stays bounded.
        if (size <= SMALL_FILE) return sha256(await readAll(fh, size));
        return await hashStream(fh.createReadStream({ autoClose: false }));
      } finally {
        await fh.close();
      }
    },
  };
}
