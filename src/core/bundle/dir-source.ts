import { lstat, opendir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, type Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { digestFile } from './hash-stream.js';
import { isExcluded, parseSkillignore, UNPORTABLE_NAME } from './path-filter.js';
import {
  DEFAULT_BOUNDS,
  type BundleBounds,
  type BundleFile,
  type BundleListing,
  type BundleSource,
} from './source.js';

async function loadIgnore(root: string): Promise<Ignore | undefined> {
  try {
    const text = await readFile(join(root, '.skillignore'), 'utf8');
    return parseSkillignore(text);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
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
      try {
        ig = await loadIgnore(root);
      } catch (err) {
        diagnostics.push(diag('BUNDLE_UNREADABLE', `.skillignore could not be read: ${String(err)}`, { file: '.skillignore' }));
      }
      // Iterative walk: depth cannot exhaust the stack, and symlinks are never followed, so a
      // link loop is reported once and never entered.
      const stack: string[] = [''];
      while (stack.length > 0 && !over) {
        const dir = stack.pop() as string;
        let handle;
        try {
          handle = await opendir(dir === '' ? root : abs(dir));
        } catch (err) {
          diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read directory: ${errnoCode(err) ?? String(err)}`, { file: dir || '.' }));
          continue;
        }
        for await (const ent of handle) {
          const rel = dir === '' ? ent.name : `${dir}/${ent.name}`;
          if (isExcluded(rel, ent.isDirectory(), ig)) continue;
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
    read(path: string): Promise<Buffer> {
      return readFile(abs(path));
    },
    digest(path: string): Promise<Sha256Digest> {
      return digestFile(abs(path));
    },
  };
}
