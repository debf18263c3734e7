import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { covers, parseScopeValue, type ScopeValue } from '../../../src/core/policy/index.js';

function url(raw: string): ScopeValue {
  const p = parseScopeValue('net.http', raw);
  assert.ok(p.ok, `${raw}: ${p.ok ? '' : p.reason}`);
  return p.value;
}

describe('net.http scheme://* (any host)', () => {
  it('covers every host, port and path of its scheme, and nothing else', () => {
    const any = url('https://*');
    for (const inner of ['https://example.com/', 'https://api.example.com:8443/v1', 'https://*.example.org', 'https://127.0.0.1/x']) {
      assert.equal(covers(any, url(inner)), true, inner);
    }
    assert.equal(covers(any, url('http://example.com/')), false);
    assert.equal(covers(url('http://*/'), url('http://127.0.0.1:8080/')), true);
  });

  it('is covered only by itself', () => {
    assert.equal(covers(url('https://*.com'), url('https://*')), false);
    assert.equal(covers(url('https://example.com/'), url('https://*')), false);
    assert.equal(covers(url('https://*'), url('https://*')), true);
  });

  it('is the whole host only: partial wildcards stay refused', () => {
    for (const raw of ['https://*com', 'https://ex*.com', 'https://*:8080', 'https://*/path']) assert.equal(parseScopeValue('net.http', raw).ok, false, raw);
  });
});
