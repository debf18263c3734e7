import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings, expectSkillError } from '../../helpers/builtin-cli.js';
import { hasRipgrep, type Found } from '../../helpers/skill-responses.js';

const ID = 'search.ripgrep';

describe('skillctl run search.ripgrep', () => {
  const p = new BuiltinProject('skillctl-e2e-search-');
  let withRg: string;
  let withoutRg: string;

  before(async () => {
    await mkdir(join(p.dir, 'src', 'target'), { recursive: true });
    await mkdir(join(p.dir, 'secret'));
    await writeFile(join(p.dir, 'src', 'lib.rs'), 'fn x() {\n    // TODO: fix café\n    let todo = 1;\n}\n');
    await writeFile(join(p.dir, 'src', 'main.rs'), 'fn main() {} // ToDo later\n');
    await writeFile(join(p.dir, 'src', 'notes.md'), 'TODO not a .rs file\n');
    await writeFile(join(p.dir, 'src', 'target', 'gen.rs'), 'TODO generated\n');
    await writeFile(join(p.dir, 'src', 'many.rs'), 'todo\n'.repeat(40));
    await writeFile(join(p.dir, 'src', '.gitignore'), 'target/\n');
    await writeFile(join(p.dir, 'secret', 'keys.rs'), 'TODO rotate\n');
    withRg = await p.policy({ permissions: { 'fs.read': ['src'], exec: ['rg'] } });
    withoutRg = await p.policy({ permissions: { 'fs.read': ['src'] } });
  });

  const seedRequest = { pattern: 'TODO', paths: ['src'], glob: ['*.rs', '!many.rs'], case_sensitive: false, max_matches: 500 };

  it("answers the seed's example request with the seed's response, the same with ripgrep and without", async () => {
    const r = await p.plain(ID, seedRequest, { policy: withoutRg });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Found;
    assert.deepEqual(out, {
      matches: [
        { file: 'src/lib.rs', line: 2, column: 8, match: 'TODO', context_before: '    // ', context_after: ': fix café' },
        { file: 'src/lib.rs', line: 3, column: 9, match: 'todo', context_before: '    let ', context_after: ' = 1;' },
        { file: 'src/main.rs', line: 1, column: 17, match: 'ToDo', context_before: 'fn main() {} // ', context_after: ' later' },
      ],
      truncated: false,
    });
    if (hasRipgrep()) {
      const viaRg = await p.run(ID, seedRequest, { policy: withRg });
      assert.deepEqual(expectOk<Found>(viaRg), out);
      // rg ran in bubblewrap, holding only src (the working directory is outside the grant).
      assert.equal((await p.record(viaRg)).result.sandbox, 'bwrap');
    }
  });

  it('without rg granted, the built-in search is an allowed run: the record says it fell back, not that it was denied', async () => {
    const ran = await p.run(ID, seedRequest, { policy: withoutRg });
    expectOk<Found>(ran);
    const { policy } = await p.record(ran);
    assert.deepEqual([policy.decision, policy.denials], ['allow', []]);
    assert.deepEqual(
      policy.fallbacks?.map((f) => [f.scope, f.code, f.instead]),
      [['exec', 'POLICY_EXEC_DENIED', 'the built-in search']],
    );
    assert.deepEqual(policy.capabilities.used, [`fs.read:${join(p.dir, 'src')}`]);
    if (hasRipgrep()) {
      const viaRg = await p.record(await p.run(ID, seedRequest, { policy: withRg }));
      assert.deepEqual([viaRg.policy.decision, viaRg.policy.fallbacks], ['allow', undefined]);
    }
  });

  it('truncates at max_matches, and at the policy cap with the whole output under it', async () => {
    const few = expectOk<Found>(await p.run(ID, { pattern: 'todo', paths: ['src/many.rs'], max_matches: 5 }, { policy: withoutRg }));
    assert.deepEqual([few.matches.length, few.truncated, few.matches[4]?.line], [5, true, 5]);
    const capped = await p.policy({ permissions: { 'fs.read': ['src'] }, limits: { max_output_bytes: 1000 } });
    const c = expectCapped<Found>(await p.run(ID, { pattern: 'todo', paths: ['src/many.rs'] }, { policy: capped }), 1000);
    assert.ok(c.truncated && c.matches.length > 5 && c.matches.length < 40, JSON.stringify(c));
  });

  it('refuses a path outside the policy: exit 3 and an audit record naming fs.read', async () => {
    await expectDenied(p, await p.run(ID, { pattern: 'TODO', paths: ['src', 'secret'] }, { policy: withRg }), 'fs.read', 'POLICY_PATH_DENIED');
    await expectDenied(p, await p.run(ID, { pattern: 'TODO', paths: ['src/../secret'] }, { policy: withoutRg }), 'fs.read', 'POLICY_PATH_INVALID');
  });

  it('reports a pattern the two engines would read differently as a skill error', async () => {
    expectSkillError(await p.run(ID, { pattern: '(?=TODO)' }, { policy: withoutRg }), 'SKILL_PATTERN_INVALID', 2);
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { paths: 'src', glob: '*.rs' }, { policy: withoutRg }), ['/glob', '/paths', '/pattern']);
    await expectSchemaFindings(p, await p.run(ID, { pattern: 'x', case_sensitive: 'yes', max_matches: 0 }, { policy: withoutRg }), ['/case_sensitive', '/max_matches']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), hasRipgrep() ? 11 : 9);
  });
});
