// Child process of test/core/bundle/unpacked-archive-memory.test.ts: streams a generated .tgz of
// FILES files of MIB MiB each (stored gzip, so the archive is as large as what it holds) through
// the streaming unpacker into TARGET, and prints what it unpacked and the process's peak RSS.
//   node unpack-large.js TARGET FILES MIB
import { streamedArchiveBounds } from '../../src/core/archive/index.js';
import { unpackTgz } from '../../src/core/bundle/index.js';
import { largeTgz } from './large-tgz.js';

const [target = '', files = '3', mib = '100'] = process.argv.slice(2);
const total = Number(files) * Number(mib) * 1024 * 1024;
const unpacked = await unpackTgz(largeTgz(Number(files), Number(mib)), target, streamedArchiveBounds(total), 'generated.tgz');
const listing = await unpacked.list();
process.stdout.write(
  `${JSON.stringify({
    files: listing.files.map((f) => [f.path, f.size]),
    codes: listing.diagnostics.map((d) => d.code),
    archiveSize: unpacked.archiveSize,
    maxRssKiB: process.resourceUsage().maxRSS,
  })}\n`,
);
