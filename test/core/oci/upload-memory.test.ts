// push never holds a layer whole: a 300 MiB blob is uploaded to the real registry
// (docker-registry) in one streamed PATCH by a child process whose peak resident set stays far
// below the blob's size. Not a timing: a bound on memory, with room for the runtime (about 50 MiB)
// and the pieces in flight, whose release waits for the collector (Node 24 peaked at 83 to 165 MiB
// as the suite ran beside it); a blob held whole takes its 300 MiB on top of the runtime. (fetch
// tees a stream body when it may follow a redirect, and the unread branch then keeps every byte:
// the 1 GiB push of bench/oci-memory.sh took 1.1 GB that way.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { hashStream } from '../../../src/core/bundle/index.js';
import { ROOT } from '../../helpers/paths.js';
import { startRegistry, type RunningRegistry } from '../../helpers/oci-registry.js';
import { tempDir } from '../../helpers/tmp.js';

const MIB = 1024 * 1024;
const SIZE = 300 * MIB;

describe('push: memory of a streamed upload', () => {
  const dir = tempDir('skillctl-upload-large-');
  let registry: RunningRegistry;
  before(async () => {
    registry = await startRegistry();
  });
  after(() => registry.stop());

  it(`uploads a ${SIZE / MIB} MiB blob in one streamed request with a peak RSS under 256 MiB`, async () => {
    const blob = join(dir, 'blob.bin');
    await writeFile(blob, 'not only zeros\n');
    await truncate(blob, SIZE);
    const digest = await hashStream(createReadStream(blob));
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'dist', 'test', 'helpers', 'upload-large.js'), registry.host, blob, String(SIZE), digest], { timeout: 300_000 });
    const r = JSON.parse(stdout) as { how: string; there: boolean; maxRssKiB: number };
    assert.equal(r.how, 'streamed');
    assert.equal(r.there, true);
    assert.ok(r.maxRssKiB < 256 * 1024, `peak RSS ${r.maxRssKiB} KiB`);
  });
});
