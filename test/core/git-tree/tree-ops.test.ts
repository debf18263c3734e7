// A git tree read as a directory: what verify-pins --staged and --rev see instead of the working
// tree. Listings and digests must equal those of the same files on disk (modes from the tree),
// links and submodules are refused where the directory verifier refuses links, a link leaving
// the tree resolves outside it, and a huge blob is never read whole.
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { computeContent, dirSource } from '../../../src/core/bundle/index.js';
import { sha256, type Sha256Digest } from '../../../src/core/digest/index.js';
import { changedPaths, parseLsFiles, parseLsTree, toGitTree, treeDirOps, type BlobReader, type GitTree, type ListedEntry } from '../../../src/core/git-tree/index.js';
import { tempDir } from '../../helpers/tmp.js';

const ROOT = '/repo';

/** A tree of `files` (path → content, or a link / submodule), with an in-memory blob store. */
function fixtureTree(files: Record<string, string | { link: string } | { submodule: true } | { exec: string }>): { tree: GitTree; blobs: BlobReader & { reads: string[] } } {
  const store = new Map<string, Buffer>();
  const entries: ListedEntry[] = [];
  let n = 0;
  for (const [path, v] of Object.entries(files)) {
    const oid = (++n).toString(16).padStart(40, '0');
    if (typeof v === 'string') {
      store.set(oid, Buffer.from(v));
      entries.push({ path, kind: 'file', oid, size: v.length });
    } else if ('exec' in v) {
      store.set(oid, Buffer.from(v.exec));
      entries.push({ path, kind: 'executable', oid, size: v.exec.length });
    } else if ('link' in v) {
      store.set(oid, Buffer.from(v.link));
      entries.push({ path, kind: 'link', oid, size: v.link.length });
    } else entries.push({ path, kind: 'submodule', oid, size: 0 });
  }
  const tree = toGitTree('index', entries);
  if ('reason' in tree) throw new Error(tree.reason);
  const reads: string[] = [];
  const get = (oid: string): Buffer => {
    const b = store.get(oid);
    if (b === undefined) throw new Error(`no blob ${oid}`);
    return b;
  };
  return {
    tree,
    blobs: {
      reads,
      read: (oid) => {
        reads.push(oid);
        return Promise.resolve(get(oid));
      },
      digest: (oid) => Promise.resolve(sha256(get(oid)) as Sha256Digest),
    },
  };
}

