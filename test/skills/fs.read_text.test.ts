import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

const ID = 'fs.read_text';

interface ReadText {
  path: string;
  text: string;
  bytes_read: number;
  truncated: boolean;
  normalized_encoding: string;
}

describe('fs.read_text', () => {
  it("answers the seed's example request with the seed's response shape", async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'notes.md'), '# Notes\nhéllo\n');
      const { ctx, gate } = fixtureContext({ cwd: dir });
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'notes.md', max_bytes: 65536, encoding: 'utf-8' }, ctx));
      assert.deepEqual(out, { path: 'notes.md', text: '# Notes\nhéllo\n', bytes_read: 15, truncated: false, normalized_encoding: 'utf-8' });
      assert.deepEqual(gate.calls.map((c) => [c.op, c.allowed]), [['read', true]]);
    });

  it('cuts at max_bytes on a character boundary and flags truncated', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'e.txt'), 'é'.repeat(10)); // 20 bytes, 2 per character
      const { ctx } = fixtureContext({ cwd: dir });
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'e.txt', max_bytes: 5 }, ctx));
      assert.equal(out.text, 'éé');
      assert.equal(out.bytes_read, 4);
      assert.equal(out.truncated, true);
      const exact = okOutput<ReadText>(await runSkill(ID, { path: 'e.txt', max_bytes: 20 }, ctx));
      assert.equal(exact.truncated, false);
      assert.equal(exact.bytes_read, 20);
    });

  it("clamps max_bytes to the host's output cap", async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'a.txt'), 'x'.repeat(100));
      const { ctx } = fixtureContext({ cwd: dir, limits: { maxOutputBytes: 10 } });
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'a.txt', max_bytes: 65536 }, ctx));
      assert.equal(out.bytes_read, 10);
      assert.equal(out.truncated, true);
    });

  it('decodes the named encoding to UTF-8 and reports its canonical name', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      await writeFile(join(dir, 'sjis.txt'), Buffer.from([0x82, 0xa0])); // あ
      const { ctx } = fixtureContext({ cwd: dir });
      const l = okOutput<ReadText>(await runSkill(ID, { path: 'latin1.txt', encoding: 'latin1' }, ctx));
      assert.deepEqual([l.text, l.normalized_encoding], ['café', 'windows-1252']);
      const s = okOutput<ReadText>(await runSkill(ID, { path: 'sjis.txt', encoding: 'Shift_JIS' }, ctx));
      assert.deepEqual([s.text, s.normalized_encoding], ['あ', 'shift_jis']);
    });

  it('lets a byte-order mark decide, and never splits a UTF-16 surrogate pair', async () => {
      const dir = tempDir();
      const body = Buffer.from('a😀b', 'utf16le');
      await writeFile(join(dir, 'u16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
      const { ctx } = fixtureContext({ cwd: dir });
      const full = okOutput<ReadText>(await runSkill(ID, { path: 'u16.txt', encoding: 'utf-8' }, ctx));
      assert.deepEqual([full.text, full.normalized_encoding, full.truncated], ['a😀b', 'utf-16le', false]);
      // BOM (2) + "a" (2) + half of the emoji (2): the emoji is left out.
      const cut = okOutput<ReadText>(await runSkill(ID, { path: 'u16.txt', max_bytes: 6 }, ctx));
      assert.deepEqual([cut.text, cut.bytes_read, cut.truncated], ['a', 4, true]);
    });

  it('refuses binary files and invalid bytes with clear errors', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
      await writeFile(join(dir, 'nul.txt'), 'abc\u0000def');
      await writeFile(join(dir, 'bad.txt'), Buffer.from([0x61, 0xff, 0x62]));
      const { ctx } = fixtureContext({ cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 'img.png' }, ctx)), 'SKILL_BINARY_CONTENT');
      assert.equal(errorCode(await runSkill(ID, { path: 'nul.txt' }, ctx)), 'SKILL_BINARY_CONTENT');
      assert.equal(errorCode(await runSkill(ID, { path: 'bad.txt' }, ctx)), 'SKILL_DECODE_FAILED');
      assert.equal(errorCode(await runSkill(ID, { path: 'bad.txt', encoding: 'klingon' }, ctx)), 'SKILL_ENCODING_UNSUPPORTED');
    });

  it('refuses what is not a regular file', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'sub'));
      execFileSync('mkfifo', [join(dir, 'fifo')]);
      const { ctx } = fixtureContext({ cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 'missing.txt' }, ctx)), 'SKILL_FILE_NOT_FOUND');
      assert.equal(errorCode(await runSkill(ID, { path: 'sub' }, ctx)), 'SKILL_NOT_A_FILE');
      assert.equal(errorCode(await runSkill(ID, { path: 'fifo' }, ctx)), 'SKILL_NOT_A_FILE');
    });

  it('is denied outside the allowed paths: absolute, .., symlink, prefix look-alike', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'data'));
      await mkdir(join(dir, 'data2'));
      await writeFile(join(dir, 'secret.txt'), 'secret');
      await writeFile(join(dir, 'data2', 'x.txt'), 'x');
      await symlink(join(dir, 'secret.txt'), join(dir, 'data', 'link.txt'));
      await symlink(dir, join(dir, 'data', 'up'));
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['data'] } });
      for (const path of [join(dir, 'secret.txt'), 'data/../secret.txt', 'data/link.txt', 'data/up/secret.txt', 'data2/x.txt', '/etc/passwd']) {
        const outcome = await runSkill(ID, { path }, ctx);
        assert.equal(denialCode(outcome), 'SKILL_NOT_ALLOWED', path);
      }
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/path' }]);
    assert.deepEqual(await inputFindings(ID, { path: 'a', max_bytes: 'x' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_bytes' }]);
    assert.deepEqual(await inputFindings(ID, { path: 'a', max_bytes: 0 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_bytes' }]);
    assert.deepEqual(await inputFindings(ID, { path: 'a', extra: 1 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/extra' }]);
    assert.deepEqual(await inputFindings(ID, { path: 7 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/path' }]);
  });

  it('refuses a malformed request even when called directly', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 7 }, ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
      assert.equal(errorCode(await runSkill(ID, 'a.txt', ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
    });
});
