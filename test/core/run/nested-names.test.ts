// What a program's run looks for below its grants before its sandbox is made: the protected
// names there (a nested repository's git paths, a sub-package's .npmrc, a nested project's keys),
// which bubblewrap holds only when it is given them; bounded, and saying where it stopped.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nestedNames, plantedBelow, type NestedNames } from '../../../src/core/run/nested-names.js';
import { PROTECTED_DIRS } from '../../../src/core/policy/protected-names.js';
import { tempDir } from '../../helpers/tmp.js';

/** A tree: a nested repository, a sub-package's .npmrc, a nested project's keys, and what is not entered. */
async function tree(): Promise<string> {
  const root = realpathSync(tempDir('skillctl-nested-'));
  await mkdir(join(root, 'vendor', 'lib', '.git', 'hooks'), { recursive: true });
  await mkdir(join(root, 'pkg', 'deep', 'er'), { recursive: true });
  await writeFile(join(root, 'pkg', '.NPMRC'), '');
  await mkdir(join(root, 'other', '.skillctl', 'keys'), { recursive: true });
  await mkdir(join(root, 'node_modules', 'x', '.git'), { recursive: true });
  await mkdir(join(root, 'vendor', 'lib', '.git', 'modules', 'm', '.git'), { recursive: true });
  return root;
}

/**
 * The walks of `root` as a write grant and as a read grant, by a process that directory
 * permissions bind: this one, or, as root (who lists every directory), a child without the
 * capabilities that let root past them.
 */
function walkedBound(root: string): [NestedNames, NestedNames] {
  const script = 'const { nestedNames } = await import(process.argv[1]); const r = process.argv[2]; console.log(JSON.stringify([nestedNames({ write: [r], read: [] }), nestedNames({ write: [], read: [r] })]))';
  if (process.getuid?.() !== 0) return [nestedNames({ write: [root], read: [] }), nestedNames({ write: [], read: [root] })];
  const url = new URL('../../../src/core/run/nested-names.js', import.meta.url).href;
  const out = execFileSync('setpriv', ['--bounding-set=-dac_override,-dac_read_search', process.execPath, '--input-type=module', '-e', script, url, root], { encoding: 'utf8' });
  return JSON.parse(out) as [NestedNames, NestedNames];
}

const gitPaths = (dir: string): string[] => PROTECTED_DIRS.filter((d) => d[0] === '.git').map((d) => join(dir, ...d));

