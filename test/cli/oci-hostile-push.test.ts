// push to a registry that fails it, or whose tokens expire: the push either works (a token is
// fetched again) or ends promptly with its code, and never leaves an upload session open.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packBundle } from '../../src/core/pack/index.js';
import { codesOf, json, skillctlAsync, type CliRun } from '../helpers/cli.js';
import type { BearerOptions } from '../helpers/hostile-bearer.js';
import { hostileRegistry, type HostileRegistry, type Misbehaviour, type Seen } from '../helpers/hostile-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { tgz } from '../helpers/tar.js';


const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('push oci:// to a hostile registry', () => {
  let work: string;
  let archive: string;
  let n = 0;

  before(async () => {
    work = await tempDir('skillctl-oci-hostile-push-');
    const packed = await packBundle(PDF_NOTES_DIR, join(work, 'packed'));
    archive = packed.archive as string;
  });
  after(() => removeDir(work));

  /**
   * Pushes `source` to a fresh hostile registry (with `args` after the reference); the registry
   * is closed after. `tmp` is TMPDIR, where push makes its scratch folder.
   */
  async function push(
    source: string,
    misbehaviour: Misbehaviour,
    opts: { bearer?: BearerOptions; hold?: (seen: Seen) => Promise<void> | undefined; args?: string[]; tmp?: string } = {},
  ): Promise<{ r: CliRun; reg: HostileRegistry; ms: number }> {
    const { args = [], tmp, ...served } = opts;
    const reg = await hostileRegistry({ misbehaviour, layer: Buffer.alloc(0), ...served });
    const env = { XDG_CACHE_HOME: join(work, `cache-${n}`), DOCKER_CONFIG: join(work, 'no-docker'), ...(tmp !== undefined ? { TMPDIR: tmp } : {}) };
    n++;
    try {
      const started = Date.now();
      const r = await skillctlAsync(['push', source, `oci://${reg.host}/skills/pdf-notes:1`, ...args, '--json'], { cwd: work, env, timeoutMs: 45_000 });
      return { r, reg, ms: Date.now() - started };
    } finally {
      await reg.close();
    }
  }

  const deletes = (reg: HostileRegistry): number => reg.seen.filter((s) => s.method === 'DELETE' && s.url.includes('/blobs/uploads/')).length;

  it('a token that expires during a long upload is fetched again: the commit after it goes through', async () => {
    // Tokens live 1 s and the PATCH is answered after 1.5 s: the commit's token has expired.
    const { r, reg } = await push(archive, 'none', { bearer: { lifetimeMs: 1000 }, hold: (s) => (s.method === 'PATCH' ? sleep(1500) : undefined) });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(reg.tokens.length >= 2, `${reg.tokens.length} tokens`);
    assert.equal(reg.store.sessions.size, 0);
    assert.ok(reg.seen.some((s) => s.method === 'PUT' && s.url.includes('/manifests/') && s.authorization?.startsWith('Bearer ') === true));
  });

  it('a 5xx to the streamed PATCH: OCI_REGISTRY_ERROR, and the session is cancelled (DELETE)', async () => {
    const { r, reg } = await push(archive, 'patch-500');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['OCI_REGISTRY_ERROR']);
    assert.equal(deletes(reg), 1);
    assert.equal(reg.store.sessions.size, 0);
  });

  it('an archive refused while the registry stalls its PATCH: the findings at once, the upload given up and its session cancelled', async () => {
    const bad = join(work, 'refused.tgz');
    await writeFile(bad, tgz([{ name: 'SKILL.md', data: '---\nname: pdf-notes\ndescription: d\n---\n' }, { name: '../escape.txt', data: 'x' }]));
    // The PATCH is never answered: before, the findings waited for the 60 s idle timer.
    const { r, reg, ms } = await push(bad, 'none', { hold: (s) => (s.method === 'PATCH' ? new Promise<void>(() => undefined) : undefined) });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(codesOf(r).includes('ARCHIVE_PATH_UNSAFE'), codesOf(r).join(','));
    assert.ok(ms < 20_000, `the push took ${ms} ms`);
    assert.equal(deletes(reg), 1);
    assert.equal(reg.store.sessions.size, 0);
    assert.equal(reg.store.blobs.size, 0);
  });

  it('a PATCH that never completes, --timeout 1: OCI_UNREACHABLE naming the timeout well before 10 s, exit 2, the session cancelled, no scratch left', async () => {
    const tmp = join(work, 'tmp-timeout');
    await mkdir(tmp);
    // A folder: packed into the scratch folder first, so there is something to leave behind.
    const never = (s: Seen): Promise<void> | undefined => (s.method === 'PATCH' ? new Promise<void>(() => undefined) : undefined);
    const { r, reg, ms } = await push(PDF_NOTES_DIR, 'none', { hold: never, args: ['--timeout', '1'], tmp });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['OCI_UNREACHABLE']);
    assert.match(json<{ error?: { message: string } }>(r).error?.message ?? '', /^127\.0\.0\.1:\d+: upload of blob sha256:[0-9a-f]{64}: not finished within the 1 s timeout$/);
    assert.ok(ms < 10_000, `the push took ${ms} ms`);
    assert.equal(deletes(reg), 1);
    assert.equal(reg.store.sessions.size, 0);
    assert.equal(reg.store.blobs.size, 0);
    assert.deepEqual(await readdir(tmp), []);
  });

  it('the archive swapped for a FIFO after it was hashed: the upload refuses it (INPUT_NOT_REGULAR_FILE, exit 2) and the process ends', async () => {
    const dir = join(work, 'fifo');
    await mkdir(dir);
    const file = join(dir, 'pdf-notes.tgz');
    execFileSync('cp', [archive, file]);
    // Swapped while the session is opened: after the hash and the check opened the file, before
    // the PATCH opens it again to send it.
    const hold = async (s: Seen): Promise<void> => {
      if (s.method !== 'POST') return;
      await unlink(file);
      execFileSync('mkfifo', [file]);
    };
    const { r, reg } = await push(file, 'none', { hold: (s) => (s.method === 'POST' ? hold(s) : undefined) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['INPUT_NOT_REGULAR_FILE']);
    assert.equal(deletes(reg), 1);
    assert.equal(reg.store.blobs.size, 0);
  });
});
