/**
 * The directories a WASI command finds preopened: exactly the granted fs.read and fs.write roots
 * (the manifest's request intersected with the host policy), each once, sorted by path, so the
 * descriptors 3, 4, ... name the same directories on every run. A root granted both ways is one
 * read-write directory; a root of fs.read only is read-only (path_open to write is refused).
 */
import type { GrantedPermissions } from '../../policy/index.js';
import type { Preopen } from './wasi-fd-table.js';

export function wasiPreopens(granted: Pick<GrantedPermissions, 'fsRead' | 'fsWrite'>): Preopen[] {
  const paths = [...new Set([...granted.fsRead, ...granted.fsWrite])].sort();
  return paths.map((path) => ({ path, read: granted.fsRead.includes(path), write: granted.fsWrite.includes(path) }));
}
