// SECRET_FILE_EXPOSED: a secret file skillctl writes (keygen --out) or is given (mcp
// --http-token-file) outside a .skillctl/keys/ folder, where a skill run under a policy granting
// its folder reads it. A warning: the key is written, the server starts, the exit status is theirs.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkSecretPlace } from '../../src/core/policy/index.js';
import { skillctl } from '../helpers/cli.js';
import { startHttpMcp } from '../helpers/mcp-http.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'secret-place-token-0123456789abcdef';

/** The codes of a --json document's diagnostics. */
const codes = (stdout: string): string[] => (JSON.parse(stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);

describe('SECRET_FILE_EXPOSED', () => {
  it('keygen --out outside .skillctl/keys/: the key is written, with the warning, exit 0; the default place and another .skillctl/keys/ do not warn', () => {
    const dir = tempDir('skillctl-secret-place-keygen-');
    const out = skillctl(['keygen', '--json', '--signer', 'bob', '--out', 'k/bob.key'], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(codes(out.stdout), ['SECRET_FILE_EXPOSED']);
    const human = skillctl(['keygen', '--signer', 'carol', '--out', 'k/carol.key'], { cwd: dir });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /SECRET_FILE_EXPOSED/);
    assert.match(human.stderr, /k\/carol\.key/);
    for (const args of [['--signer', 'alice'], ['--signer', 'dave', '--out', 'elsewhere/.skillctl/keys/dave.key']]) {
      const r = skillctl(['keygen', '--json', ...args], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(codes(r.stdout), [], args.join(' '));
    }
  });

  it('checkSecretPlace follows links: a path through a link into a .skillctl/keys/ folder is in one, a link out of one is not', async () => {
    const dir = tempDir('skillctl-secret-place-links-');
    mkdirSync(join(dir, '.skillctl', 'keys'), { recursive: true });
    writeFileSync(join(dir, '.skillctl', 'keys', 'token'), TOKEN);
    writeFileSync(join(dir, 'plain'), TOKEN);
    symlinkSync(join('.skillctl', 'keys'), join(dir, 'keys'));
    symlinkSync(join('..', '..', 'plain'), join(dir, '.skillctl', 'keys', 'out'));
    assert.deepEqual(await checkSecretPlace(join(dir, 'keys', 'token'), 'keys/token', 'a token'), []);
    assert.deepEqual(await checkSecretPlace(join(dir, 'keys', 'not-yet'), 'keys/not-yet', 'a token'), []);
    assert.deepEqual((await checkSecretPlace(join(dir, '.skillctl', 'keys', 'out'), 'out', 'a token')).map((d) => d.code), ['SECRET_FILE_EXPOSED']);
  });

  it('mcp --http-token-file outside .skillctl/keys/: the server starts, with the warning on stderr; in .skillctl/keys/ without it', async () => {
    const dir = tempDir('skillctl-secret-place-mcp-');
    mkdirSync(join(dir, '.skillctl', 'keys'), { recursive: true });
    // Private to the user: a token file other users may read stops the server (mcp-token-file-mode.test.ts).
    writeFileSync(join(dir, 'mcp.token'), `${TOKEN}\n`, { mode: 0o600 });
    writeFileSync(join(dir, '.skillctl', 'keys', 'mcp.token'), `${TOKEN}\n`, { mode: 0o600 });
    const registry = ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit'];
    for (const [file, warned] of [['mcp.token', true], [join('.skillctl', 'keys', 'mcp.token'), false]] as const) {
      const server = await startHttpMcp([...registry, '--http-token-file', file], dir, { SKILLCTL_MCP_TOKEN: undefined });
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.stderr());
      assert.equal(/SECRET_FILE_EXPOSED/.test(server.stderr()), warned, server.stderr());
      assert.ok(!server.stderr().includes(TOKEN), 'the token is never shown');
    }
  });
});
