import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings } from '../../helpers/builtin-cli.js';
import type { Tree } from '../../helpers/skill-responses.js';

const ID = 'fs.read_tree';

describe('skillctl run fs.read_tree', () => {
  const p = new BuiltinProject('skillctl-e2e-read-tree-');
  let policy: string;

  before(async () => {
    const t = join(p.dir, 'tree');
    await mkdir(join(t, 'src', 'deep', 'deeper'), { recursive: true });
    await mkdir(join(t, '.hidden'));
    await mkdir(join(p.dir, 'outside'));
    await writeFile(join(t, 'src', 'main.rs'), 'fn main() {}\n');
    await writeFile(join(t, 'src', 'deep', 'deeper', 'x.txt'), 'x');
    await writeFile(join(t, 'b.txt'), 'bb');
    await writeFile(join(t, 'skip.log'), 'ignored');
    await writeFile(join(t, '.gitignore'), '*.log\n');
    await writeFile(join(t, '.hidden', 'h.txt'), 'h');
    await writeFile(join(p.dir, 'outside', 'secret.txt'), 's');
    await symlink(join(p.dir, 'outside'), join(t, 'escape'));
    for (let i = 0; i < 40; i++) await writeFile(join(t, 'src', `f${String(i).padStart(2, '0')}.rs`), '');
    policy = await p.policy({ permissions: { 'fs.read': ['tree'] } });
  });

  it("answers the seed's example request with the seed's response: sorted, .gitignore honoured, symlinks not followed", async () => {
    const r = await p.plain(ID, { root: 'tree', max_entries: 2000, max_depth: 8, include_hidden: false }, { policy });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Tree;
    assert.deepEqual(Object.keys(out).sort(), ['entries', 'root', 'truncated']);
    assert.equal(out.root, 'tree');
    assert.equal(out.truncated, false);
    const paths = out.entries.map((e) => e.path);
    assert.deepEqual(paths.slice(0, 4), ['b.txt', 'escape', 'src', 'src/deep']);
    assert.deepEqual(out.entries.find((e) => e.path === 'src/main.rs'), { path: 'src/main.rs', kind: 'file', bytes: 13 });
    assert.deepEqual(out.entries.find((e) => e.path === 'escape'), { path: 'escape', kind: 'symlink' });
    assert.ok(!paths.some((p) => p.includes('secret') || p.endsWith('.log') || p.startsWith('.hidden')));
    assert.equal(out.entries.length, 47);
  });

  it('truncates at max_entries and max_depth, and at the policy cap with the whole output under it', async () => {
    const few = expectOk<Tree>(await p.run(ID, { root: 'tree', max_entries: 3 }, { policy }));
    assert.deepEqual([few.entries.map((e) => e.path), few.truncated], [['b.txt', 'escape', 'src'], true]);
    const shallow = expectOk<Tree>(await p.run(ID, { root: 'tree', max_depth: 1, include_hidden: true }, { policy }));
    assert.deepEqual([shallow.entries.map((e) => e.path), shallow.truncated], [['.gitignore', '.hidden', 'b.txt', 'escape', 'src'], true]);
    const capped = await p.policy({ permissions: { 'fs.read': ['tree'] }, limits: { max_output_bytes: 600 } });
    const c = expectCapped<Tree>(await p.run(ID, { root: 'tree' }, { policy: capped }), 600);
    assert.ok(c.truncated && c.entries.length > 5, JSON.stringify(c));
  });

  it('refuses a root outside the policy: exit 3 and an audit record naming fs.read', async () => {
    await expectDenied(p, await p.run(ID, { root: 'outside' }, { policy }), 'fs.read', 'POLICY_PATH_DENIED');
    await expectDenied(p, await p.run(ID, { root: 'tree/escape' }, { policy }), 'fs.read', 'POLICY_PATH_DENIED');
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { max_depth: 'deep', include_hidden: 'no' }, { policy }), ['/include_hidden', '/max_depth', '/root']);
    await expectSchemaFindings(p, await p.run(ID, { root: 'tree', max_entries: -1 }, { policy }), ['/max_entries']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 8);
  });
});
