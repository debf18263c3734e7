import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings, expectSkillError } from '../../helpers/builtin-cli.js';
import type { ReadText } from '../../helpers/skill-responses.js';

const ID = 'fs.read_text';

describe('skillctl run fs.read_text', () => {
  const p = new BuiltinProject('skillctl-e2e-read-text-');
  let policy: string;

  before(async () => {
    await mkdir(join(p.dir, 'data'));
    await writeFile(join(p.dir, 'data', 'notes.md'), '# Notes\nhéllo\n');
    await writeFile(join(p.dir, 'data', 'big.txt'), 'é'.repeat(3000));
    await writeFile(join(p.dir, 'data', 'blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    await writeFile(join(p.dir, 'secret.txt'), 'secret');
    await symlink(join(p.dir, 'secret.txt'), join(p.dir, 'data', 'link.txt'));
    policy = await p.policy({ permissions: { 'fs.read': ['data'] } });
  });

  it("answers the seed's example request with the seed's response on stdout", async () => {
    const r = await p.plain(ID, { path: 'data/notes.md', max_bytes: 65536, encoding: 'utf-8' }, { policy });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { path: 'data/notes.md', text: '# Notes\nhéllo\n', bytes_read: 15, truncated: false, normalized_encoding: 'utf-8' });
  });

  it('truncates at max_bytes on a character boundary, and at the policy cap with the whole output under it', async () => {
    const cut = expectOk<ReadText>(await p.run(ID, { path: 'data/big.txt', max_bytes: 101 }, { policy }));
    assert.deepEqual([cut.text, cut.bytes_read, cut.truncated], ['é'.repeat(50), 100, true]);
    const capped = await p.policy({ permissions: { 'fs.read': ['data'] }, limits: { max_output_bytes: '1KiB' } });
    const c = expectCapped<ReadText>(await p.run(ID, { path: 'data/big.txt', max_bytes: 65536 }, { policy: capped }), 1024);
    assert.ok(c.truncated && c.bytes_read > 800 && c.text === 'é'.repeat(c.bytes_read / 2), JSON.stringify(c));
  });

  it('refuses outside the policy: exit 3 and an audit record naming fs.read and why', async () => {
    await expectDenied(p, await p.run(ID, { path: 'secret.txt' }, { policy }), 'fs.read', 'POLICY_PATH_DENIED');
    const viaLink = await expectDenied(p, await p.run(ID, { path: 'data/link.txt' }, { policy }), 'fs.read', 'POLICY_PATH_DENIED');
    assert.match(viaLink.policy.reason, /symlink/);
    await expectDenied(p, await p.run(ID, { path: 'data/../secret.txt' }, { policy }), 'fs.read', 'POLICY_PATH_INVALID');
    // With no policy file: read inside the working directory only.
    await expectDenied(p, await p.run(ID, { path: '/etc/hostname' }), 'fs.read', 'POLICY_PATH_DENIED');
  });

  it('reports a binary file as the skill error its error_schema allows', async () => {
    expectSkillError(await p.run(ID, { path: 'data/blob.bin' }, { policy }), 'SKILL_BINARY_CONTENT');
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { max_bytes: 'all', encoding: 8 }, { policy }), ['/encoding', '/max_bytes', '/path']);
    await expectSchemaFindings(p, await p.run(ID, { path: 'data/notes.md', max_bytes: 0, mode: 'r' }, { policy }), ['/max_bytes', '/mode']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 10);
  });
});