describe('nestedNames', () => {
  it('finds every protected name below a write grant, by the name on disk, entering neither node_modules nor .git', async () => {
    const root = await tree();
    const found = nestedNames({ write: [root], read: [] });
    assert.deepEqual(found.unwalked, []);
    assert.deepEqual(found.paths, [...gitPaths(join(root, 'vendor', 'lib')), join(root, 'other', '.skillctl'), join(root, 'other', '.skillctl', 'keys'), join(root, 'pkg', '.NPMRC')].sort());
  });

  it('looks below a read grant for secret keys only, and only through directories this user owns', async () => {
    const root = await tree();
    assert.deepEqual(nestedNames({ write: [], read: [root] }).paths, [join(root, 'other', '.skillctl', 'keys')]);
    assert.deepEqual(nestedNames({ write: [], read: [root] }, { uid: 4_000_000 }).paths, []);
  });

  it('walks a grant inside another once, and a read grant inside a write grant as the write grant', async () => {
    const root = await tree();
    const whole = nestedNames({ write: [root], read: [] }).paths;
    assert.deepEqual(nestedNames({ write: [join(root, 'pkg'), root, root], read: [join(root, 'vendor'), root] }).paths, whole);
  });

  it('stops at its bound and names the grant it did not walk whole, breadth first (the nearest names found)', async () => {
    const root = await tree();
    const found = nestedNames({ write: [root], read: [] }, { maxDirs: 4 });
    assert.deepEqual(found.unwalked, [{ grant: root, write: true }]);
    // The root, then other, pkg and vendor: lib (two levels down) is not reached.
    assert.deepEqual(found.paths, [join(root, 'other', '.skillctl'), join(root, 'other', '.skillctl', 'keys'), join(root, 'pkg', '.NPMRC')]);
    // The bound is for the whole run: a second grant gets what the first left.
    const two = nestedNames({ write: [join(root, 'vendor'), join(root, 'pkg')], read: [] }, { maxDirs: 3 });
    assert.deepEqual(two, { paths: [...gitPaths(join(root, 'vendor', 'lib')), join(root, 'pkg', '.NPMRC')].sort(), sockets: [], unwalked: [{ grant: join(root, 'pkg'), write: true }] });
    // A read grant left by the bound is named as such; read grants have a smaller bound of their own.
    assert.deepEqual(nestedNames({ write: [], read: [root] }, { maxDirs: 2 }).unwalked, [{ grant: root, write: false }]);
    assert.deepEqual(nestedNames({ write: [], read: [root] }, { readMaxDirs: 2 }).unwalked, [{ grant: root, write: false }]);
    assert.deepEqual(nestedNames({ write: [join(root, 'vendor')], read: [join(root, 'other')] }, { readMaxDirs: 1 }).unwalked, []);
  });

  it('never walks /: it says so, and walks the working directory in its place', async () => {
    const root = await tree();
    assert.deepEqual(nestedNames({ write: [], read: ['/'] }), { paths: [], sockets: [], unwalked: [{ grant: '/', write: false }] });
    assert.deepEqual(nestedNames({ write: [], read: ['/'] }, { cwd: join(root, 'other') }), { paths: [join(root, 'other', '.skillctl', 'keys')], sockets: [], unwalked: [{ grant: '/', write: false }] });
    assert.deepEqual(nestedNames({ write: ['/'], read: ['/'] }, { cwd: join(root, 'pkg') }), { paths: [join(root, 'pkg', '.NPMRC')], sockets: [], unwalked: [{ grant: '/', write: true }] });
    // The working directory inside a write grant is walked once, as the write grant (a read walk of it would stop at 1 here).
    assert.deepEqual(nestedNames({ write: [root], read: ['/'] }, { cwd: root, readMaxDirs: 1 }), { paths: nestedNames({ write: [root], read: [] }).paths, sockets: [], unwalked: [{ grant: '/', write: false }] });
  });

  it('a write grant holding a directory it may not list is not whole (its owner may give the read bit back); a read grant is', async () => {
    const root = await tree();
    await mkdir(join(root, 'locked', 'lib', '.git'), { recursive: true });
    await chmod(join(root, 'locked'), 0o000);
    try {
      const [write, read] = walkedBound(root);
      assert.deepEqual(write.unwalked, [{ grant: root, write: true }]);
      assert.deepEqual(read, { paths: [join(root, 'other', '.skillctl', 'keys')], sockets: [], unwalked: [] });
    } finally {
      await chmod(join(root, 'locked'), 0o755);
    }
  });

  it('does not enter what package managers and tools fill', async () => {
    const root = await tree();
    for (const dir of ['.venv', '__pycache__', '.tox', '.mypy_cache']) await mkdir(join(root, dir, 'x', '.git'), { recursive: true });
    const paths = nestedNames({ write: [root], read: [] }).paths;
    assert.deepEqual(
      paths.filter((p) => ['node_modules', '.venv', '__pycache__', '.tox', '.mypy_cache'].some((d) => p.startsWith(join(root, d)))),
      [],
    );
    assert.ok(paths.includes(join(root, 'pkg', '.NPMRC')));
  });

  it('plantedBelow: what exists now that the walk before did not list, a new repository aside; not whole past its bound', async () => {
    const root = await tree();
    const before = new Set(nestedNames({ write: [root], read: [] }).paths);
    await mkdir(join(root, 'pkg', 'deep', '.claude', 'skills', 'x'), { recursive: true });
    await writeFile(join(root, 'pkg', 'deep', 'er', 'skills.lock.json'), '{}');
    await mkdir(join(root, 'fresh', '.git', 'hooks'), { recursive: true });
    await writeFile(join(root, 'fresh', '.git', 'config'), '');
    assert.deepEqual(plantedBelow(before, [root], root), { paths: [join(root, 'pkg', 'deep', '.claude'), join(root, 'pkg', 'deep', 'er', 'skills.lock.json')], whole: true });
    assert.equal(plantedBelow(before, [root], root, 3).whole, false);
  });
});

describe('nestedNames: sockets', () => {
  /** A socket file left bound on disk (python exits without removing it). */
  const socketAt = (path: string): void => void execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', path]);

  it('notes every Unix socket below read and write grants alike, however deep', async () => {
    const root = await tree();
    socketAt(join(root, 'agent.sock'));
    socketAt(join(root, 'pkg', 'deep', 'er', 'bus'));
    const want = [join(root, 'agent.sock'), join(root, 'pkg', 'deep', 'er', 'bus')];
    assert.deepEqual(nestedNames({ write: [root], read: [] }).sockets, want);
    assert.deepEqual(nestedNames({ write: [], read: [root] }).sockets, want);
    // Through directories this user owns only: those beyond stay (docs/security.md, What remains).
    assert.deepEqual(nestedNames({ write: [], read: [root] }, { uid: 4_000_000 }).sockets, []);
  });
});
