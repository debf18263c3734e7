import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillContext, type SkillContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import { hasRipgrep, type Found } from '../helpers/skill-responses.js';

const ID = 'search.ripgrep';

const RG = hasRipgrep();

async function tree(dir: string): Promise<void> {
  await mkdir(join(dir, 'src', 'nested', 'deep'), { recursive: true });
  await mkdir(join(dir, 'build'));
  await mkdir(join(dir, '.hidden'));
  await mkdir(join(dir, 'a'));
  await writeFile(join(dir, 'a.txt'), 'TODO at top\n');
  await writeFile(join(dir, 'a', 'b.txt'), 'todo inside a/\n');
  await writeFile(join(dir, 'src', 'lib.rs'), 'fn x() {\n    // TODO: fix ünïcode café TODO twice\n    let n = 42; // todo\n}\n');
  await writeFile(join(dir, 'src', 'crlf.rs'), 'first TODO\r\nsecond line todo$\r\nend\r\n');
  await writeFile(join(dir, 'src', 'bom.rs'), '\uFEFFTODO with bom\n');
  await writeFile(join(dir, 'src', 'bad.rs'), Buffer.concat([Buffer.from('ok TODO\n'), Buffer.from([0x62, 0xff, 0x54, 0x4f, 0x44, 0x4f, 0x0a]), Buffer.from('TODO after\n')]));
  await writeFile(join(dir, 'src', 'bin.rs'), Buffer.concat([Buffer.from('TODO before nul\n'), Buffer.from([0, 1, 2]), Buffer.from('\nTODO after nul\n')]));
  await writeFile(join(dir, 'src', 'nested', 'deep', 'z.rs'), 'x1 TODO_9 y22 TODOS\n\tTODO-end\n');
  await writeFile(join(dir, 'src', 'nested', 'gen.rs'), 'TODO generated\n');
  await writeFile(join(dir, 'src', 'nested', '.gitignore'), 'gen.rs\n!keep.log\n');
  await writeFile(join(dir, 'src', 'nested', 'keep.log'), 'TODO kept log\n');
  await writeFile(join(dir, 'src', 'nested', 'drop.log'), 'TODO dropped log\n');
  await writeFile(join(dir, '.gitignore'), 'build/\n*.log\n');
  await writeFile(join(dir, 'build', 'out.rs'), 'TODO in build\n');
  await writeFile(join(dir, '.hidden', 'h.rs'), 'TODO hidden\n');
  await writeFile(join(dir, '.dot.rs'), 'TODO dotfile\n');
  await writeFile(join(dir, 'greek.txt'), 'ΣΊΣΥΦΟΣ σίσυφος KELVIN \u212A k\n');
  await symlink(join(dir, 'src', 'lib.rs'), join(dir, 'link.rs'));
}

async function contexts(dir: string): Promise<{ rg: SkillContext; js: SkillContext }> {
  return {
    rg: await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['rg'] } }),
    js: await skillContext(ID, { cwd: dir, policy: { read: ['.'] } }),
  };
}

const REQUESTS: Record<string, unknown>[] = [
  { pattern: 'TODO' },
  { pattern: 'TODO', case_sensitive: true },
  { pattern: 'todo', paths: ['src', 'src/lib.rs', 'a.txt'] },
  { pattern: '\\bTODO\\b', case_sensitive: true },
  { pattern: '\\d+', paths: ['src'] },
  { pattern: '[\\w-]+$', paths: ['src/nested'] },
  { pattern: '^\\s*//?\\s?(TODO|todo)', case_sensitive: true },
  { pattern: 'caf.|ün[ïi]code', paths: ['src'] },
  { pattern: 'TODO\\S{0,3}', glob: ['*.rs', '!lib.rs'] },
  { pattern: 'TODO', glob: ['*.log'] },
  { pattern: 'TODO', glob: ['src/**', '!**/deep/**'] },
  { pattern: 'σίσυφος' },
  { pattern: 'k', case_sensitive: false, paths: ['greek.txt'] },
  { pattern: '(?P<word>TO)(?:DO)?\\$?$', case_sensitive: false },
  { pattern: 'o', max_matches: 3 },
  { pattern: '[[:upper:]]{4}', case_sensitive: true, paths: ['src/nested'] },
];

