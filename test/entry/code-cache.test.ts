/**
 * The V8 code caches are made on the user's machine (src/entry/boot.cjs): the package ships none,
 * so the first run of each bundle writes its cache, later runs use it as it is, a cache V8 rejects
 * (made by another Node build, or damaged) is replaced, and SKILLCTL_V8_CACHE=off writes nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedInPlace } from '../helpers/oci-cache.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const MANIFEST = join(ROOT, 'manifests', 'examples', 'text.stats', 'skill.yaml');

/** An installed package as `npm install` of the tarball leaves it: the bundles, no cache. */
function installed(): string {
  const dir = tempDir('skillctl-code-cache-');
  for (const part of ['bin', 'dist', 'package.json']) {
    cpSync(join(ROOT, part), join(dir, part), { recursive: true, filter: (src) => !src.endsWith('.v8cache') && !src.includes('/dist/test') });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function skillctl(dir: string, args: readonly string[], env: Record<string, string> = {}): { code: number | null; stdout: string } {
  const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete base['SKILLCTL_V8_CACHE'];
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'skillctl.js'), ...args], { encoding: 'utf8', env: { ...base, ...env } });
  return { code: r.status, stdout: r.stdout };
}

describe('V8 code caches made at first use', () => {
  it('writes each bundle’s cache on its first run and leaves it alone on the next', () => {
    const dir = installed();
    const main = join(dir, 'dist', 'skillctl.cjs.v8cache');
    const validate = join(dir, 'dist', 'cmd', 'validate.cjs.v8cache');
    assert.equal(existsSync(main), false);
    assert.deepEqual(skillctl(dir, ['--version']), { code: 0, stdout: `${VERSION}\n` });
    assert.ok(statSync(main).size > 0);
    assert.equal(existsSync(validate), false, 'a bundle that did not run gets no cache');
    assert.equal(skillctl(dir, ['validate', MANIFEST]).code, 0);
    assert.ok(statSync(validate).size > 0);
    const before = statSync(main);
    assert.deepEqual(skillctl(dir, ['--version']), { code: 0, stdout: `${VERSION}\n` });
    const again = statSync(main);
    assert.deepEqual([again.ino, again.mtimeMs], [before.ino, before.mtimeMs], 'an accepted cache is not rewritten');
  });

  it('replaces a cache V8 rejects, and runs as usual meanwhile', () => {
    const dir = installed();
    const main = join(dir, 'dist', 'skillctl.cjs.v8cache');
    const foreign = Buffer.alloc(4096, 0x5a);
    writeFileSync(main, foreign);
    assert.deepEqual(skillctl(dir, ['--version']), { code: 0, stdout: `${VERSION}\n` });
    const written = readFileSync(main);
    assert.ok(written.length > 0 && !written.equals(foreign));
  });

  it('a push that streams (a V8 flag changed, see heapForStreaming) writes its chunk’s cache first and rewrites nothing another command made', () => {
    // V8 rejects a cache made under other flags: written after the change, a cache would be
    // rejected and rewritten by the next command, and that one's by the next push.
    const dir = installed();
    const main = join(dir, 'dist', 'skillctl.cjs.v8cache');
    const push = join(dir, 'dist', 'cmd', 'push.cjs.v8cache');
    const args = ['push', join(ROOT, 'manifests', 'default', 'fs.read_text'), 'oci://127.0.0.1:1/cache/test:1'];
    assert.equal(skillctl(dir, ['--version']).code, 0);
    const mainBytes = readFileSync(main);
    assert.equal(skillctl(dir, args).code, 2, 'nothing listens on port 1');
    assert.ok(statSync(push).size > 0);
    const pushStat = statSync(push);
    assert.deepEqual(readFileSync(main), mainBytes, 'push took the cache --version made');
    assert.equal(skillctl(dir, ['--version']).code, 0);
    assert.equal(skillctl(dir, args).code, 2);
    assert.deepEqual(readFileSync(main), mainBytes, '--version took it after the push');
    const pushAgain = statSync(push);
    assert.deepEqual([pushAgain.ino, pushAgain.mtimeMs], [pushStat.ino, pushStat.mtimeMs], 'the second push took its chunk’s cache');
  });

  it('a pull that streams writes no cache of its bundle: the first pull the cache answers writes a whole one', async () => {
    // Written when the layer started to stream, the pull bundle's cache would hold only what ran
    // before it, and be kept: every later cache hit would compile its validation afresh.
    const dir = installed();
    const pullCache = join(dir, 'dist', 'cmd', 'pull-oci.cjs.v8cache');
    const env = { XDG_CACHE_HOME: join(dir, 'xdg'), DOCKER_CONFIG: join(dir, 'docker') };
    const streamed = skillctl(dir, ['pull', `oci://127.0.0.1:1/cache/test@sha256:${'0'.repeat(64)}`], env);
    assert.equal(streamed.code, 2, 'nothing listens on port 1');
    assert.equal(existsSync(pullCache), false);
    const digest = await cachedInPlace(join(ROOT, 'manifests', 'default', 'fs.read_text'), dir, env.XDG_CACHE_HOME, join(dir, 'vendor'));
    const hit = skillctl(dir, ['pull', `oci://127.0.0.1:1/cache/test@${digest}`, '--out', join(dir, 'vendor')], env);
    assert.equal(hit.code, 0, hit.stdout);
    assert.ok(statSync(pullCache).size > 0);
  });

  it('writes nothing with SKILLCTL_V8_CACHE=off', () => {
    const dir = installed();
    assert.deepEqual(skillctl(dir, ['--version'], { SKILLCTL_V8_CACHE: 'off' }), { code: 0, stdout: `${VERSION}\n` });
    assert.equal(existsSync(join(dir, 'dist', 'skillctl.cjs.v8cache')), false);
  });
});
