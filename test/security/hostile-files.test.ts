// Threat: files that are not what their names say (a FIFO, a device, a socket or a sparse giant where a command expects a file).
// Attack suite (issue 20, items 9 and 10): files that are not what their names say. A FIFO, a
// device or a socket named like a manifest, an archive, a lock, its `.lck`, a keys file, a
// payload or a registry index is refused before it is opened (INPUT_NOT_REGULAR_FILE or the
// document's own code), so no command blocks on it or reads it forever; a `.lck` or `pins/`
// that cannot be written is OUTPUT_UNWRITABLE, never INTERNAL. Each row: the input, the code,
// the exit status; a command that does not answer within the hang guard fails its test.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answer, fifo, isRoot, socketAt } from '../helpers/hostile.js';
import { fixture } from '../helpers/paths.js';
import { makeProject, removeDir, snapshot, tempDir } from '../helpers/project.js';

interface Row {
  readonly what: string;
  readonly args: readonly string[];
  /** A code the answer must carry. */
  readonly code: string;
  readonly exit: number;
  /** Made in the row's own scratch directory before the command runs there. */
  readonly setup: (dir: string) => Promise<void> | void;
}

const MANIFEST = fixture('manifests', 'valid', 'node-entrypoint', 'skill.yaml');

describe('hostile files: refused by kind before they are opened', () => {
  let scratch: string;
  before(async () => {
    scratch = await tempDir('skillctl-hostile-files-');
  });
  after(async () => removeDir(scratch));

  const rows: Row[] = [
    // Named like a manifest, it makes its directory a bundle: the bundle holds a FIFO.
    { what: 'validate a FIFO named like a manifest', args: ['validate', 'skill.json'], code: 'BUNDLE_SPECIAL_FILE', exit: 1, setup: (d) => fifo(join(d, 'skill.json')) },
    { what: 'validate a FIFO named like a YAML file', args: ['validate', 'manifest.yaml'], code: 'INPUT_NOT_REGULAR_FILE', exit: 2, setup: (d) => fifo(join(d, 'manifest.yaml')) },
    { what: 'validate /dev/zero', args: ['validate', '/dev/zero'], code: 'INPUT_NOT_REGULAR_FILE', exit: 2, setup: () => undefined },
    { what: 'validate a socket', args: ['validate', 'sock.yaml'], code: 'INPUT_NOT_REGULAR_FILE', exit: 2, setup: () => undefined },
    {
      what: 'validate a bundle whose skill.yaml is a FIFO',
      args: ['validate', 'b'],
      code: 'BUNDLE_SPECIAL_FILE',
      exit: 1,
      setup: async (d) => {
        await mkdir(join(d, 'b'));
        fifo(join(d, 'b', 'skill.yaml'));
        await writeFile(join(d, 'b', 'skill.json'), '{}');
      },
    },
    {
      what: 'validate a 5 GB sparse manifest (refused from its size, unread)',
      args: ['validate', 'big.yaml'],
      code: 'MANIFEST_TOO_LARGE',
      exit: 1,
      setup: async (d) => {
        await writeFile(join(d, 'big.yaml'), '');
        await truncate(join(d, 'big.yaml'), 5 * 1024 ** 3);
      },
    },
    { what: 'run a FIFO named x.tgz', args: ['run', './x.tgz'], code: 'RUN_TARGET_INVALID', exit: 2, setup: (d) => fifo(join(d, 'x.tgz')) },
    { what: 'verify-pins --lock /dev/zero', args: ['verify-pins', '--lock', '/dev/zero'], code: 'INPUT_NOT_REGULAR_FILE', exit: 2, setup: () => undefined },
    { what: 'verify-pins --lock a FIFO', args: ['verify-pins', '--lock', 'lock.json'], code: 'INPUT_NOT_REGULAR_FILE', exit: 2, setup: (d) => fifo(join(d, 'lock.json')) },
    { what: 'pin --lock - (stdin cannot be written)', args: ['pin', '--all', '--lock', '-'], code: 'USAGE', exit: 2, setup: () => undefined },
    {
      what: 'registry list where index.json is a FIFO',
      args: ['registry', 'list', '--registry', 'reg'],
      code: 'REGISTRY_INDEX_INVALID',
      exit: 2,
      setup: async (d) => {
        await mkdir(join(d, 'reg'));
        fifo(join(d, 'reg', 'index.json'));
      },
    },
    {
      what: 'validate --contract on a payload that is a FIFO',
      args: ['validate', '--contract', 'ctr.output.v1', 'payload.json'],
      code: 'INPUT_NOT_REGULAR_FILE',
      exit: 2,
      setup: (d) => fifo(join(d, 'payload.json')),
    },
    {
      what: 'audit verify of a log that is a FIFO',
      args: ['audit', 'verify', 'audit.jsonl'],
      code: 'INPUT_NOT_REGULAR_FILE',
      exit: 2,
      setup: (d) => fifo(join(d, 'audit.jsonl')),
    },
  ];

  for (const row of rows) {
    it(`${row.what}: ${row.code}, exit ${row.exit}`, async () => {
      const dir = join(scratch, row.what.replace(/[^a-z0-9]+/gi, '-'));
      await mkdir(dir);
      await row.setup(dir);
      const server = row.args.includes('sock.yaml') ? await socketAt(join(dir, 'sock.yaml')) : undefined;
      try {
        const r = answer(row.args, dir);
        assert.ok(r.codes.includes(row.code), `${row.code} expected, got ${r.codes.join(', ')}\n${r.stdout}${r.stderr}`);
        assert.equal(r.code, row.exit, r.stdout + r.stderr);
        assert.ok(!r.codes.includes('INTERNAL'), r.stdout);
      } finally {
        server?.close();
      }
    });
  }
});