describe('search.ripgrep', () => {
  it("answers the seed's example request with the seed's response shape", async () => {
      const dir = tempDir();
      await tree(dir);
      const { js } = await contexts(dir);
      const out = okOutput<Found>(await runSkill(ID, { pattern: 'TODO', paths: ['.'], glob: ['*.rs'], case_sensitive: false, max_matches: 500 }, js.ctx));
      // As with ripgrep, a glob that names a hidden file includes it; hidden directories stay out.
      assert.deepEqual(out.matches[0], { file: '.dot.rs', line: 1, column: 1, match: 'TODO', context_before: '', context_after: ' dotfile' });
      assert.deepEqual(out.matches[1], { file: 'src/bad.rs', line: 1, column: 4, match: 'TODO', context_before: 'ok ', context_after: '' });
      const lib = out.matches.filter((m) => m.file === 'src/lib.rs');
      assert.deepEqual(
        lib.map((m) => [m.line, m.column, m.match]),
        [
          [2, 8, 'TODO'],
          [2, 34, 'TODO'], // a byte column: ü, ï and é take two bytes each
          [3, 20, 'todo'],
        ],
      );
      assert.equal(lib[0]?.context_after, ': fix ünïcode café TODO twice');
      const files = new Set(out.matches.map((m) => m.file));
      for (const f of ['build/out.rs', '.hidden/h.rs', 'link.rs', 'src/bin.rs']) assert.ok(!files.has(f), `${f} is not searched`);
      // A glob overrides .gitignore for the files it names, as ripgrep's --glob does.
      assert.ok(files.has('src/nested/gen.rs'));
      const plain = okOutput<Found>(await runSkill(ID, { pattern: 'TODO' }, js.ctx));
      assert.ok(!plain.matches.some((m) => m.file === 'src/nested/gen.rs' || m.file === 'src/nested/drop.log'), '.gitignore honoured');
      assert.ok(plain.matches.some((m) => m.file === 'src/nested/keep.log'), 'a negation re-includes');
      assert.equal(out.truncated, false);
    });

  it('gives identical results with ripgrep and without it', { skip: RG ? false : 'ripgrep is not installed' }, async () => {
      const dir = tempDir();
      await tree(dir);
      const { rg, js } = await contexts(dir);
      for (const req of REQUESTS) {
        const viaRg = okOutput<Found>(await runSkill(ID, req, rg.ctx));
        const viaJs = okOutput<Found>(await runSkill(ID, req, js.ctx));
        assert.deepEqual(viaJs, viaRg, JSON.stringify(req));
        assert.ok(viaRg.matches.length > 0, `request ${JSON.stringify(req)} finds something`);
      }
      assert.ok(rg.gate.uses.some((u) => u.scope === 'exec' && u.allowed), 'ripgrep ran');
      assert.ok(!js.gate.uses.some((u) => u.scope === 'exec' && u.allowed), 'the fallback ran');
    });

  it('asks for rg as a program it can do without: a refusal is recorded as a fallback, never a denial', async () => {
      const dir = tempDir();
      await tree(dir);
      const { js } = await contexts(dir);
      okOutput<Found>(await runSkill(ID, { pattern: 'TODO' }, js.ctx));
      const exec = js.gate.uses.filter((u) => u.scope === 'exec');
      assert.deepEqual(exec.map((u) => [u.allowed, u.code, u.fallback]), [[false, 'POLICY_EXEC_DENIED', 'the built-in search']]);
      assert.deepEqual(js.gate.uses.filter((u) => !u.allowed && u.fallback === undefined), []);
    });

  it('truncates at max_matches and at the host output cap, both ways', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'many.txt'), 'x\n'.repeat(100));
      for (const policy of [{ read: ['.'], exec: ['rg'] }, { read: ['.'] }]) {
        const { ctx } = await skillContext(ID, { cwd: dir, policy });
        const some = okOutput<Found>(await runSkill(ID, { pattern: 'x', max_matches: 7 }, ctx));
        assert.deepEqual([some.matches.length, some.truncated, some.matches[6]?.line], [7, true, 7]);
        const all = okOutput<Found>(await runSkill(ID, { pattern: 'x', max_matches: 100 }, ctx));
        assert.deepEqual([all.matches.length, all.truncated], [100, false]);
        const capped = await skillContext(ID, { cwd: dir, policy: { ...policy, limits: { max_output_bytes: 2000 } } });
        const c = okOutput<Found>(await runSkill(ID, { pattern: 'x' }, capped.ctx));
        assert.equal(c.truncated, true);
        assert.ok(Buffer.byteLength(JSON.stringify(c)) <= 2000);
      }
    });

  it('refuses patterns the two engines would read differently, and cannot be made to backtrack', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'a.txt'), 'a'.repeat(5000) + '!\n');
      const { ctx } = await skillContext(ID, { cwd: dir });
      for (const pattern of ['(?=a)', 'a(?!b)', '(a)\\1', '[a[b]]', '[a&&b]', '(?i)a', 'a\\nb', 'x{', '\\Qa', '[abc']) {
        assert.equal(errorCode(await runSkill(ID, { pattern }, ctx)), 'SKILL_PATTERN_INVALID', pattern);
      }
      const t0 = performance.now();
      const out = okOutput<Found>(await runSkill(ID, { pattern: '(a+)+$' }, ctx));
      assert.equal(out.matches.length, 0);
      assert.ok(performance.now() - t0 < 5000, 'linear-time matching');
    });

  it('reports a missing search path', async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { pattern: 'x', paths: ['nope'] }, ctx)), 'SKILL_FILE_NOT_FOUND');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/pattern' }]);
    assert.deepEqual(await inputFindings(ID, { pattern: 'x', paths: [] }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/paths' }]);
    assert.deepEqual(await inputFindings(ID, { pattern: 'x', glob: '*.rs' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/glob' }]);
    assert.deepEqual(await inputFindings(ID, { pattern: 'x', max_matches: 0 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_matches' }]);
  });
});

describe('search.ripgrep starts rg in the run\'s sandbox', { skip: RG ? false : 'ripgrep is not installed' }, () => {
  /** fs.read questions: rg's search asks about the roots and the files that matched, the in-process one about all it walks. */
  const reads = (c: SkillContext): number => c.gate.uses.filter((u) => u.scope === 'fs.read').length;
  const request = (root: string): Record<string, unknown> => ({ pattern: 'kept log', paths: [root] });
  const expected = (root: string): string[] => [join(root, 'src', 'nested', 'keep.log')];

  it('under bubblewrap, also for a root outside the working directory (which the sandbox does not hold)', async () => {
    const cwd = tempDir();
    const data = realpathSync(tempDir());
    await tree(data);
    const rg = await skillContext(ID, { cwd, policy: { read: [data], exec: ['rg'] }, sandbox: 'bwrap' });
    const out = okOutput<Found>(await runSkill(ID, request(data), rg.ctx));
    assert.deepEqual(out.matches.map((m) => m.file), expected(data));
    assert.deepEqual(rg.confined.map((c) => c.sandbox), ['bwrap']);
    assert.equal(reads(rg), 2, 'rg did the walk, not the in-process search');
  });

  it('without bubblewrap: auto runs rg unconfined only where the policy accepts it (RUN_UNSANDBOXED); else the in-process search does it', async () => {
    const cwd = realpathSync(tempDir());
    await tree(cwd);
    const bin = join(cwd, 'bin-without-bwrap');
    await mkdir(bin);
    const { execFileSync } = await import('node:child_process');
    await symlink(execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim(), join(bin, 'rg'));
    const env = { PATH: bin };
    const refused = await skillContext(ID, { cwd, policy: { read: ['.'], exec: ['rg'] }, env, sandbox: 'auto' });
    assert.deepEqual(okOutput<Found>(await runSkill(ID, request('.'), refused.ctx)).matches.map((m) => m.file), expected(''));
    assert.deepEqual(refused.confined, [], 'rg never started');
    const auto = await skillContext(ID, { cwd, policy: { read: ['.'], exec: ['rg'] }, env, sandbox: 'auto', allowUnsandboxed: true });
    assert.deepEqual(okOutput<Found>(await runSkill(ID, request('.'), auto.ctx)).matches.map((m) => m.file), expected(''));
    assert.deepEqual(auto.confined.map((c) => [c.sandbox, c.diagnostics.map((d) => d.code)]), [['none', ['RUN_UNSANDBOXED']]]);
    assert.equal(reads(auto), 2);
    const strict = await skillContext(ID, { cwd, policy: { read: ['.'], exec: ['rg'] }, env, sandbox: 'bwrap' });
    assert.deepEqual(okOutput<Found>(await runSkill(ID, request('.'), strict.ctx)).matches.map((m) => m.file), expected(''));
    assert.deepEqual(strict.confined, [], 'rg never started');
    assert.ok(reads(strict) > 2, 'the in-process search walked the tree');
  });
});
