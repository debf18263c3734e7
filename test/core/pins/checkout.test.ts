// Which attributes make a checkout write other bytes than the blob verified, and what an LFS
// pointer is (src/core/pins/checkout.ts); git's answers are taken as check-attr gives them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCheckout, isLfsPointer } from '../../../src/core/pins/index.js';

describe('checkCheckout', () => {
  const none = { filter: 'unspecified', 'working-tree-encoding': 'unspecified', ident: 'unspecified', eol: 'unspecified', text: 'unspecified' };
  const found = (attributes: Record<string, string>[], lfsPointer = false): string[] =>
    checkCheckout([{ path: 'manifests/a/run.js', attributes, lfsPointer }]).map((d) => `${d.code} ${d.file ?? ''}`);

  it('a filter of any name, working-tree-encoding, ident and eol=crlf are PIN_CHECKOUT_CONVERTED', () => {
    for (const a of [{ filter: 'lfs' }, { filter: 'set' }, { 'working-tree-encoding': 'UTF-16' }, { ident: 'set' }, { eol: 'crlf' }, { eol: 'crlf', text: 'set' }]) {
      assert.deepEqual(found([{ ...none, ...a }]), ['PIN_CHECKOUT_CONVERTED manifests/a/run.js'], JSON.stringify(a));
    }
  });

  it('unset or unspecified attributes, text, eol=lf and eol=crlf with -text convert nothing', () => {
    for (const a of [{}, { filter: 'unset' }, { ident: 'unset' }, { text: 'set' }, { text: 'auto' }, { eol: 'lf' }, { eol: 'crlf', text: 'unset' }]) {
      assert.deepEqual(found([{ ...none, ...a }]), [], JSON.stringify(a));
    }
  });

  it('either answer (case-sensitive, ignoring case) converting is a finding; an LFS pointer is one alone', () => {
    assert.deepEqual(found([none, { ...none, filter: 'lfs' }]), ['PIN_CHECKOUT_CONVERTED manifests/a/run.js']);
    assert.deepEqual(found([none, none], true), ['PIN_CHECKOUT_CONVERTED manifests/a/run.js']);
  });

  it('an LFS pointer: the spec line first, under 1024 bytes', () => {
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'a'.repeat(64)}\nsize 5\n`;
    assert.equal(isLfsPointer(Buffer.from(pointer)), true);
    assert.equal(isLfsPointer(Buffer.from(pointer.replace('git-lfs', 'hawser'))), true);
    assert.equal(isLfsPointer(Buffer.from(`# notes\n${pointer}`)), false);
    assert.equal(isLfsPointer(Buffer.from(pointer + ' '.repeat(1024))), false);
  });
});
