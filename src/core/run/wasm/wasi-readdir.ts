/**
 * fd_readdir: a directory's entries through the checked layer, sorted by name so a run lists them
 * in the same order on every machine, each encoded as preview 1's dirent (next cookie, inode,
 * name length, file type; 24 bytes) followed by its name. The cookie is the index of the next
 * entry in that order.
 */
import { isFailure } from '../../policy/index.js';
import { ERRNO, FILETYPE } from './wasi-abi.js';
import { errnoOf } from './wasi-errno.js';
import type { WasiHost } from './wasi-fd-table.js';
import { scopeOf } from './wasi-paths.js';
import { inode } from './wasi-stat.js';
import { err, isAnswer, ok, type WasiAnswer, type WasiCall } from './wasi-wire.js';

export async function readDir(host: WasiHost, req: WasiCall<'fd_readdir'>): Promise<WasiAnswer> {
  const d = host.table.dirOf(req.fd);
  if (isAnswer(d)) return d;
  if (req.cookie < 0n) return err(ERRNO.INVAL);
  const dir = await host.files.openDir(d.real, scopeOf(d));
  if (isFailure(dir)) return err(errnoOf(dir));
  try {
    const names = (await dir.entries()).map((e) => e.name).sort();
    const parts: Buffer[] = [];
    let size = 0;
    for (let i = Number(req.cookie); i < names.length && size < req.max; i++) {
      const name = names[i] as string;
      const st = await dir.lstat(name);
      const type = isFailure(st) ? FILETYPE.UNKNOWN : st.isSymbolicLink() ? FILETYPE.SYMBOLIC_LINK : st.isDirectory() ? FILETYPE.DIRECTORY : st.isFile() ? FILETYPE.REGULAR_FILE : FILETYPE.UNKNOWN;
      const bytes = Buffer.from(name);
      const head = Buffer.alloc(24);
      head.writeBigUInt64LE(BigInt(i + 1), 0);
      head.writeBigUInt64LE(inode(`${dir.real === '/' ? '' : dir.real}/${name}`), 8);
      head.writeUInt32LE(bytes.length, 16);
      head.writeUInt8(type, 20);
      parts.push(head, bytes);
      size += head.length + bytes.length;
    }
    // A full buffer tells the guest there is more: it asks again from the last whole entry.
    return ok({ data: Buffer.concat(parts).subarray(0, req.max) });
  } finally {
    await dir.close();
  }
}
