// Side-effect category aliases (seed 003: extensions must not redefine or alias a core category):
// compared after dropping case and separators, and with the words' common spellings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyCategory, CORE_SIDE_EFFECT_CATEGORIES } from '../../../src/core/manifest/index.js';
import { canonicalManifest, entrypoint, validateObject } from '../../helpers/manifests.js';

function aliasOf(category: string): string | undefined {
  const v = classifyCategory(category);
  return v.kind === 'alias' ? v.of : undefined;
}

describe('side-effect category aliases', () => {
  it('every core category is core', () => {
    for (const c of CORE_SIDE_EFFECT_CATEGORIES) assert.deepEqual(classifyCategory(c), { kind: 'core' });
  });

  it('separators: _, -, . and none at all are one name', () => {
    for (const c of ['acme.network_http', 'acme.network-http', 'acme.networkhttp', 'acme.network.http']) assert.equal(aliasOf(c), 'network.http', c);
  });

  it('case: Network_HTTP is network_http', () => {
    assert.equal(aliasOf('acme.Network_HTTP'), 'network.http');
    assert.equal(aliasOf('Network.HTTP'), 'network.http');
  });

  it('net is network, https is http', () => {
    for (const c of ['acme.net_http', 'acme.net-https', 'acme.network_https']) assert.equal(aliasOf(c), 'network.http', c);
    assert.equal(aliasOf('acme.net_other'), 'network.other');
  });

  it('fs, file and files are filesystem', () => {
    for (const c of ['acme.fs_write', 'acme.file_write', 'acme.files-write', 'acme.file_system_write']) assert.equal(aliasOf(c), 'filesystem.write', c);
    assert.equal(aliasOf('acme.fs_read'), 'filesystem.read');
    assert.equal(aliasOf('acme.file_delete'), 'filesystem.delete');
  });

  it('exec, execute and proc are process; exec, execute and run are spawn', () => {
    for (const c of ['acme.exec_spawn', 'acme.execute_spawn', 'acme.proc_spawn', 'acme.process_exec', 'acme.process_run']) assert.equal(aliasOf(c), 'process.spawn', c);
  });

  it('env is environment, time is clock, rand and rng are random', () => {
    assert.equal(aliasOf('acme.env_read'), 'environment.read');
    assert.equal(aliasOf('acme.time_read'), 'clock.read');
    assert.equal(aliasOf('acme.rng-read'), 'random.read');
    assert.equal(aliasOf('acme.ext_state_change'), 'external.state_change');
  });

  it('the words in the other order: write_file, spawn_process, read_env', () => {
    assert.equal(aliasOf('acme.write_file'), 'filesystem.write');
    assert.equal(aliasOf('acme.spawn_process'), 'process.spawn');
    assert.equal(aliasOf('acme.read_env'), 'environment.read');
    assert.equal(aliasOf('acme.https-net'), 'network.http');
  });

  it('a whole category spelt short: fs.write, net.http, process.exec', () => {
    assert.equal(aliasOf('fs.write'), 'filesystem.write');
    assert.equal(aliasOf('net.http'), 'network.http');
    assert.equal(aliasOf('process.exec'), 'process.spawn');
  });

  it('real extensions, unknown names and core namespaces are not aliases', () => {
    assert.deepEqual(classifyCategory('acme.ticket_create'), { kind: 'extension', vendor: 'acme' });
    assert.deepEqual(classifyCategory('acme.http_cache_read'), { kind: 'extension', vendor: 'acme' });
    assert.equal(classifyCategory('network.smtp').kind, 'unknown');
    assert.equal(classifyCategory('Writes Files').kind, 'unknown');
    assert.equal(classifyCategory('acme.Ticket-Create').kind, 'unknown');
  });

  it('a manifest declaring acme.network-http gets SIDE_EFFECT_CATEGORY_ALIAS at the category', async () => {
    const m = canonicalManifest();
    entrypoint(m).side_effect_categories = ['acme.network-http'];
    entrypoint(m).side_effect_fingerprint_fields = ['input.task'];
    const r = await validateObject(m);
    const found = r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.pointer]);
    assert.deepEqual(found, [['SIDE_EFFECT_CATEGORY_ALIAS', '/entrypoints/0/side_effect_categories/0']]);
  });
});