async function code(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('git tree: listings parsed strictly', () => {
  const oid = 'a'.repeat(40);
  /** The block `git ls-files --debug` prints after an entry, with its in-memory flags. */
  const dbg = (flags = '0'): string => `  ctime: 1:2\n  mtime: 1:2\n  dev: 3\tino: 4\n  uid: 0\tgid: 0\n  size: 5\tflags: ${flags}\n`;
  it('reads ls-files -s -z --debug and ls-tree -r -z -l records', () => {
    const files = parseLsFiles(
      Buffer.from(`100644 ${oid} 0\ta/b.txt\x00${dbg()}100755 ${oid} 0\trun.sh\x00${dbg('40000000')}120000 ${oid} 0\tln\x00${dbg()}160000 ${'b'.repeat(40)} 0\tsub\x00${dbg()}`),
    );
    assert.deepEqual('entries' in files ? files.entries.map((e) => [e.path, e.kind]) : files, [['a/b.txt', 'file'], ['run.sh', 'executable'], ['ln', 'link'], ['sub', 'submodule']]);
    const tree = parseLsTree(Buffer.from(`100644 blob ${oid}      12\ta b.txt\x00160000 commit ${oid}       -\tsub\x00`));
    assert.deepEqual('entries' in tree ? tree.entries : tree, [{ path: 'a b.txt', kind: 'file', oid, size: 12 }, { path: 'sub', kind: 'submodule', oid, size: 0 }]);
  });

  it('refuses an unmerged entry, an unknown mode, an unclean path, a file that is a directory', () => {
    const reason = (p: ReturnType<typeof parseLsFiles> | ReturnType<typeof toGitTree>): string => ('reason' in p ? p.reason : 'accepted');
    assert.match(reason(parseLsFiles(Buffer.from(`100644 ${oid} 2\tx\x00${dbg()}`))), /^the index has an unresolved conflict at x: resolve it, then verify again$/);
    assert.match(reason(parseLsFiles(Buffer.from(`040000 ${oid} 0\tdir\x00${dbg()}`))), /has mode 040000, which is not a file, link or submodule/);
    assert.match(reason(parseLsTree(Buffer.from(`100644 blob ${oid} 1\ta/../b\x00`))), /has an empty, \. or \.\. segment/);
    assert.match(reason(parseLsFiles(Buffer.from(`100644 ${oid} 0\tx`))), /not NUL-terminated/);
    // A path cannot pass for the flags: the block must follow its entry whole.
    assert.match(reason(parseLsFiles(Buffer.from(`100644 ${oid} 0\tx\x00`))), /without its flags/);
    assert.match(reason(parseLsFiles(Buffer.from(`100644 ${oid} 0\tx\x00  size: 0\tflags: 20000000\n`))), /without its flags/);
    assert.match(reason(toGitTree('t', [{ path: 'a', kind: 'file', oid, size: 1 }, { path: 'a/b', kind: 'file', oid, size: 1 }])), /"a" is both a file and a directory/);
    assert.match(reason(toGitTree('t', [{ path: 'a', kind: 'file', oid }])), /no size is known for "a"/);
  });

  it('leaves out an intent-to-add entry (git add -N), which git commit leaves out of the tree', () => {
    const files = parseLsFiles(Buffer.from(`100644 ${oid} 0\tkept\x00${dbg()}100644 ${'e'.repeat(40)} 0\tlater\x00${dbg('20004000')}`));
    assert.deepEqual('entries' in files ? files.entries.map((e) => e.path) : files, ['kept']);
  });
});

describe('git tree: a DirOps over the tree', () => {
  it('lists and digests a bundle exactly as the same files on disk, modes from the tree', async () => {
    const files = { 'skill.yaml': 'skill_id: x\n', 'run.sh': { exec: '#!/bin/sh\n' }, 'data/words.txt': 'a\nb\n', '.skillignore': 'notes/\n', 'notes/n.txt': 'n' };
    const { tree, blobs } = fixtureTree({ ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`s/${k}`, v])) });
    const ops = treeDirOps(tree, ROOT, blobs, { maxRead: 1024 });
    const dir = tempDir();
    for (const [rel, v] of Object.entries(files)) {
      await mkdir(join(dir, rel, '..'), { recursive: true });
      await writeFile(join(dir, rel), typeof v === 'string' ? v : v.exec);
      await chmod(join(dir, rel), typeof v === 'string' ? 0o644 : 0o755);
    }
    const fromTree = await computeContent(dirSource(join(ROOT, 's'), undefined, ops));
    const fromDisk = await computeContent(dirSource(dir));
    assert.deepEqual(fromTree, fromDisk);
    assert.equal(fromTree.diagnostics.length, 0);
  });

  it('reports links and submodules in a bundle as links (BUNDLE_SYMLINK)', async () => {
    const { tree, blobs } = fixtureTree({ 's/skill.yaml': 'x', 's/ln': { link: 'skill.yaml' }, 's/vendor': { submodule: true } });
    const listing = await dirSource(join(ROOT, 's'), undefined, treeDirOps(tree, ROOT, blobs, { maxRead: 1024 })).list();
    assert.deepEqual(listing.diagnostics.map((d) => [d.code, d.file]).sort(), [['BUNDLE_SYMLINK', 'ln'], ['BUNDLE_SYMLINK', 'vendor']]);
    assert.deepEqual(listing.files.map((f) => f.path), ['skill.yaml']);
  });

  it('resolves links inside the tree, and one that leaves it to a path outside the root', async () => {
    const { tree, blobs } = fixtureTree({
      'real/skill.yaml': 'x',
      'in/rel': { link: '../real' },
      'in/abs': { link: `${ROOT}/real` },
      'out/up': { link: '../../etc' },
      'out/abs': { link: '/etc' },
      'loop/a': { link: 'b' },
      'loop/b': { link: 'a' },
    });
    const ops = treeDirOps(tree, ROOT, blobs, { maxRead: 1024 });
    assert.equal(await ops.realpath(`${ROOT}/in/rel`), `${ROOT}/real`);
    assert.equal(await ops.realpath(`${ROOT}/in/abs/skill.yaml`), `${ROOT}/real/skill.yaml`);
    const read = await ops.readBounded(`${ROOT}/in/rel/skill.yaml`, { maxBytes: 10 });
    assert.equal(read.ok && read.bytes.toString(), 'x');
    assert.equal(await ops.realpath(`${ROOT}/out/up`), '/etc');
    assert.equal(await ops.realpath(`${ROOT}/out/abs/passwd`), '/etc/passwd');
    // Nothing outside the tree is ever read: not even /etc/passwd.
    assert.deepEqual(await ops.readBounded(`${ROOT}/out/abs/passwd`, { maxBytes: 1024 }), { ok: false, reason: 'missing', errno: 'ENOENT' });
    assert.deepEqual(await ops.readBounded('/etc/passwd', { maxBytes: 1024 }), { ok: false, reason: 'missing', errno: 'ENOENT' });
    assert.equal(await code(ops.realpath(`${ROOT}/loop/a`)), 'ELOOP');
    // lstat and readRegular do not follow a link in the last component (O_NOFOLLOW).
    assert.equal((await ops.lstat(`${ROOT}/in/rel`)).mode & 0o170000, 0o120000);
    assert.equal(await code(ops.readRegular(`${ROOT}/in/rel`)), 'ELOOP');
    assert.equal((await ops.stat(`${ROOT}/in/rel`)).isDirectory(), true);
  });

  it('answers as the file system does for what is missing or of another kind', async () => {
    const { tree, blobs } = fixtureTree({ 'a/f.txt': 'f', sub: { submodule: true } });
    const ops = treeDirOps(tree, ROOT, blobs, { maxRead: 1024 });
    assert.equal(await code(ops.readdir(`${ROOT}/nope`)), 'ENOENT');
    assert.equal(await code(ops.readdir(`${ROOT}/a/f.txt`)), 'ENOTDIR');
    assert.equal(await code(ops.stat(`${ROOT}/a/f.txt/x`)), 'ENOTDIR');
    assert.deepEqual(await ops.readBounded(`${ROOT}/a`, { maxBytes: 1024 }), { ok: false, reason: 'not-regular', kind: 'directory' });
    assert.deepEqual(await ops.readBounded(`${ROOT}/sub`, { maxBytes: 1024 }), { ok: false, reason: 'not-regular', kind: 'symbolic link' });
    assert.equal(await code(ops.readRegular(`${ROOT}/sub`)), 'EINVAL');
    assert.equal(await code(ops.readdir(`${ROOT}/sub`)), 'ENOTDIR');
    assert.equal(await code(ops.stat(`${ROOT}/sub/inside`)), 'ENOENT');
    const st = await ops.stat(`${ROOT}/sub`);
    assert.deepEqual([st.isDirectory(), st.isFile()], [false, false]);
    assert.deepEqual((await ops.readdir(ROOT)).map((d) => d.name).sort(), ['a', 'sub']);
  });

  it('refuses a whole read of a blob over the bound, and digests it streamed', async () => {
    const big = 'x'.repeat(2048);
    const { tree, blobs } = fixtureTree({ 'big.bin': big });
    const ops = treeDirOps(tree, ROOT, blobs, { maxRead: 1024 });
    for (const read of [ops.readRegular, ops.readText]) assert.equal(await code(read(`${ROOT}/big.bin`)), 'EFBIG');
    // The tree's bound holds even when the caller allows more.
    assert.deepEqual(await ops.readBounded(`${ROOT}/big.bin`, { maxBytes: 4096 }), { ok: false, reason: 'too-large', size: 2048, maxBytes: 1024 });
    assert.equal(blobs.reads.length, 0, 'the blob was never requested whole');
    assert.equal(await ops.digestRegular(`${ROOT}/big.bin`), sha256(Buffer.from(big)));
  });

  it('names the files that differ from a base tree under a folder', () => {
    const oid = (c: string): string => c.repeat(40);
    const mk = (entries: [string, string][]): GitTree => {
      const t = toGitTree('t', entries.map(([path, o]) => ({ path, kind: 'file' as const, oid: oid(o), size: 1 })));
      if ('reason' in t) throw new Error(t.reason);
      return t;
    };
    const base = mk([['m/a', '1'], ['m/b', '2'], ['m/c', '3'], ['x', '4']]);
    const now = mk([['m/a', '1'], ['m/b', '5'], ['m/d', '6'], ['x', '7']]);
    assert.deepEqual(changedPaths(now, base, 'm'), ['m/b', 'm/c', 'm/d']);
    assert.deepEqual(changedPaths(now, base, ''), ['m/b', 'm/c', 'm/d', 'x']);
  });
});
