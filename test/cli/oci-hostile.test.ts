// pull oci:// from a registry that lies: each lie gives its code and exit status, and nothing is
// written outside the cache and --out (the project folder stays empty, the cache holds no blob
// of what was refused).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SkillConfig } from '../../src/core/oci/index.js';
import { codesOf, json, skillctlAsync } from '../helpers/cli.js';
import type { BearerOptions } from '../helpers/hostile-bearer.js';
import { hostileRegistry, type Misbehaviour } from '../helpers/hostile-registry.js';
import { skillArtifact } from '../helpers/skill-artifact.js';
import { dockerConfig } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { gzipBomb, tgz } from '../helpers/tar.js';

interface ErrorDoc {
  error?: { code: string; message: string };
  diagnostics?: { code: string }[];
}


describe('pull oci:// from a hostile registry', () => {
  let work: string;
  let layer: Buffer;
  let config: SkillConfig;
  let n = 0;

  before(async () => {
    work = await tempDir('skillctl-oci-hostile-');
    ({ layer, config } = await skillArtifact(PDF_NOTES_DIR, join(work, 'packed')));
  });
  after(() => removeDir(work));

  /** Pulls from a fresh hostile registry into a fresh project with a fresh cache. */
  async function pull(
    misbehaviour: Misbehaviour,
    opts: { layer?: Buffer; config?: SkillConfig; basic?: { user: string; password: string }; bearer?: BearerOptions; keepIdle?: boolean; ref?: 'tag' | 'digest'; host?: (host: string) => string; argv?: (ref: string) => string[] } = {},
  ) {
    const reg = await hostileRegistry({
      misbehaviour,
      layer: opts.layer ?? layer,
      config: opts.config ?? config,
      ...(opts.basic !== undefined ? { basic: `Basic ${Buffer.from(`${opts.basic.user}:${opts.basic.password}`).toString('base64')}` } : {}),
      ...(opts.bearer !== undefined ? { bearer: opts.bearer } : {}),
      ...(opts.keepIdle !== undefined ? { keepIdle: opts.keepIdle } : {}),
    });
    const host = opts.host?.(reg.host) ?? reg.host;
    const proj = join(work, `proj-${n}`);
    const cache = join(work, `cache-${n}`);
    n++;
    await mkdir(proj);
    const env: Record<string, string> = { XDG_CACHE_HOME: cache, DOCKER_CONFIG: opts.basic !== undefined ? dockerConfig(host, opts.basic.user, opts.basic.password) : join(work, 'no-docker') };
    const name = opts.ref === 'digest' ? `@${reg.digest}` : ':1';
    try {
      const ref = `oci://${host}/skills/pdf-notes${name}`;
      const started = Date.now();
      const r = await skillctlAsync(opts.argv !== undefined ? opts.argv(ref) : ['pull', ref, '--out', 'out', '--json'], { cwd: proj, env, timeoutMs: 60_000 });
      return { r, reg, proj, cache, ms: Date.now() - started };
    } finally {
      await reg.close();
    }
  }

  /** Nothing in the project, and no blob in the cache but the manifest and config that verified. */
  async function nothingWritten(proj: string, cache: string, allowed: number): Promise<void> {
    assert.deepEqual(await readdir(proj), []);
    const blobs = join(cache, 'skillctl', 'oci', 'blobs', 'sha256');
    const stored = existsSync(blobs) ? await readdir(blobs) : [];
    assert.ok(stored.length <= allowed, `cache holds ${stored.length} blobs`);
    const tmp = join(cache, 'skillctl', 'oci', 'tmp');
    assert.deepEqual(existsSync(tmp) ? await readdir(tmp) : [], []);
  }

  it('a well-behaved server: the pull works (the baseline the attacks differ from)', async () => {
    const { r, proj } = await pull('none');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(existsSync(join(proj, 'out', 'pdf-notes', 'SKILL.md')));
  });

  const findings: [Misbehaviour, string, number][] = [
    ['wrong-layer-digest', 'OCI_DIGEST_MISMATCH', 1],
    ['gzip-header-changed', 'OCI_DIGEST_MISMATCH', 1],
    ['short-layer', 'OCI_SIZE_MISMATCH', 1],
    // A connection cut in the middle of a layer: the registry could not be used (not a lie about the size).
    ['cut-layer', 'OCI_UNREACHABLE', 2],
    ['long-layer', 'OCI_SIZE_MISMATCH', 1],
    ['huge-manifest', 'OCI_MANIFEST_TOO_LARGE', 1],
    ['huge-manifest-unannounced', 'OCI_MANIFEST_TOO_LARGE', 1],
    ['manifest-digest-header-lies', 'OCI_DIGEST_MISMATCH', 1],
    ['layer-media-type', 'OCI_MEDIA_TYPE_UNSUPPORTED', 1],
    ['image-manifest', 'OCI_MEDIA_TYPE_UNSUPPORTED', 1],
    ['redirect-loop', 'OCI_REDIRECT_REFUSED', 2],
    ['redirect-plain-http', 'OCI_PLAIN_HTTP_REFUSED', 2],
    ['always-500', 'OCI_UNREACHABLE', 2],
  ];
  for (const [misbehaviour, code, exit] of findings) {
    it(`${misbehaviour}: ${code}, exit ${exit}, nothing written`, async () => {
      const { r, proj, cache } = await pull(misbehaviour);
      assert.equal(r.code, exit, r.stdout + r.stderr);
      assert.deepEqual(codesOf(r), [code]);
      await nothingWritten(proj, cache, 0);
    });
  }

  it('a config that names another manifest than the layer holds: OCI_MANIFEST_INVALID, exit 1, nothing written', async () => {
    const other = `sha256:${'0'.repeat(64)}` as SkillConfig['manifest_digest'];
    const { r, proj, cache } = await pull('none', { config: { ...config, manifest_digest: other } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['OCI_MANIFEST_INVALID']);
    await nothingWritten(proj, cache, 3);
  });

  it('always-500: the registry\'s own message is shown, after retries', async () => {
    const { r, reg } = await pull('always-500');
    assert.match(json<ErrorDoc>(r).error?.message ?? '', /storage on fire/);
    assert.equal(reg.seen.filter((s) => s.url.includes('/manifests/')).length, 4);
  });

  it('429 twice, then an answer: retried with backoff, the pull works', async () => {
    const { r, reg } = await pull('busy-then-ok');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(reg.seen.length >= 5);
  });

  it('a blob redirected to another host is fetched there without the credentials', async () => {
    const { r, reg } = await pull('redirect-other-host', { basic: { user: 'alice', password: 'SENTINEL-PASSWORD' } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(reg.seen.some((s) => s.authorization?.startsWith('Basic ') === true), 'the registry got the credentials');
    assert.equal(reg.otherSeen.length, 1);
    assert.equal(reg.otherSeen[0]?.authorization, undefined);
    assert.ok(!(r.stdout + r.stderr).includes('SENTINEL-PASSWORD'));
  });

  it('storage a blob is redirected to answers 401 with a Bearer realm of its own: not answered, the credentials never go there, OCI_REGISTRY_ERROR', async () => {
    const { r, reg, proj, cache } = await pull('redirect-other-host-401', { basic: { user: 'alice', password: 'SENTINEL-PASSWORD' } });
    // One request to the storage host, without credentials; its token realm is never asked.
    assert.deepEqual(
      reg.otherSeen.map((s) => [s.url.startsWith('/token'), s.authorization]),
      [[false, undefined]],
    );
    assert.ok(reg.seen.some((s) => s.authorization?.startsWith('Basic ') === true), 'the registry got the credentials');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['OCI_REGISTRY_ERROR']);
    assert.ok(!(r.stdout + r.stderr).includes('SENTINEL-PASSWORD'));
    await nothingWritten(proj, cache, 0);
  });

  it('--plain-http is plain HTTP to the registry\'s host only: a redirect or a token realm to plain HTTP on another host is OCI_PLAIN_HTTP_REFUSED', async () => {
    const argv = (ref: string): string[] => ['pull', ref, '--out', 'out', '--plain-http', '--json'];
    const redirected = await pull('redirect-plain-http', { argv });
    assert.equal(redirected.r.code, 2, redirected.r.stdout + redirected.r.stderr);
    assert.deepEqual(codesOf(redirected.r), ['OCI_PLAIN_HTTP_REFUSED']);
    const realm = await pull('none', { argv, bearer: { realm: 'http://auth.example.invalid/token' } });
    assert.equal(realm.r.code, 2, realm.r.stdout + realm.r.stderr);
    assert.deepEqual(codesOf(realm.r), ['OCI_PLAIN_HTTP_REFUSED']);
    // The registry's own host over plain HTTP, on another port: a token service beside it.
    const beside = await pull('none', { argv, bearer: {} });
    assert.equal(beside.r.code, 0, beside.r.stdout + beside.r.stderr);
    assert.ok(beside.reg.tokens.length >= 1);
  });

  it('a 401 with a body over 1 MiB that arrives while the token is fetched: the pull ends at once, no connection left bound', async () => {
    // The server keeps idle connections for ever: a socket the client left bound to the unread
    // body would keep the process alive until the test's timeout.
    const { r, ms } = await pull('none', { bearer: { challengeBodyBytes: 1024 * 1024 + 40 * 1024, tokenDelayMs: 300 }, keepIdle: true });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(ms < 20_000, `the pull took ${ms} ms`);
  });

  // --timeout bounds the whole exchange: each of these holds a pull without one for ever (a byte
  // every 200 ms never trips the 60 s idle timer) or for 30 s (three waits of Retry-After: 10).
  const slow: [string, Misbehaviour, { bearer?: BearerOptions }][] = [
    ['a layer trickled a byte at a time', 'trickle-layer', {}],
    ['503 with Retry-After: 10 on every request (given up in the back-off)', 'always-503-retry-after-10', {}],
    ['a token service that never answers', 'none', { bearer: { tokenHangs: true } }],
  ];
  for (const [what, misbehaviour, opts] of slow) {
    it(`${what}, --timeout 1: OCI_UNREACHABLE naming the timeout well before 10 s, exit 2, nothing written`, async () => {
      const { r, proj, cache, ms } = await pull(misbehaviour, { ...opts, argv: (ref) => ['pull', ref, '--out', 'out', '--timeout', '1', '--json'] });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.deepEqual(codesOf(r), ['OCI_UNREACHABLE']);
      assert.match(json<ErrorDoc>(r).error?.message ?? '', /^127\.0\.0\.1:\d+: (manifest|blob) \S+: not finished within the 1 s timeout$/);
      assert.ok(ms < 10_000, `the pull took ${ms} ms`);
      await nothingWritten(proj, cache, 0);
    });
  }

  // The other commands that pull: the same deadline, and nothing written (no lock for pin).
  for (const [command, argv] of [
    ['registry validate', (ref: string): string[] => ['registry', 'validate', ref, '--timeout', '1', '--json']],
    ['pin', (ref: string): string[] => ['pin', ref, '--timeout', '1', '--json']],
  ] as const) {
    it(`${command} of an oci:// reference whose layer trickles, --timeout 1: the same OCI_UNREACHABLE well before 10 s, nothing written`, async () => {
      const { r, proj, cache, ms } = await pull('trickle-layer', { argv });
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.deepEqual(codesOf(r), ['OCI_UNREACHABLE']);
      assert.match(json<ErrorDoc>(r).error?.message ?? '', /not finished within the 1 s timeout/);
      assert.ok(ms < 10_000, `${command} took ${ms} ms`);
      await nothingWritten(proj, cache, 0);
    });
  }

  it('a pull that finishes within its --timeout is not cut', async () => {
    const { r, proj } = await pull('none', { argv: (ref) => ['pull', ref, '--out', 'out', '--timeout', '60', '--json'] });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(existsSync(join(proj, 'out', 'pdf-notes', 'SKILL.md')));
  });

  it('a registry named in capitals or with its default port is still one origin: a same-host redirect keeps the credentials', async () => {
    const { r, reg } = await pull('redirect-same-host', { basic: { user: 'alice', password: 'SENTINEL-PASSWORD' }, host: (h) => h.replace('127.0.0.1', 'LOCALHOST') });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const moved = reg.seen.filter((s) => s.url.includes('?moved'));
    assert.ok(moved.length >= 1);
    assert.ok(moved.every((s) => s.authorization?.startsWith('Basic ') === true), JSON.stringify(moved));
  });

  it('credentials the registry refuses: OCI_AUTH_DENIED; none configured: OCI_AUTH_REQUIRED; the password is never printed', async () => {
    const reg = await hostileRegistry({ misbehaviour: 'none', layer, config, basic: 'Basic nobody-has-this' });
    try {
      const proj = join(work, 'proj-auth');
      await mkdir(proj);
      const base = { cwd: proj, timeoutMs: 30_000 };
      const denied = await skillctlAsync(['pull', `oci://${reg.host}/skills/pdf-notes:1`, '--json'], {
        ...base,
        env: { XDG_CACHE_HOME: join(work, 'cache-auth'), DOCKER_CONFIG: dockerConfig(reg.host, 'alice', 'SENTINEL-PASSWORD') },
      });
      assert.equal(denied.code, 2);
      assert.deepEqual(codesOf(denied), ['OCI_AUTH_DENIED']);
      assert.ok(!(denied.stdout + denied.stderr).includes('SENTINEL-PASSWORD'));
      const required = await skillctlAsync(['pull', `oci://${reg.host}/skills/pdf-notes:1`, '--json'], { ...base, env: { XDG_CACHE_HOME: join(work, 'cache-auth'), DOCKER_CONFIG: join(work, 'no-docker') } });
      assert.equal(required.code, 2);
      assert.deepEqual(codesOf(required), ['OCI_AUTH_REQUIRED']);
      assert.match(json<ErrorDoc>(required).error?.message ?? '', /authentication required/);
      assert.deepEqual(await readdir(proj), []);
    } finally {
      await reg.close();
    }
  });

  it('pin --json of a reference whose pulled layer is refused: pin\'s own document, nothing pinned, the pull\'s findings', async () => {
    const bad = tgz([{ name: '../escape.txt', data: 'x' }, { name: 'SKILL.md', data: '---\nname: pdf-notes\ndescription: d\n---\n' }]);
    const { r, proj } = await pull('none', { layer: bad, argv: (ref) => ['pin', ref, '--json'] });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const doc = json<{ ok: boolean; lock: string; lock_written: boolean; signatures_written: unknown[]; changes: unknown[]; diagnostics: { code: string }[] }>(r);
    assert.deepEqual([doc.ok, doc.lock, doc.lock_written, doc.signatures_written, doc.changes], [false, 'pins/skills.lock.json', false, [], []]);
    assert.ok(doc.diagnostics.some((d) => d.code === 'ARCHIVE_PATH_UNSAFE'), r.stdout);
    assert.deepEqual(await readdir(proj), []);
  });

  it('a layer unpacked while it downloads: files from the unverified half are in the scratch folder only, and go when the digest does not match', async () => {
    // A layer big enough that SKILL.md is unpacked from its first half: the registry sends that
    // half, waits until the client has written SKILL.md into its scratch folder, then sends the
    // rest of a gzip file whose content is right and whose bytes are not the digest's.
    const dir = join(work, 'big-src', 'pdf-notes');
    await cp(PDF_NOTES_DIR, dir, { recursive: true });
    await writeFile(join(dir, 'zz-assets.bin'), randomBytes(2 * 1024 * 1024));
    const big = await skillArtifact(dir, join(work, 'big-packed'));
    let release: () => void = () => undefined;
    const pauseLayer = new Promise<void>((r) => (release = r));
    const reg = await hostileRegistry({ misbehaviour: 'gzip-header-changed', ...big, pauseLayer });
    const proj = join(work, 'proj-streamed');
    const cache = join(work, 'cache-streamed');
    await mkdir(proj);
    try {
      const running = skillctlAsync(['pull', `oci://${reg.host}/skills/pdf-notes:1`, '--out', 'out', '--json'], { cwd: proj, env: { XDG_CACHE_HOME: cache, DOCKER_CONFIG: join(work, 'no-docker') }, timeoutMs: 60_000 });
      let seen = false;
      for (let i = 0; i < 600 && !seen; i++) {
        const scratch = existsSync(join(proj, 'out')) ? (await readdir(join(proj, 'out'))).filter((n) => n.startsWith('.skillctl-pull-')) : [];
        seen = scratch.some((n) => existsSync(join(proj, 'out', n, 'skill', 'SKILL.md')));
        if (!seen) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(seen, 'SKILL.md was unpacked into the scratch folder before the layer was complete');
      assert.ok(!existsSync(join(proj, 'out', 'pdf-notes')), 'nothing is in place before the digest matched');
      release();
      const r = await running;
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(codesOf(r), ['OCI_DIGEST_MISMATCH']);
      await nothingWritten(proj, cache, 0);
    } finally {
      release();
      await reg.close();
    }
  });

  const archives: [string, () => Buffer, string][] = [
    ['a gzip bomb', () => gzipBomb('SKILL.md', 600), 'ARCHIVE_TOO_LARGE'],
    ['a ../ entry', () => tgz([{ name: '../escape.txt', data: 'x' }, { name: 'SKILL.md', data: '---\nname: pdf-notes\ndescription: d\n---\n' }]), 'ARCHIVE_PATH_UNSAFE'],
    ['a symbolic link', () => tgz([{ name: 'SKILL.md', type: '2', linkname: '/etc/passwd' }]), 'ARCHIVE_LINK'],
    ['a hard link', () => tgz([{ name: 'SKILL.md', data: 'x' }, { name: 'b.md', type: '1', linkname: 'SKILL.md' }]), 'ARCHIVE_LINK'],
  ];
  for (const [what, make, code] of archives) {
    it(`a layer holding ${what}: ${code}, exit 1, nothing unpacked`, async () => {
      const bad = make();
      const { r, proj, cache } = await pull('none', { layer: bad });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.ok(codesOf(r).includes(code), codesOf(r).join(','));
      // The verified layer is cached (it is what the registry holds); nothing is unpacked.
      await nothingWritten(proj, cache, 3);
      assert.ok(!existsSync(join(work, 'escape.txt')));
    });
  }
});
