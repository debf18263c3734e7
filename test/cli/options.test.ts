// The option parsers shared by commands, as a user meets them: `--timeout` of pull (either
// scheme), push, pin and verify-pins --remote takes a number of seconds above 0; anything else is
// the usage error commander reports for a bad option value (exit 2, a USAGE document with
// --json), before any registry or server is asked.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('--timeout SECONDS', () => {
  // Port 1 on loopback: nothing listens there, and nothing may be asked.
  const commands: [string, string[]][] = [
    ['pull oci://', ['pull', 'oci://127.0.0.1:1/skills/x:1']],
    ['pull skill://', ['pull', 'skill://x/SKILL.md', '--mcp', 'x']],
    ['push', ['push', 'skills/x', 'oci://127.0.0.1:1/skills/x:1']],
    ['pin oci://', ['pin', 'oci://127.0.0.1:1/skills/x:1']],
    ['verify-pins --remote', ['verify-pins', '--remote']],
  ];
  for (const [command, args] of commands) {
    for (const bad of ['abc', '0', '-1', '0x10', '86401']) {
      it(`${command} --timeout ${bad}: the usage error for a bad option value, exit 2, nothing written`, () => {
        const cwd = tempDir();
        const message = `option '--timeout <seconds>' argument '${bad}' is invalid. a number of seconds above 0 and at most 86400 is required.`;
        const plain = skillctl([...args, '--timeout', bad], { cwd });
        assert.equal(plain.code, 2, plain.stderr);
        assert.equal(plain.stderr, `error: ${message}\n`);
        const doc = skillctl([...args, '--timeout', bad, '--json'], { cwd });
        assert.equal(doc.code, 2, doc.stdout);
        assert.deepEqual(json<{ error: { code: string; message: string } }>(doc).error, { code: 'USAGE', message });
        assert.deepEqual(readdirSync(cwd), []);
      });
    }
  }
});

describe('pin --timeout', () => {
  it('is refused without an oci:// reference, where it would be silently ignored: USAGE, exit 2, nothing written', () => {
    const cwd = tempDir();
    const r = skillctl(['pin', 'skills/x', '--timeout', '5', '--json'], { cwd });
    assert.equal(r.code, 2, r.stdout);
    assert.deepEqual(json<{ error: { code: string; message: string } }>(r).error, { code: 'USAGE', message: '--timeout applies to oci:// references, and none is given' });
    assert.deepEqual(readdirSync(cwd), []);
  });
});
