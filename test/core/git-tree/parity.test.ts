// Everything verify-pins checks on a directory it checks the same way on a git tree: the same
// project verified from disk and from a tree holding the same files (under another root, so an
// accidental read of the disk would fail) gives the same result, finding for finding: signed
// bundles, packs, unpinned folders, a tampered file, a changed keys file, archive pins,
// provenact locks.
import assert from 'node:assert/strict';
import { appendFile, cp, lstat, mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sha256, type Sha256Digest } from '../../../src/core/digest/index.js';
import { toGitTree, treeDirOps, type ListedEntry } from '../../../src/core/git-tree/index.js';
import { openLock, verifyLock } from '../../../src/core/pins/index.js';
import type { BoundedRead } from '../../../src/core/fs/read-bounded.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { fixture } from '../../helpers/paths.js';
import { pinnedProject, pinPaths } from '../../helpers/pins.js';
import { makeProject, removeDir } from '../../helpers/project.js';
import { provenactRepo } from '../../helpers/provenact.js';

const VIRTUAL = '/nonexistent/tree-root';

/** The files under `root` as a git tree would hold them (.git and .skillctl left out, as a commit would). */
async function treeOf(root: string): Promise<{ entries: ListedEntry[]; blobs: Map<string, Buffer> }> {
  const entries: ListedEntry[] = [];
  const blobs = new Map<string, Buffer>();
  const walk = async (rel: string): Promise<void> => {
    for (const name of await readdir(join(root, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (name === '.git' || name === '.skillctl') continue;
      const st = await lstat(join(root, path));
      if (st.isDirectory()) {
        await walk(path);
        continue;
      }
      const data = st.isSymbolicLink() ? Buffer.from(await readlink(join(root, path))) : await readFile(join(root, path));
      const oid = sha256(Buffer.concat([Buffer.from(path), data])).slice(7, 47);
      blobs.set(oid, data);
      entries.push({ path, kind: st.isSymbolicLink() ? 'link' : (st.mode & 0o111) !== 0 ? 'executable' : 'file', oid, size: data.length });
    }
  };
  await walk('');
  return { entries, blobs };
}

/** A verification as JSON, without the open sources (objects holding absolute paths). */
function comparable(result: unknown): string {
  return JSON.stringify(result, (key, value: unknown) => (key === 'source' && typeof value === 'object' ? undefined : value));
}

/** verify-pins of `root` from disk and from its tree: [disk, tree]. */
async function bytesOf(read: Promise<BoundedRead>): Promise<Buffer> {
  const r = await read;
  if (!r.ok) throw new Error(r.reason);
  return r.bytes;
}

async function both(root: string, label = 'pins/skills.lock.json'): Promise<[string, string]> {
  const disk = await openLock(join(root, 'pins', 'skills.lock.json'), { label });
  const { entries, blobs } = await treeOf(root);
  const tree = toGitTree('index', entries);
  if ('reason' in tree) throw new Error(tree.reason);
  const get = (oid: string): Buffer => blobs.get(oid) as Buffer;
  const ops = treeDirOps(tree, VIRTUAL, { read: async (oid) => get(oid), digest: async (oid) => sha256(get(oid)) as Sha256Digest }, { maxRead: 64 * 1024 * 1024 });
  const fromTree = await openLock(join(VIRTUAL, 'pins', 'skills.lock.json'), { label, bytes: await bytesOf(ops.readBounded(join(VIRTUAL, 'pins', 'skills.lock.json'), { maxBytes: 1 << 26 })), ops });
  const run = async (o: typeof disk): Promise<string> => (o.context === undefined ? comparable(o.diagnostics) : comparable(await verifyLock(o.context)));
  return [await run(disk), await run(fromTree)];
}

function codes(json: string): string[] {
  return [...new Set((JSON.parse(json) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code))].sort();
}

describe('verify-pins on a git tree equals verify-pins on the same files on disk', () => {
  const roots: string[] = [];
  after(async () => Promise.all(roots.map(removeDir)));

  it('a signed project, then a tampered file, an unpinned folder, a changed keys file', async () => {
    const p = await pinnedProject(['alice', 'bob']);
    roots.push(p.root);
    let [disk, tree] = await both(p.root);
    assert.equal(tree, disk);
    assert.deepEqual(codes(tree), []);
    await appendFile(join(p.root, 'manifests', 'hello', 'data', 'words.txt'), 'tampered\n');
    await cp(fixture('manifests', 'valid', 'node-entrypoint'), join(p.root, 'manifests', 'node-entrypoint'), { recursive: true });
    await appendFile(join(p.root, 'pins', 'public-keys.json'), '\n');
    [disk, tree] = await both(p.root);
    assert.equal(tree, disk);
    assert.deepEqual(codes(tree), ['CONTENT_DIGEST_MISMATCH', 'KEYS_DIGEST_MISMATCH', 'PIN_MODIFIED', 'PIN_UNPINNED']);
  });

  it('an archive pin, intact and then replaced', async () => {
    const root = await makeProject();
    roots.push(root);
    await mkdir(join(root, 'dist'));
    assert.equal((await packBundle(join(root, 'manifests', 'hello'), join(root, 'dist'))).ok, true);
    assert.equal((await pinPaths(root, { paths: ['manifests/packs/daily.yaml', 'dist/demo.hello-0.1.0.tgz'] })).ok, true);
    let [disk, tree] = await both(root);
    assert.equal(tree, disk);
    assert.ok(tree.includes('"archive_digest"'));
    await appendFile(join(root, 'dist', 'demo.hello-0.1.0.tgz'), Buffer.from([0]));
    [disk, tree] = await both(root);
    assert.equal(tree, disk);
    assert.ok(codes(tree).includes('PIN_MODIFIED'));
  });

  it('a provenact lock, intact and with a changed artifact', async () => {
    const { repo } = await provenactRepo();
    roots.push(repo.root);
    let [disk, tree] = await both(repo.root);
    assert.equal(tree, disk);
    assert.deepEqual(codes(tree), []);
    await appendFile(join(repo.root, 'skills', 'echo.minimal', '0.1.0', 'skill.wasm'), Buffer.from([1]));
    [disk, tree] = await both(repo.root);
    assert.equal(tree, disk);
    assert.ok(codes(tree).includes('PIN_MODIFIED'));
  });
});
