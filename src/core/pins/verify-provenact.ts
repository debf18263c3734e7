/**
 * Verifies one entry of a provenact-skills lock: every check its scripts/verify_pins.sh makes
 * (through `provenact-cli verify` and its own comparisons), plus the ones it leaves out
 * (../shared reference, section 2.2): bundle_dir is skills/<id>/<version>; the manifest's
 * name and version are the lock's; every signature's signer is declared in manifest.signers;
 * bundle-meta.json agrees; no file in the bundle escapes every digest.
 */
import { join } from 'node:path';
import { dirSource, type DirOps } from '../bundle/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { isSha256Digest, jcsDigest, sha256, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { describeRefusal, type FileKind } from '../fs/index.js';
import { parseDocumentBytes } from '../manifest/index.js';
import { checkSignatures, loadPublicKeys, loadSignatures } from '../sign/index.js';
import type { ProvenactLockContext } from './context.js';
import type { ProvenactPin, SignerKeys } from './model.js';
import { resolveSource } from './paths.js';
import type { DigestComparison } from './verify-skill.js';
import { pushAll } from '../findings.js';

/** The reference's read bounds (provenact-cli verify). */
const WASM_MAX = 16 * 1024 * 1024;
const JSON_MAX = 1024 * 1024;
const MANIFEST_FIELDS = new Set(['name', 'version', 'entrypoint', 'artifact', 'capabilities', 'signers', 'schema_version']);

export interface ProvenactVerification {
  readonly ok: boolean;
  readonly pin: ProvenactPin;
  readonly pointer?: string;
  readonly digests: Readonly<Record<string, DigestComparison>>;
  readonly signers: readonly string[];
  /**
   * The pin's keys file (signer id to key), where it hashed to `keys_digest` and loaded without a
   * finding: `verify-pins --base` counts the entry's signers by these keys.
   */
  readonly keys?: SignerKeys;
  readonly diagnostics: readonly Diagnostic[];
}

/** A bundle file within its bound; a FIFO or device is refused before it is opened (read-bounded.ts). */
async function readPinned(ops: DirOps, path: string, max: number): Promise<Buffer | 'missing' | 'too-large' | FileKind> {
  const r = await ops.readBounded(path, { maxBytes: max });
  if (r.ok) return r.bytes;
  if (r.reason === 'missing') return 'missing';
  if (r.reason === 'too-large') return 'too-large';
  if (r.reason === 'not-regular') return r.kind;
  throw new SkillctlError('INPUT_UNREADABLE', describeRefusal(r, path));
}

/** Why a provenact manifest.json does not have the v0 shape (unknown fields refused), or undefined. */
export function manifestShape(m: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(m)) if (!MANIFEST_FIELDS.has(k)) return `unknown field \`${k}\``;
  if (typeof m.name !== 'string' || m.name === '') return 'name is not a non-empty string';
  if (typeof m.version !== 'string' || m.version === '') return 'version is not a non-empty string';
  if (typeof m.entrypoint !== 'string' || m.entrypoint === '') return 'entrypoint is not a non-empty string';
  if (!isSha256Digest(m.artifact)) return 'artifact is not a sha256: digest';
  if (!Array.isArray(m.signers) || !m.signers.every((s) => typeof s === 'string')) return 'signers is not a list of strings';
  const capOk = (c: unknown): boolean =>
    c !== null && typeof c === 'object' && Object.keys(c).sort().join(',') === 'kind,value' && typeof (c as Record<string, unknown>).kind === 'string' && typeof (c as Record<string, unknown>).value === 'string';
  if (!Array.isArray(m.capabilities) || !m.capabilities.every(capOk)) return 'capabilities is not a list of {kind, value}';
  return undefined;
}

