/**
 * A command about to stream a layer (pull, push) keeps V8's young generation at the size it has
 * (heapForStreaming in dist/boot.cjs): dead layer pieces outside the heap are freed only by a
 * young-generation collection, so a larger one let a 1 GiB pull peak over 100 MB
 * (docs/performance.md). Seen from V8: a preload allocates, at the command's exit, objects that
 * survive a collection or two, and reports how large the young generation then is. A pull answered
 * from the cache streams nothing and changes nothing (a changed flag would cost it its code
 * caches). If a Node release stops reading the growth factor after start-up, this fails rather
 * than the memory benchmark quietly going back over its bound.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ROOT } from '../helpers/paths.js';
import { cachedInPlace } from '../helpers/oci-cache.js';
import { tempDir } from '../helpers/tmp.js';

const BUNDLE = join(ROOT, 'manifests', 'default', 'fs.read_text');
const PRELOAD = `
const { getHeapSpaceStatistics } = require('node:v8');
process.on('exit', () => {
  let keep = [];
  for (let i = 0; i < 2e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 1000) keep = []; }
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  require('node:fs').writeFileSync(process.env.HEAP_REPORT, String(space.space_size));
});
`;

describe('the young generation of pull and push', () => {
  const dir = tempDir('skillctl-heap-');
  const preload = join(dir, 'preload.cjs');
  const report = join(dir, 'report.txt');
  writeFileSync(preload, PRELOAD);

  function youngGenerationMiB(args: string[]): { code: number | null; mib: number } {
    const r = spawnSync(process.execPath, ['-r', preload, BIN, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, HEAP_REPORT: report, XDG_CACHE_HOME: join(dir, 'cache'), DOCKER_CONFIG: join(dir, 'docker') },
    });
    return { code: r.status, mib: Number(readFileSync(report, 'utf8')) / (1024 * 1024) };
  }

  it('stays at the size it has for push and for a pull that goes to the registry (nothing listens on port 1)', () => {
    const push = youngGenerationMiB(['push', BUNDLE, 'oci://127.0.0.1:1/heap/test:1']);
    assert.equal(push.code, 2);
    assert.ok(push.mib <= 4, `push: ${push.mib} MiB`);
    const pull = youngGenerationMiB(['pull', `oci://127.0.0.1:1/heap/test@sha256:${'0'.repeat(64)}`]);
    assert.equal(pull.code, 2);
    assert.ok(pull.mib <= 4, `pull: ${pull.mib} MiB`);
  });

  it('grows as V8 chooses for a pull answered from the cache, and for other commands', async () => {
    const digest = await cachedInPlace(BUNDLE, dir, join(dir, 'cache'), join(dir, 'vendor'));
    const hit = youngGenerationMiB(['pull', `oci://127.0.0.1:1/heap/test@${digest}`, '--out', 'vendor', '--json']);
    assert.equal(hit.code, 0, 'unchanged, from the cache, the registry never asked');
    assert.ok(hit.mib >= 8, `pull from the cache: ${hit.mib} MiB`);
    const other = youngGenerationMiB(['validate', join(ROOT, 'manifests', 'examples', 'text.stats', 'skill.yaml')]);
    assert.equal(other.code, 0);
    assert.ok(other.mib >= 8, `validate: ${other.mib} MiB`);
  });
});
