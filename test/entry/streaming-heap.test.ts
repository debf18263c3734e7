/**
 * `pull` and `push` keep V8's young generation at its first size (dist/boot.cjs): dead layer
 * pieces outside the heap are freed only by a young-generation collection, so a larger one let a
 * 1 GiB pull peak over 100 MB (docs/performance.md). Seen from V8: a preload allocates, at the
 * command's exit, objects that survive a collection or two, and reports how large the young
 * generation then is. Other commands keep V8's default growth. If a Node release stops reading
 * the growth factor after start-up, this fails rather than the memory benchmark quietly going
 * back over its bound.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

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

  it('stays at its first size for push and pull (nothing listens on port 1: both end unreachable)', () => {
    const push = youngGenerationMiB(['push', join(ROOT, 'manifests', 'default', 'fs.read_text'), 'oci://127.0.0.1:1/heap/test:1']);
    assert.equal(push.code, 2);
    assert.ok(push.mib <= 4, `push: ${push.mib} MiB`);
    const pull = youngGenerationMiB(['pull', `oci://127.0.0.1:1/heap/test@sha256:${'0'.repeat(64)}`]);
    assert.equal(pull.code, 2);
    assert.ok(pull.mib <= 4, `pull: ${pull.mib} MiB`);
  });

  it('grows as V8 chooses for other commands', () => {
    const other = youngGenerationMiB(['validate', join(ROOT, 'manifests', 'examples', 'text.stats', 'skill.yaml')]);
    assert.equal(other.code, 0);
    assert.ok(other.mib >= 8, `validate: ${other.mib} MiB`);
  });
});
