// Ed25519 keys and signatures in the reference's formats.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkSignatures,
  decodeKey32,
  generateSigningKey,
  isEd25519Point,
  loadPublicKeys,
  parseSecretKey,
  signDigest,
  upsertSignature,
  verifyDigestSignature,
  type SecretKey,
} from '../../../src/core/sign/index.js';

const DIGEST = 'sha256:' + 'ab'.repeat(32);

describe('keys', () => {
  it('derives the reference public test key from its published seed 00..1f', () => {
    // provenact's alice.dev test key: its public key begins A6EHv/POEL4d.
    const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64');
    const { key } = parseSecretKey(`\n${seed}\n`, 'alice.key');
    assert.match(key?.publicKey ?? '', /^A6EHv\/POEL4d/);
  });

  it('accepts only canonical base64 of 32 bytes that is a curve point', () => {
    const { publicKey } = generateSigningKey();
    assert.equal(isEd25519Point(decodeKey32(publicKey) as Buffer), true);
    assert.equal(decodeKey32(publicKey.slice(0, -1)), undefined);
    assert.equal(decodeKey32(publicKey.replace('=', '')), undefined);
    // y = 2 is not on the curve (x² would have no square root).
    const notPoint = Buffer.alloc(32);
    notPoint[0] = 2;
    assert.equal(isEd25519Point(notPoint), false);
    const keys = loadPublicKeys(Buffer.from(JSON.stringify({ ok: publicKey, bad: notPoint.toString('base64'), 'no/slash': publicKey })), 'k.json');
    assert.deepEqual([...keys.keys.keys()], ['ok']);
    assert.deepEqual(keys.diagnostics.map((d) => [d.code, d.pointer]), [
      ['KEYS_INVALID', '/bad'],
      ['KEYS_INVALID', '/no~1slash'],
    ]);
    assert.deepEqual(loadPublicKeys(Buffer.from('[1]'), 'k.json').diagnostics.map((d) => d.code), ['KEYS_INVALID']);
  });

  it('signs the digest string deterministically and verifies it', async () => {
    const { key } = parseSecretKey(generateSigningKey().secretKeyText, 'k');
    const k = key as SecretKey;
    const sig = signDigest(k, DIGEST);
    assert.equal(signDigest(k, DIGEST), sig);
    const pub = loadPublicKeys(Buffer.from(JSON.stringify({ a: k.publicKey })), 'k').keys.get('a');
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST, sig), true);
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST.replace('ab', 'ac'), sig), false);
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST, 'not base64'), false);
    // On the calling thread (verify-pins' worker pool), the same answers.
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST, sig, true), true);
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST.replace('ab', 'ac'), sig, true), false);
    assert.equal(await verifyDigestSignature(pub?.key as never, DIGEST, sig.replace(/^./, sig[0] === 'A' ? 'B' : 'A'), true), false);
  });

  it('upserting a signature drops signatures of another manifest and keeps signers sorted', () => {
    const e = (signer: string): { signer: string; algorithm: string; signature: string } => ({ signer, algorithm: 'ed25519', signature: 'x' });
    const doc = upsertSignature({ manifest_hash: DIGEST, signatures: [e('zed'), e('amy')] }, DIGEST, e('bob'));
    assert.deepEqual(doc.signatures.map((s) => s.signer), ['amy', 'bob', 'zed']);
    const stale = upsertSignature(doc, 'sha256:' + 'cd'.repeat(32), e('bob'));
    assert.deepEqual(stale.signatures.map((s) => s.signer), ['bob']);
  });

  it('no signatures where the policy needs one: TOO_FEW_SIGNERS and SIGNATURE_MISSING', async () => {
    const r = await checkSignatures(undefined, { digest: DIGEST, keys: new Map(), expected: ['a'], minSigners: 1, file: 's.json' });
    assert.deepEqual(r.diagnostics.map((d) => d.code).sort(), ['SIGNATURE_MISSING', 'TOO_FEW_SIGNERS']);
  });
});
