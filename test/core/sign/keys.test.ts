// Ed25519 keys and signatures in the reference's formats.
import assert from 'node:assert/strict';
import { verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { SMALL_ORDER_ENCODINGS } from '../../../src/core/sign/curve.js';
import {
  checkSignatures,
  decodeKey32,
  generateSigningKey,
  hasSmallOrder,
  isEd25519Point,
  KEYS_MAX_SIGNERS,
  loadPublicKeys,
  publicKeyFromRaw,
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

  // libsodium's has_small_order list (ed25519_ref10.c): the eight small-order points as y with the
  // sign bit masked, and their non-canonical forms y = p and y = p + 1.
  const LIBSODIUM_BLOCKLIST = [
    '0000000000000000000000000000000000000000000000000000000000000000',
    '0100000000000000000000000000000000000000000000000000000000000000',
    '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
    'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
    'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  ];

  it('the small-order points: every encoding of one is refused as a key, by its order or as no point', () => {
    assert.equal(new Set(SMALL_ORDER_ENCODINGS).size, 8);
    for (const hex of SMALL_ORDER_ENCODINGS) assert.ok(isEd25519Point(Buffer.from(hex, 'hex')) && hasSmallOrder(Buffer.from(hex, 'hex')), hex);
    for (const hex of LIBSODIUM_BLOCKLIST) {
      for (const signBit of [0, 0x80]) {
        const raw = Buffer.from(hex, 'hex');
        raw[31] = (raw[31] as number) | signBit;
        // A canonical encoding is one of the eight; any other is no point at all.
        assert.equal(SMALL_ORDER_ENCODINGS.includes(raw.toString('hex')), isEd25519Point(raw), raw.toString('hex'));
        const keys = loadPublicKeys(Buffer.from(JSON.stringify({ bob: raw.toString('base64') })), 'k.json');
        assert.deepEqual([keys.keys.size, keys.diagnostics.map((d) => [d.code, d.pointer])], [0, [['KEYS_INVALID', '/bob']]], raw.toString('hex'));
      }
    }
    for (let i = 0; i < 20; i++) assert.equal(hasSmallOrder(decodeKey32(generateSigningKey().publicKey) as Buffer), false);
  });

  it('a keys file names at most KEYS_MAX_SIGNERS signers: one more is KEYS_INVALID, no key decoded', () => {
    const key = generateSigningKey().publicKey;
    const file = (n: number): Buffer => Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, key]))));
    assert.equal(loadPublicKeys(file(KEYS_MAX_SIGNERS), 'k.json').keys.size, KEYS_MAX_SIGNERS);
    const over = loadPublicKeys(file(KEYS_MAX_SIGNERS + 1), 'k.json');
    assert.deepEqual([over.keys.size, over.diagnostics.map((d) => [d.code, d.pointer])], [0, [['KEYS_INVALID', '']]]);
  });

  it('a signature whose R has small order does not verify, though node:crypto accepts it under a small-order key', async () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const universal = Buffer.alloc(64);
    universal[0] = 1;
    // The threat: R = identity, S = 0 verifies every message under the identity as a key, as
    // node:crypto does on Node 20's OpenSSL (Node 24's refuses it). skillctl refuses it on both.
    const key = publicKeyFromRaw(identity);
    if (process.versions.node.startsWith('20.')) assert.equal(verify(null, Buffer.from(DIGEST), key, universal), true, 'the premise, on Node 20');
    assert.equal(await verifyDigestSignature(key, DIGEST, universal.toString('base64')), false);
    assert.equal(await verifyDigestSignature(key, DIGEST, universal.toString('base64'), true), false);
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
