// A large .tgz made on the fly for memory tests and benchmarks: optional small files first, then
// FILES files of MIB MiB each under data/, gzip-compressed at `level` (0 stores: the archive is as
// large as what it holds, and it is made at disk speed).
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { archiveTrailer, contentPadding, fileHeader } from '../../src/core/archive/index.js';

const MIB = 1024 * 1024;

/** 1 MiB of xorshift bytes: incompressible within gzip's 32 KiB window. */
function block(): Buffer {
  const b = Buffer.alloc(MIB);
  let s = 42;
  for (let i = 0; i < MIB; i += 4) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    b.writeUInt32LE(s >>> 0, i);
  }
  return b;
}

async function* tarStream(small: ReadonlyMap<string, string>, files: number, mib: number): AsyncGenerator<Buffer> {
  const data = block();
  let written = 0;
  const entry = function* (path: string, size: number, body: Iterable<Buffer>): Generator<Buffer> {
    yield fileHeader(path, size, '0644');
    yield* body;
    yield contentPadding(size);
    written += 512 + size + contentPadding(size).length;
  };
  for (const [path, text] of small) yield* entry(path, Buffer.byteLength(text), [Buffer.from(text)]);
  for (let f = 0; f < files; f++) yield* entry(`data/f${f}.bin`, mib * MIB, Array.from({ length: mib }, () => data));
  yield archiveTrailer(written);
}

export function largeTgz(files: number, mib: number, small: ReadonlyMap<string, string> = new Map(), level = 0): Readable {
  return Readable.from(tarStream(small, files, mib)).pipe(createGzip({ level }));
}