export async function verifyProvenactPin(ctx: ProvenactLockContext, pin: ProvenactPin): Promise<ProvenactVerification> {
  const index = ctx.lock.skills.indexOf(pin);
  const base = index === -1 ? undefined : `/skills/${index}`;
  const at = (field: string): { file: string; pointer?: string } => ({ file: ctx.lockFile, ...(base !== undefined ? { pointer: `${base}/${field}` } : {}) });
  const found: Diagnostic[] = [];
  const digests: Record<string, DigestComparison> = {
    artifact: { expected: pin.artifact, actual: null },
    manifest_hash: { expected: pin.manifest_hash, actual: null },
    keys_digest: { expected: pin.keys_digest, actual: null },
  };
  let signers: string[] = [];
  let trusted: SignerKeys | undefined;
  const done = (): ProvenactVerification => {
    const diagnostics = sortDiagnostics(found);
    return { ok: !hasErrors(diagnostics), pin, ...(base !== undefined ? { pointer: base } : {}), digests, signers, ...(trusted !== undefined ? { keys: trusted } : {}), diagnostics };
  };
  const dir = pin.bundle_dir.replace(/\/+$/, '');
  const { abs, diagnostic } = await resolveSource(ctx.root, dir, 'bundle_dir', at('bundle_dir'), ctx.ops, ctx.realRoot);
  if (diagnostic !== undefined) {
    found.push(diagnostic);
    return done();
  }
  if (dir !== `skills/${pin.id}/${pin.version}`) {
    found.push(diag('PIN_SOURCE_INVALID', `bundle_dir is ${pin.bundle_dir}, not skills/${pin.id}/${pin.version}`, at('bundle_dir')));
  }
  const files = {
    wasm: await readPinned(ctx.ops, join(abs, 'skill.wasm'), WASM_MAX),
    manifest: await readPinned(ctx.ops, join(abs, 'manifest.json'), JSON_MAX),
    signatures: await readPinned(ctx.ops, join(abs, 'signatures.json'), JSON_MAX),
    keys: await readPinned(ctx.ops, join(abs, pin.keys_file), JSON_MAX),
  };
  if (Object.values(files).every((f) => f === 'missing')) {
    found.push(diag('PIN_MISSING', `${dir} does not exist or holds no bundle`, { ...at('bundle_dir'), hint: 'restore it, or remove the pin' }));
    return done();
  }
  const need = (name: string, f: Buffer | 'missing' | 'too-large' | FileKind, max: number): Buffer | undefined => {
    if (Buffer.isBuffer(f)) return f;
    const why = f === 'missing' ? 'is missing' : f === 'too-large' ? `exceeds ${max} bytes` : `is a ${f}, not a regular file`;
    found.push(diag('PROVENACT_BUNDLE_INVALID', `${name} ${why}`, { file: `${dir}/${name}` }));
    return undefined;
  };
  const wasm = need('skill.wasm', files.wasm, WASM_MAX);
  const manifestBytes = need('manifest.json', files.manifest, JSON_MAX);
  const signaturesBytes = need('signatures.json', files.signatures, JSON_MAX);
  const keysBytes = files.keys === 'missing' ? undefined : need(pin.keys_file, files.keys, JSON_MAX);
  if (files.keys === 'missing') found.push(diag('KEYS_INVALID', `${pin.keys_file} is missing`, { file: `${dir}/${pin.keys_file}` }));

  // The manifest: strict shape, identity, artifact chain, canonical hash.
  const mfile = `${dir}/manifest.json`;
  let manifest: Record<string, unknown> | undefined;
  let manifestHash: Sha256Digest | undefined;
  if (manifestBytes !== undefined) {
    const doc = parseDocumentBytes(manifestBytes, 'json');
    pushAll(found, doc.diagnostics.map((d) => ({ ...d, file: mfile })));
    if (doc.data !== undefined) {
      manifest = doc.data as Record<string, unknown>;
      const shape = manifestShape(manifest);
      if (shape !== undefined) found.push(diag('PROVENACT_BUNDLE_INVALID', `manifest.json: ${shape}`, { file: mfile }));
      manifestHash = jcsDigest(manifest);
      digests.manifest_hash = { expected: pin.manifest_hash, actual: manifestHash };
      if (manifestHash !== pin.manifest_hash) found.push(diag('PIN_MODIFIED', `manifest_hash is ${pin.manifest_hash} in the lock but ${manifestHash} for ${mfile}`, at('manifest_hash')));
      for (const [field, want] of [
        ['name', pin.id],
        ['version', pin.version],
      ] as const) {
        if (manifest[field] !== want) {
          found.push(diag('PIN_IDENTITY_MISMATCH', `the lock pins ${want} but manifest.json declares ${field} ${JSON.stringify(manifest[field] ?? null)}`, at(field === 'name' ? 'id' : 'version')));
        }
      }
    }
  }
  const declaredArtifact = isSha256Digest(manifest?.artifact) ? manifest.artifact : undefined;
  if (wasm !== undefined) {
    const actual = sha256(wasm);
    digests.artifact = { expected: pin.artifact, actual };
    if (actual !== pin.artifact) found.push(diag('PIN_MODIFIED', `artifact is ${pin.artifact} in the lock but skill.wasm hashes to ${actual}`, at('artifact')));
    if (declaredArtifact !== undefined && declaredArtifact !== actual) {
      found.push(diag('PROVENACT_BUNDLE_INVALID', `manifest.artifact is ${declaredArtifact} but skill.wasm hashes to ${actual}`, { file: mfile, pointer: '/artifact' }));
    }
  }
  if (declaredArtifact !== undefined && declaredArtifact !== pin.artifact) {
    found.push(diag('PIN_MODIFIED', `artifact is ${pin.artifact} in the lock but manifest.artifact is ${declaredArtifact}`, at('artifact')));
  }

  // The trust anchors, pinned by raw bytes.
  let keys: ReturnType<typeof loadPublicKeys>['keys'] = new Map();
  if (keysBytes !== undefined) {
    const actual = sha256(keysBytes);
    digests.keys_digest = { expected: pin.keys_digest, actual };
    if (actual !== pin.keys_digest) {
      found.push(diag('KEYS_DIGEST_MISMATCH', `keys_digest is ${pin.keys_digest} but ${pin.keys_file} hashes to ${actual}`, at('keys_digest')));
    } else {
      const loaded = loadPublicKeys(keysBytes, `${dir}/${pin.keys_file}`);
      pushAll(found, loaded.diagnostics);
      keys = loaded.keys;
      if (!hasErrors(loaded.diagnostics)) trusted = loaded.keys;
    }
  }

  // Signatures: all must verify, the set must be the lock's, enough distinct keys.
  if (signaturesBytes !== undefined && manifestHash !== undefined) {
    const sfile = `${dir}/signatures.json`;
    const loaded = loadSignatures(signaturesBytes, sfile, true);
    pushAll(found, loaded.diagnostics);
    const doc = loaded.doc;
    if (doc !== undefined) {
      if (declaredArtifact !== undefined && doc.artifact !== declaredArtifact) {
        found.push(diag('PROVENACT_BUNDLE_INVALID', `signatures.artifact is ${String(doc.artifact)} but manifest.artifact is ${declaredArtifact}`, { file: sfile, pointer: '/artifact' }));
      }
      if (doc.signatures.length === 0) found.push(diag('SIGNATURES_INVALID', 'the signature set is empty', { file: sfile, pointer: '/signatures' }));
      // A set: a hostile bundle's 60,000 declared signers against 15,000 signatures cost 1 s as a list.
      const declared = new Set<unknown>(Array.isArray(manifest?.signers) ? (manifest.signers as unknown[]) : []);
      doc.signatures.forEach((s, i) => {
        if (!declared.has(s.signer)) {
          found.push(diag('SIGNER_UNEXPECTED', `${s.signer} signed but is not declared in manifest.signers`, { file: sfile, pointer: `/signatures/${i}/signer` }));
        }
      });
      if (keysBytes !== undefined && digests.keys_digest?.actual === pin.keys_digest) {
        const check = await checkSignatures(doc, { digest: manifestHash, keys, expected: pin.signers, minSigners: ctx.minSigners, file: sfile, lockFile: ctx.lockFile, ...(base !== undefined ? { lockPointer: `${base}/signers` } : {}) });
        pushAll(found, check.diagnostics);
        signers = [...check.valid];
      }
    }
  }

  // bundle-meta.json, when present, must agree; no file may sit outside every check.
  const listing = await dirSource(abs, undefined, ctx.ops).list();
  pushAll(found, listing.diagnostics.map((d) => ({ ...d, file: `${dir}/${d.file ?? ''}` })));
  const covered = new Set(['skill.wasm', 'manifest.json', 'signatures.json', 'bundle-meta.json', pin.keys_file]);
  for (const f of listing.files) {
    if (!covered.has(f.path)) found.push(diag('PIN_EXTRA_FILE', `${f.path} is covered by no digest or signature`, { file: `${dir}/${f.path}`, hint: 'remove it from the bundle' }));
  }
  if (listing.files.some((f) => f.path === 'bundle-meta.json')) {
    const bfile = `${dir}/bundle-meta.json`;
    const metaBytes = need('bundle-meta.json', await readPinned(ctx.ops, join(abs, 'bundle-meta.json'), JSON_MAX), JSON_MAX);
    const meta = metaBytes === undefined ? undefined : parseDocumentBytes(metaBytes, 'json', 'bundle-meta.json');
    for (const d of meta?.diagnostics ?? []) found.push({ ...d, file: bfile });
    const m = meta?.data as Record<string, unknown> | undefined;
    if (m !== undefined) {
      if (m.schema_version !== '1.0.0') found.push(diag('PROVENACT_BUNDLE_INVALID', 'bundle-meta.json schema_version is not 1.0.0', { file: bfile, pointer: '/schema_version' }));
      if (declaredArtifact !== undefined && m.artifact !== declaredArtifact) found.push(diag('PROVENACT_BUNDLE_INVALID', 'bundle-meta.json artifact differs from manifest.artifact', { file: bfile, pointer: '/artifact' }));
      if (manifestHash !== undefined && m.manifest_hash !== manifestHash) found.push(diag('PROVENACT_BUNDLE_INVALID', 'bundle-meta.json manifest_hash differs from the manifest', { file: bfile, pointer: '/manifest_hash' }));
    }
  }
  return done();
}
