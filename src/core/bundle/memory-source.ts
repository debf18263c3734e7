import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, sha256, type FileMode, type Sha256Digest } from '../digest/index.js';
import { EXCLUDED_DIRS, EXCLUDED_NAMES, type BundleFile, type BundleListing, type BundleSource } from './source.js';

export interface MemoryFile {
  /** POSIX path relative to the bundle root. */
  readonly path: string;
  readonly data: Uint8Array;
  readonly mode: FileMode;
}

/**
 * A bundle held in memory: files about to be written (init, convert) are validated and digested
 * through the same interface as a directory, before anything touches the disk.
 */
export function memorySource(files: readonly MemoryFile[], location = '(memory)'): BundleSource {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const get = (path: string): MemoryFile => {
    const f = byPath.get(path);
    if (f === undefined) throw Object.assign(new Error(`no file ${path}`), { code: 'ENOENT' });
    return f;
  };
  return {
    location,
    list(): Promise<BundleListing> {
      const diagnostics: Diagnostic[] = [];
      const listed: BundleFile[] = [];
      for (const f of files) {
        const parts = f.path.split('/');
        if (f.path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
          diagnostics.push(diag('BUNDLE_PATH_INVALID', `file name ${JSON.stringify(f.path)} is not a clean relative path`, { file: f.path }));
          continue;
        }
        if (parts.slice(0, -1).some((p) => EXCLUDED_DIRS.has(p)) || EXCLUDED_NAMES.has(parts[parts.length - 1] as string)) continue;
        listed.push({ path: f.path, size: f.data.length, mode: f.mode });
      }
      listed.sort((a, b) => comparePaths(a.path, b.path));
      return Promise.resolve({ files: listed, diagnostics });
    },
    read(path: string): Promise<Buffer> {
      const d = get(path).data;
      return Promise.resolve(Buffer.from(d.buffer, d.byteOffset, d.byteLength));
    },
    digest(path: string): Promise<Sha256Digest> {
      return Promise.resolve(sha256(get(path).data));
    },
  };
}