describe('hostile files in a project: the lock, its write lock, its keys, pins/', () => {
  const roots: string[] = [];
  after(async () => Promise.all(roots.map(removeDir)));
  /** A project pinned by `skillctl pin --all`, with a keys file. */
  async function pinned(): Promise<string> {
    const root = await makeProject();
    roots.push(root);
    const r = answer(['pin', '--all'], root);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return root;
  }
  const lock = (root: string): string => join(root, 'pins', 'skills.lock.json');

  it('verify-pins and pin with a lock that is a FIFO: INPUT_NOT_REGULAR_FILE, exit 2', async () => {
    const root = await pinned();
    await rm(lock(root));
    fifo(lock(root));
    for (const args of [['verify-pins'], ['pin', '--all']]) {
      const r = answer(args, root);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.deepEqual(r.codes, ['INPUT_NOT_REGULAR_FILE'], r.stdout);
    }
  });

  it('pin with a .lck that is a FIFO or a directory: OUTPUT_UNWRITABLE naming it, exit 2, lock unchanged', async () => {
    for (const make of [(p: string) => fifo(p), (p: string) => mkdir(p)]) {
      const root = await pinned();
      const lck = join(root, 'pins', '.skills.lock.json.lck');
      await make(lck);
      const before = await readFile(lock(root));
      const r = answer(['pin', '--all'], root);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.deepEqual(r.codes, ['OUTPUT_UNWRITABLE'], r.stdout);
      assert.match(r.stdout, /\.skills\.lock\.json\.lck/);
      assert.deepEqual(await readFile(lock(root)), before);
    }
  });

  it('pin where pins/ is a file: OUTPUT_UNWRITABLE naming it, exit 2 (holds as root too)', async () => {
    const root = await makeProject();
    roots.push(root);
    await writeFile(join(root, 'pins'), 'not a directory\n');
    const r = answer(['pin', '--all', '--lock', 'pins/skills.lock.json'], root);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(r.codes, ['OUTPUT_UNWRITABLE'], r.stdout);
    assert.match(r.stdout, /pins/);
  });

  it('pin into a read-only pins/: OUTPUT_UNWRITABLE naming it, exit 2', async (t) => {
    // Root writes through permission bits; the variant above covers root.
    if (isRoot()) return t.skip('running as root: chmod does not stop root from writing');
    const root = await pinned();
    await chmod(join(root, 'pins'), 0o555);
    try {
      const r = answer(['pin', '--all'], root);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.deepEqual(r.codes, ['OUTPUT_UNWRITABLE'], r.stdout);
    } finally {
      await chmod(join(root, 'pins'), 0o755);
    }
  });

  it('verify-pins with a keys file that is a FIFO: KEYS_INVALID, exit 1', async () => {
    const root = await makeProject();
    roots.push(root);
    assert.equal(answer(['keygen', '--signer', 'alice', '--out', '.skillctl/keys/alice.key'], root).code, 0);
    assert.equal(answer(['pin', '--all', '--sign', '.skillctl/keys/alice.key', '--signer', 'alice'], root).code, 0);
    await rm(join(root, 'pins', 'public-keys.json'));
    fifo(join(root, 'pins', 'public-keys.json'));
    const r = answer(['verify-pins'], root);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.codes.includes('KEYS_INVALID'), r.stdout);
  });

  it('verify-pins of a pinned archive that became a FIFO: PIN_MISSING, exit 1', async () => {
    const root = await makeProject();
    roots.push(root);
    assert.equal(answer(['pack', 'manifests/hello', '--out', 'dist'], root).code, 0);
    assert.equal(answer(['pin', 'dist/demo.hello-0.1.0.tgz'], root).code, 0);
    await rm(join(root, 'dist', 'demo.hello-0.1.0.tgz'));
    fifo(join(root, 'dist', 'demo.hello-0.1.0.tgz'));
    const r = answer(['verify-pins'], root);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.codes.includes('PIN_MISSING'), r.stdout);
  });
});

