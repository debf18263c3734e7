/**
 * A provenact bundle directory (skill.wasm, manifest.json, signatures.json; public-keys.json when
 * it ships its keys) run as it is: checked as provenact's `verify` checks it (the manifest's strict
 * v0 shape, the artifact digest of skill.wasm, signatures.json for this manifest hash and
 * artifact, every signer declared, and, with the bundle's keys, every signature valid), then
 * described to the engine as a skill.contract.v1 manifest with one wasm entrypoint. The bundle's
 * own keys prove integrity, not trust: a run from a path is unpinned, and trust comes from a pin
 * (verify-pins). provenact capabilities map to skillctl permissions where a scope exists
 * (fs.read, fs.write, net.http, env); the others stay ungranted and their hostcalls trap.
 *
 * provenact skills read and write raw bytes: a JSON string input reaches the module as its UTF-8
 * bytes (any other input as its canonical JSON), and the output bytes come back as a JSON string.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { jcsDigest, sha256 } from '../digest/index.js';
import type { Entrypoint, Manifest, Permissions } from '../manifest/index.js';
import { pushAll } from '../findings.js';
import { loadFull } from './full-load.js';
import { readJsonObject } from './json.js';

const JSON_MAX = 1024 * 1024;
const WASM_MAX = 16 * 1024 * 1024;
/** The extension field that tells the wasm runtime the entrypoint speaks provenact's raw bytes. */
export const PROVENACT_IO = 'x-provenact-io';

const SCOPES = new Set(['fs.read', 'fs.write', 'net.http', 'env']);

/** Whether `dir` is a provenact bundle rather than a skill.contract bundle. */
export async function isProvenactBundle(dir: string): Promise<boolean> {
  const has = (name: string): Promise<boolean> => stat(join(dir, name)).then((s) => s.isFile(), () => false);
  if ((await has('skill.yaml')) || (await has('skill.yml')) || (await has('skill.json'))) return false;
  return (await has('manifest.json')) && (await has('skill.wasm'));
}

async function bounded(path: string, max: number): Promise<Buffer | string> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return 'is not a regular file';
    if (st.size > max) return `is larger than ${max} bytes`;
    return await readFile(path);
  } catch (err) {
    return `cannot be read (${(err as { code?: string }).code ?? 'error'})`;
  }
}

export interface ProvenactLoad {
  readonly manifest?: Manifest;
  readonly identity: { skill_id?: string; skill_version?: string; manifest_digest?: string; content_digest?: string };
  readonly diagnostics: readonly Diagnostic[];
}

export async function loadProvenactBundle(dir: string, label: string): Promise<ProvenactLoad> {
  const full = await loadFull();
  const found: Diagnostic[] = [];
  const invalid = (file: string, message: string, pointer?: string): ProvenactLoad => ({
    identity: {},
    diagnostics: [diag('PROVENACT_BUNDLE_INVALID', message, { file: `${label}/${file}`, ...(pointer !== undefined ? { pointer } : {}) })],
  });
  const mbytes = await bounded(join(dir, 'manifest.json'), JSON_MAX);
  if (typeof mbytes === 'string') return invalid('manifest.json', `manifest.json ${mbytes}`);
  const doc = await readJsonObject(mbytes);
  if (doc.data === undefined || doc.data === null || typeof doc.data !== 'object' || Array.isArray(doc.data)) return invalid('manifest.json', 'manifest.json is not a JSON object');
  const m = doc.data as Record<string, unknown>;
  const shape = full.provenactManifestShape(m);
  if (shape !== undefined) return invalid('manifest.json', `manifest.json: ${shape}`);
  const name = m.name as string;
  const version = m.version as string;
  const artifact = m.artifact as string;
  const manifestHash = jcsDigest(m);
  const identity = { skill_id: name, skill_version: version, manifest_digest: manifestHash, content_digest: artifact };

  const wasm = await bounded(join(dir, 'skill.wasm'), WASM_MAX);
  if (typeof wasm === 'string') return { ...invalid('skill.wasm', `skill.wasm ${wasm}`), identity };
  if (sha256(wasm) !== artifact) return { ...invalid('manifest.json', `manifest.artifact is ${artifact} but skill.wasm hashes to ${sha256(wasm)}`, '/artifact'), identity };

  const sbytes = await bounded(join(dir, 'signatures.json'), JSON_MAX);
  if (typeof sbytes === 'string') return { ...invalid('signatures.json', `signatures.json ${sbytes}`), identity };
  const sfile = `${label}/signatures.json`;
  const sigs = full.loadSignatures(sbytes, sfile, true);
  pushAll(found, sigs.diagnostics);
  if (sigs.doc !== undefined) {
    if (sigs.doc.artifact !== artifact) found.push(diag('PROVENACT_BUNDLE_INVALID', `signatures.artifact is ${String(sigs.doc.artifact)} but manifest.artifact is ${artifact}`, { file: sfile, pointer: '/artifact' }));
    if (sigs.doc.signatures.length === 0) found.push(diag('SIGNATURES_INVALID', 'the signature set is empty', { file: sfile, pointer: '/signatures' }));
    const declared = m.signers as string[];
    sigs.doc.signatures.forEach((s, i) => {
      if (!declared.includes(s.signer)) found.push(diag('SIGNER_UNEXPECTED', `${s.signer} signed but is not declared in manifest.signers`, { file: sfile, pointer: `/signatures/${i}/signer` }));
    });
    const kbytes = await bounded(join(dir, 'public-keys.json'), JSON_MAX);
    if (typeof kbytes !== 'string') {
      const keys = full.loadPublicKeys(kbytes, `${label}/public-keys.json`);
      pushAll(found, keys.diagnostics);
      const check = await full.checkSignatures(sigs.doc, { digest: manifestHash, keys: keys.keys, minSigners: 1, file: sfile });
      pushAll(found, check.diagnostics);
    } else if (sigs.doc.manifest_hash !== manifestHash) {
      found.push(diag('SIGNATURES_INVALID', `signatures.json is for manifest ${sigs.doc.manifest_hash}, not ${manifestHash}`, { file: sfile, pointer: '/manifest_hash' }));
    }
  }
  if (found.some((d) => d.severity === 'error')) return { identity, diagnostics: found };

  const permissions: Record<string, string[]> = {};
  for (const c of m.capabilities as { kind: string; value: string }[]) {
    if (SCOPES.has(c.kind)) (permissions[c.kind] ??= []).push(c.value);
  }
  const ep = {
    entrypoint_id: 'main',
    runtime: 'wasm',
    command: ['skill.wasm', m.entrypoint as string],
    working_directory: '.',
    runtime_limits: {},
    input_schema: {},
    output_schema: { type: 'string' },
    error_schema: {},
    args_fingerprint_fields: [],
    result_fingerprint_fields: [],
    side_effect_fingerprint_fields: [],
    side_effect_categories: [],
    requested_permissions: permissions as Permissions,
    required_permissions: permissions as Permissions,
    tool_profile_id: name,
    tool_profile_version: version,
    [PROVENACT_IO]: 'bytes',
  } as unknown as Entrypoint;
  const manifest = {
    skill_contract_version: 'skill.contract.v1',
    skill_id: name,
    skill_version: version,
    description: `provenact bundle ${name}@${version}`,
    manifest_digest: manifestHash,
    content_digest: artifact,
    entrypoints: [ep],
  } as unknown as Manifest;
  return { manifest, identity, diagnostics: found };
}
