// Which registry a Docker config entry's credentials go to: exactly the `host[:port]` its key
// names (a scheme and a path are dropped, case is not significant), never a registry whose name
// merely starts or ends like it, nor the same host on another port; credential helpers are not run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadDockerCredentials } from '../../../src/core/oci/credentials.js';

describe('Docker config credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillctl-docker-creds-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const auth = (user: string): { auth: string } => ({ auth: Buffer.from(`${user}:secret`).toString('base64') });

  it('match the key\'s host and port exactly: no prefix, suffix or other port', async () => {
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        auths: { 'evil.com': auth('a'), 'localhost:5000': auth('b'), 'https://Registry.Example.com/v1/': auth('c') },
        // A helper is a program: named here by a hostile config, it is never run.
        credsStore: '../../tmp/pwn',
        credHelpers: { 'helped.example.com': 'pwn' },
      }),
    );
    const store = await loadDockerCredentials(file);
    assert.equal(store('evil.com')?.username, 'a');
    assert.equal(store('localhost:5000')?.username, 'b');
    assert.equal(store('registry.example.com')?.username, 'c');
    for (const other of ['evil.com.attacker.net', 'attacker.evil.com', 'evil.co', 'evil.com:443', 'localhost:50001', 'localhost:500', 'localhost', '127.0.0.1:5000', 'helped.example.com']) {
      assert.equal(store(other), undefined, other);
    }
  });
});
