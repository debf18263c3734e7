import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

const ID = 'fs.read_tree';

interface Tree {
  root: string;
  entries: { path: string; kind: string; bytes?: number }[];
  truncated: boolean;
}

async function tree(dir: string): Promise<void> {
  await mkdir(join(dir, 'src', 'deep', 'deeper'), { recursive: true });
  await writeFile(join(dir, 'a.txt'), 'hello');
  await writeFile(join(dir, 'src', 'main.rs'), 'fn main() {}\n');
  await writeFile(join(dir, 'src', 'deep', 'deeper', 'x.txt'), 'x');
  await writeFile(join(dir, '.env'), 'SECRET=1');
  await mkdir(join(dir, '.git'));
  await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(join(dir, '.gitignore'), 'build/\n*.log\n!keep.log\n');
  await mkdir(join(dir, 'build'));
  await writeFile(join(dir, 'build', 'out.js'), '');
  await writeFile(join(dir, 'debug.log'), '');
  await writeFile(join(dir, 'keep.log'), 'k');
  await writeFile(join(dir, 'src', '.gitignore'), 'gen.rs\n');
  await writeFile(join(dir, 'src', 'gen.rs'), '');
}

describe('fs.read_tree', () => {
  it("answers the seed's example request: deterministic order, .gitignore honoured, hidden left out", async () => {
      const dir = tempDir();
      await tree(dir);
      const { ctx } = fixtureContext({ cwd: dir });
      const out = okOutput<Tree>(await runSkill(ID, { root: '.', max_entries: 2000, max_depth: 8, include_hidden: false }, ctx));
      assert.deepEqual(out, {
        root: '.',
        entries: [
          { path: 'a.txt', kind: 'file', bytes: 5 },
          { path: 'keep.log', kind: 'file', bytes: 1 },
          { path: 'src', kind: 'dir' },
          { path: 'src/deep', kind: 'dir' },
          { path: 'src/deep/deeper', kind: 'dir' },
          { path: 'src/deep/deeper/x.txt', kind: 'file', bytes: 1 },
          { path: 'src/main.rs', kind: 'file', bytes: 13 },
        ],
        truncated: false,
      });
      // The same tree gives the same answer.
      assert.deepEqual(okOutput<Tree>(await runSkill(ID, { root: '.' }, ctx)), out);
    });

  it('lists hidden entries on request, but never .git', async () => {
      const dir = tempDir();
      await tree(dir);
      const { ctx } = fixtureContext({ cwd: dir });
      const out = okOutput<Tree>(await runSkill(ID, { root: '.', include_hidden: true }, ctx));
      const paths = out.entries.map((e) => e.path);
      assert.ok(paths.includes('.env') && paths.includes('.gitignore') && paths.includes('src/.gitignore'));
      assert.ok(!paths.some((p) => p === '.git' || p.startsWith('.git/')));
    });

  it('truncates at max_entries and at max_depth, with the flag set', async () => {
      const dir = tempDir();
      await tree(dir);
      const { ctx } = fixtureContext({ cwd: dir });
      const few = okOutput<Tree>(await runSkill(ID, { root: '.', max_entries: 3 }, ctx));
      assert.deepEqual(few.entries.map((e) => e.path), ['a.txt', 'keep.log', 'src']);
      assert.equal(few.truncated, true);
      const shallow = okOutput<Tree>(await runSkill(ID, { root: '.', max_depth: 2 }, ctx));
      assert.deepEqual(shallow.entries.map((e) => e.path), ['a.txt', 'keep.log', 'src', 'src/deep', 'src/main.rs']);
      assert.equal(shallow.truncated, true);
      const enough = okOutput<Tree>(await runSkill(ID, { root: '.', max_depth: 4 }, ctx));
      assert.equal(enough.truncated, false);
    });

  it("stops before the host's output cap", async () => {
      const dir = tempDir();
      for (let i = 0; i < 50; i++) await writeFile(join(dir, `file-${String(i).padStart(2, '0')}.txt`), '');
      const { ctx } = fixtureContext({ cwd: dir, limits: { maxOutputBytes: 1024 } });
      const out = okOutput<Tree>(await runSkill(ID, { root: '.' }, ctx));
      assert.equal(out.truncated, true);
      assert.ok(Buffer.byteLength(JSON.stringify(out)) <= 1024);
    });

  it('lists symlinks as such and never follows them out of the root', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'root'));
      await mkdir(join(dir, 'outside'));
      await writeFile(join(dir, 'outside', 'secret.txt'), 's');
      await symlink(join(dir, 'outside'), join(dir, 'root', 'escape'));
      await symlink(join(dir, 'outside', 'secret.txt'), join(dir, 'root', 'file-link'));
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['root'] } });
      const out = okOutput<Tree>(await runSkill(ID, { root: 'root' }, ctx));
      assert.deepEqual(out.entries, [
        { path: 'escape', kind: 'symlink' },
        { path: 'file-link', kind: 'symlink' },
      ]);
    });

  it('is denied a root outside the allowed paths', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'data'));
      await mkdir(join(dir, 'data2'));
      await symlink(join(dir, 'data2'), join(dir, 'data', 'link'));
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['data'] } });
      for (const root of ['data2', 'data/..', 'data/link', '/']) assert.equal(denialCode(await runSkill(ID, { root }, ctx)), 'SKILL_NOT_ALLOWED', root);
    });

  it('reports a missing root or a file as errors', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'f'), '');
      const { ctx } = fixtureContext({ cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { root: 'nope' }, ctx)), 'SKILL_FILE_NOT_FOUND');
      assert.equal(errorCode(await runSkill(ID, { root: 'f' }, ctx)), 'SKILL_NOT_A_DIRECTORY');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/root' }]);
    assert.deepEqual(await inputFindings(ID, { root: '.', max_depth: 65 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_depth' }]);
    assert.deepEqual(await inputFindings(ID, { root: '.', include_hidden: 'yes' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/include_hidden' }]);
  });
});
