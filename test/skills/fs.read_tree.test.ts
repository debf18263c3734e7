import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import type { Tree } from '../helpers/skill-responses.js';

const ID = 'fs.read_tree';

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
      const { ctx } = await skillContext(ID, { cwd: dir });
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
      const { ctx } = await skillContext(ID, { cwd: dir });
      const out = okOutput<Tree>(await runSkill(ID, { root: '.', include_hidden: true }, ctx));
      const paths = out.entries.map((e) => e.path);
      assert.ok(paths.includes('.env') && paths.includes('.gitignore') && paths.includes('src/.gitignore'));
      assert.ok(!paths.some((p) => p === '.git' || p.startsWith('.git/')));
    });

  it('truncates at max_entries and at max_depth, with the flag set', async () => {
      const dir = tempDir();
      await tree(dir);
      const { ctx } = await skillContext(ID, { cwd: dir });
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
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], limits: { max_output_bytes: '1KiB' } } });
      const out = okOutput<Tree>(await runSkill(ID, { root: '.' }, ctx));
      assert.equal(out.truncated, true);
      assert.ok(Buffer.byteLength(JSON.stringify(out)) <= 1024);
      // A long root takes its share of the cap too.
      const long = `${'sub/'.repeat(60)}leaf`;
      await mkdir(join(dir, long), { recursive: true });
      for (let i = 0; i < 20; i++) await writeFile(join(dir, long, `f${i}`), '');
      const deep = okOutput<Tree>(await runSkill(ID, { root: long }, ctx));
      assert.equal(deep.truncated, true);
      assert.ok(deep.entries.length > 0 && Buffer.byteLength(JSON.stringify(deep)) <= 1024, JSON.stringify(deep));
    });

  it('reports a missing root or a file as errors', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'f'), '');
      const { ctx } = await skillContext(ID, { cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { root: 'nope' }, ctx)), 'SKILL_FILE_NOT_FOUND');
      assert.equal(errorCode(await runSkill(ID, { root: 'f' }, ctx)), 'SKILL_NOT_A_DIRECTORY');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/root' }]);
    assert.deepEqual(await inputFindings(ID, { root: '.', max_depth: 65 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_depth' }]);
    assert.deepEqual(await inputFindings(ID, { root: '.', include_hidden: 'yes' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/include_hidden' }]);
  });
});
