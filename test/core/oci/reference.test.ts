import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { formatOciReference, isLoopback, manifestRef, parseOciReference } from '../../../src/core/oci/index.js';
import { parseChallenge } from '../../../src/core/oci/challenge.js';

const D = `sha256:${'ab'.repeat(32)}`;

describe('parseOciReference', () => {
  const table: [string, object][] = [
    ['oci://localhost:5000/skills/pdf-notes:1.2.0', { registry: 'localhost:5000', hostname: 'localhost', repository: 'skills/pdf-notes', tag: '1.2.0' }],
    ['oci://ghcr.io/acme/my.skill', { registry: 'ghcr.io', hostname: 'ghcr.io', repository: 'acme/my.skill' }],
    [`oci://127.0.0.1:5000/a/b@${D}`, { registry: '127.0.0.1:5000', hostname: '127.0.0.1', repository: 'a/b', digest: D }],
    [`oci://[::1]:5000/a:t@${D}`, { registry: '[::1]:5000', hostname: '::1', repository: 'a', tag: 't', digest: D }],
  ];
  for (const [arg, want] of table) {
    it(`reads ${arg}`, () => {
      assert.deepEqual(parseOciReference(arg), want);
      assert.equal(formatOciReference(parseOciReference(arg)), arg);
    });
  }
  const bad = ['docker://x/y', 'oci://', 'oci://host', 'oci://host/', 'oci://host/UPPER', 'oci://host/a//b', 'oci://host/a:-tag', `oci://host/a@sha256:${'A'.repeat(64)}`, 'oci://host/a@md5:00', 'oci://host:99999/a', 'oci://ho_st/a'];
  for (const arg of bad) {
    it(`refuses ${arg} with OCI_REFERENCE_INVALID`, () => {
      assert.throws(
        () => parseOciReference(arg),
        (e: unknown) => isSkillctlError(e) && e.code === 'OCI_REFERENCE_INVALID',
      );
    });
  }
  it('a manifest is asked for by digest before tag, latest when neither', () => {
    assert.equal(manifestRef(parseOciReference(`oci://h/a:t@${D}`)), D);
    assert.equal(manifestRef(parseOciReference('oci://h/a:t')), 't');
    assert.equal(manifestRef(parseOciReference('oci://h/a')), 'latest');
  });
  it('loopback is localhost, 127/8 and ::1 only', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', 'a.localhost']) assert.ok(isLoopback(h), h);
    for (const h of ['localhost.example.com', '128.0.0.1', '10.0.0.1', '0.0.0.0', 'example.com']) assert.ok(!isLoopback(h), h);
  });
});

describe('parseChallenge', () => {
  it('reads a bearer challenge with quoted parameters', () => {
    const c = parseChallenge('Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push"');
    assert.equal(c?.scheme, 'bearer');
    assert.deepEqual(Object.fromEntries(c?.params ?? []), { realm: 'https://auth.example/token', service: 'registry.example', scope: 'repository:a/b:pull,push' });
  });
  it('reads a basic challenge, and nothing from no header', () => {
    assert.equal(parseChallenge('Basic realm="x"')?.scheme, 'basic');
    assert.equal(parseChallenge(null), undefined);
  });
});
