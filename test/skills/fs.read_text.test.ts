import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import type { ReadText } from '../helpers/skill-responses.js';

const ID = 'fs.read_text';

describe('fs.read_text', () => {
  it("answers the seed's example request with the seed's response shape", async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'notes.md'), '# Notes\nhéllo\n');
      const { ctx, gate } = await skillContext(ID, { cwd: dir });
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'notes.md', max_bytes: 65536, encoding: 'utf-8' }, ctx));
      assert.deepEqual(out, { path: 'notes.md', text: '# Notes\nhéllo\n', bytes_read: 15, truncated: false, normalized_encoding: 'utf-8' });
      assert.deepEqual(gate.uses.map((u) => [u.scope, u.allowed]), [['fs.read', true]]);
    });

  it('cuts at max_bytes on a character boundary and flags truncated', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'e.txt'), 'é'.repeat(10)); // 20 bytes, 2 per character
      const { ctx } = await skillContext(ID, { cwd: dir });
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'e.txt', max_bytes: 5 }, ctx));
      assert.equal(out.text, 'éé');
      assert.equal(out.bytes_read, 4);
      assert.equal(out.truncated, true);
      const exact = okOutput<ReadText>(await runSkill(ID, { path: 'e.txt', max_bytes: 20 }, ctx));
      assert.equal(exact.truncated, false);
      assert.equal(exact.bytes_read, 20);
    });

  it("clamps max_bytes to the host's output cap: the whole response fits it, escapes included", async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'a.txt'), 'x'.repeat(1000));
      await writeFile(join(dir, 'q.txt'), '"\\\n'.repeat(300));
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], limits: { max_output_bytes: 200 } } });
      assert.equal(ctx.limits.maxOutputBytes, 200);
      const out = okOutput<ReadText>(await runSkill(ID, { path: 'a.txt', max_bytes: 65536 }, ctx));
      assert.equal(out.truncated, true);
      assert.equal(out.text, 'x'.repeat(out.bytes_read));
      assert.ok(out.bytes_read > 100 && Buffer.byteLength(JSON.stringify(out)) <= 200, JSON.stringify(out));
      // Each of these characters takes two bytes in JSON: fewer of them fit.
      const escaped = okOutput<ReadText>(await runSkill(ID, { path: 'q.txt' }, ctx));
      assert.equal(escaped.truncated, true);
      assert.ok(escaped.bytes_read > 40 && Buffer.byteLength(JSON.stringify(escaped)) <= 200, JSON.stringify(escaped));
    });

  it('decodes the named encoding to UTF-8 and reports its canonical name', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      await writeFile(join(dir, 'sjis.txt'), Buffer.from([0x82, 0xa0])); // あ
      const { ctx } = await skillContext(ID, { cwd: dir });
      const l = okOutput<ReadText>(await runSkill(ID, { path: 'latin1.txt', encoding: 'latin1' }, ctx));
      assert.deepEqual([l.text, l.normalized_encoding], ['café', 'windows-1252']);
      const s = okOutput<ReadText>(await runSkill(ID, { path: 'sjis.txt', encoding: 'Shift_JIS' }, ctx));
      assert.deepEqual([s.text, s.normalized_encoding], ['あ', 'shift_jis']);
    });

  it('lets a byte-order mark decide, and never splits a UTF-16 surrogate pair', async () => {
      const dir = tempDir();
      const body = Buffer.from('a😀b', 'utf16le');
      await writeFile(join(dir, 'u16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
      const { ctx } = await skillContext(ID, { cwd: dir });
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
      const { ctx } = await skillContext(ID, { cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 'img.png' }, ctx)), 'SKILL_BINARY_CONTENT');
      assert.equal(errorCode(await runSkill(ID, { path: 'nul.txt' }, ctx)), 'SKILL_BINARY_CONTENT');
      assert.equal(errorCode(await runSkill(ID, { path: 'bad.txt' }, ctx)), 'SKILL_DECODE_FAILED');
      assert.equal(errorCode(await runSkill(ID, { path: 'bad.txt', encoding: 'klingon' }, ctx)), 'SKILL_ENCODING_UNSUPPORTED');
    });

  it('refuses what is not a regular file (FIFOs, devices, sockets: test/security/filesystem.test.ts)', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'sub'));
      const { ctx } = await skillContext(ID, { cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 'missing.txt' }, ctx)), 'SKILL_FILE_NOT_FOUND');
      assert.equal(errorCode(await runSkill(ID, { path: 'sub' }, ctx)), 'SKILL_NOT_A_FILE');
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
      const { ctx } = await skillContext(ID, { cwd: dir });
      assert.equal(errorCode(await runSkill(ID, { path: 7 }, ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
      assert.equal(errorCode(await runSkill(ID, 'a.txt', ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
    });
});