describe('pack that fails leaves no --out directory', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('skillctl-hostile-pack-');
    await cp(fixture('pins', 'project', 'manifests', 'hello'), join(dir, 'hello'), { recursive: true });
    await writeFile(join(dir, 'hello', 'skill.yaml'), (await readFile(join(dir, 'hello', 'skill.yaml'), 'utf8')).replace(/skill_version: .*/, 'skill_version: not-semver'));
  });
  after(async () => removeDir(dir));

  it('a refused pack makes no directory: exit 1, new/out does not exist, nothing else changed', async () => {
    const before = await snapshot(dir);
    const r = answer(['pack', 'hello', '--out', 'new/out'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(existsSync(join(dir, 'new')), false);
    assert.deepEqual(await snapshot(dir), before);
  });
});

describe('a manifest read whole only when it is what it says', () => {
  it('a manifest that is a symbolic link to a regular file is still read (links are followed for named inputs)', async () => {
    const dir = await tempDir('skillctl-hostile-link-');
    try {
      await cp(MANIFEST, join(dir, 'real.yaml'));
      const { symlink } = await import('node:fs/promises');
      await symlink(join(dir, 'real.yaml'), join(dir, 'link.yaml'));
      const r = answer(['validate', 'link.yaml'], dir);
      assert.ok(!r.codes.includes('INPUT_NOT_REGULAR_FILE'), r.stdout);
    } finally {
      await removeDir(dir);
    }
  });
});

describe("policy names a skill planted at a project root, read by a later run's checks", () => {
  // A process skill allowed to write the project can create any name there: a FIFO or a giant
  // named like a policy must neither hold up nor count for the checks that read every
  // NAME.policy.yaml a project keeps (a --policy file, a nested root).
  it('a FIFO and a 5 MiB file named *.policy.yaml grant nothing and hold nothing up: the --policy run and a run in a nested root answer (exit 0)', async () => {
    const dir = await tempDir('skillctl-hostile-policy-names-');
    try {
      await mkdir(join(dir, '.git'));
      await mkdir(join(dir, '.skillctl'));
      await mkdir(join(dir, 'pkg', '.git'), { recursive: true });
      await writeFile(join(dir, 'notes.txt'), 'notes\n');
      await writeFile(join(dir, 'pkg', 'notes.txt'), 'package\n');
      await writeFile(join(dir, '.skillctl', 'ci.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
      await writeFile(join(dir, 'pkg', 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
      fifo(join(dir, 'trap.policy.yaml'));
      await writeFile(join(dir, 'giant.policy.yaml'), `version: 1\npermissions:\n  fs.write: [.]\n# ${'x'.repeat(5 * 1024 * 1024)}\n`);
      for (const [cwd, extra] of [
        [dir, ['--policy', '.skillctl/ci.policy.yaml']],
        [join(dir, 'pkg'), []],
      ] as const) {
        const r = answer(['run', 'fs.read_text', '--input', '-', '--no-audit', ...extra], cwd, JSON.stringify({ path: 'notes.txt' }));
        assert.deepEqual([r.code, r.codes.filter((c) => c.startsWith('POLICY_'))], [0, []], r.stdout + r.stderr);
      }
    } finally {
      await removeDir(dir);
    }
  });

  it("a FIFO as a project root's own policy (a nested root planted so) is refused unread: INPUT_NOT_REGULAR_FILE naming it, exit 2", async () => {
    const dir = await tempDir('skillctl-hostile-root-policy-');
    try {
      await mkdir(join(dir, '.git'));
      fifo(join(dir, 'skillctl.policy.yaml'));
      const r = answer(['run', 'fs.read_text', '--input', '-', '--no-audit'], dir, JSON.stringify({ path: 'x' }));
      assert.deepEqual([r.code, r.codes], [2, ['INPUT_NOT_REGULAR_FILE']], r.stdout);
      assert.match(r.stdout, new RegExp(`the policy ${join(dir, 'skillctl.policy.yaml')} is a FIFO`));
    } finally {
      await removeDir(dir);
    }
  });
});
