/**
 * `capability_skill_load`: the published bundle of one capability, as the protocol's payload
 * (capability_id, version, skill_doc, tools, ui_schemas), or the protocol's error. A published
 * bundle is re-read and re-checked against its index digest and its schemas on every load, so a
 * registry edited by hand or damaged on disk yields SKILL_MALFORMED naming the file, the field
 * and the tool, never a half-valid payload.
 */
import { stat } from 'node:fs/promises';
import type { Code, Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { sha256, treeDigest, type Sha256Digest } from '../digest/index.js';
import { parseCapability, parsePublished, readCapabilityFiles, type BundleBytes } from './bundle.js';
import { bundleDir, readIndex } from './index-file.js';
import { BUNDLE_FILES, LATEST, type CapabilityBundle, type IndexEntry, type RegistryIndex, type Tool, type UiSchema } from './model.js';

/** The digest of a bundle's four files: names its directory and is recorded in the index. */
export function bundleDigest(bytes: BundleBytes): Sha256Digest {
  const files = BUNDLE_FILES.flatMap((path) => {
    const b = bytes[path];
    return b === undefined ? [] : [{ path, size: b.length, digest: sha256(b), mode: '0644' as const }];
  });
  return treeDigest(files);
}

/**
 * True when the registry holds the files of `entry` as published: readable, with the index's
 * digest. A publish of the same bundle is `unchanged` only then; otherwise it writes the files
 * again, which is how an operator restores a bundle edited or removed on disk.
 */
export async function publishedIntact(registry: string, entry: Pick<IndexEntry, 'capability_id' | 'digest'>): Promise<boolean> {
  const read = await readCapabilityFiles(bundleDir(registry, entry), '', { listExtra: false });
  return read.diagnostics.length === 0 && bundleDigest(read.bytes) === entry.digest;
}

/** One reason a bundle is malformed, located in its file. */
export interface MalformedFinding {
  readonly code: Code;
  readonly message: string;
  /** The bundle file: capability.json, skill.md, tools.json or ui_schemas.json. */
  readonly file: string;
  readonly pointer?: string;
  readonly line?: number;
  /** The field the finding is about (the last segment of the pointer). */
  readonly field?: string;
  /** The tool, or UI schema, the finding is inside. */
  readonly tool?: string;
  readonly ui_schema?: string;
}

export type LoadError =
  | { readonly code: 'CAPABILITY_NOT_FOUND'; readonly message: string; readonly available_capabilities: readonly string[] }
  | { readonly code: 'SKILL_MALFORMED'; readonly message: string; readonly details: string; readonly findings: readonly MalformedFinding[] };

export type LoadResult = { readonly ok: true; readonly bundle: CapabilityBundle; readonly entry: IndexEntry } | { readonly ok: false; readonly error: LoadError };

/** The protocol's CAPABILITY_NOT_FOUND for `id`, listing the capabilities there are. */
export function capabilityNotFound(available: readonly string[], id: string): LoadError {
  return { code: 'CAPABILITY_NOT_FOUND', message: `No capability found for ID '${id}'`, available_capabilities: available };
}

function notFound(index: RegistryIndex, id: string): LoadError {
  return capabilityNotFound(index.capabilities.map((e) => e.capability_id), id);
}

function itemName(bytes: BundleBytes, file: string, pointer: string | undefined, key: 'tools' | 'ui_schemas'): string | undefined {
  const m = new RegExp(`^/${key}/(\\d+)(?:/|$)`).exec(pointer ?? '');
  const b = bytes[file as keyof BundleBytes];
  if (m === null || b === undefined) return undefined;
  try {
    const item = (JSON.parse(Buffer.from(b).toString('utf8')) as Record<string, unknown[]>)[key]?.[Number(m[1])] as Record<string, unknown> | undefined;
    const name = key === 'tools' ? item?.name : item?.schema_id;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

function toFinding(d: Diagnostic, bytes: BundleBytes): MalformedFinding {
  const file = d.file ?? 'bundle';
  const field = d.pointer?.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~');
  const tool = file === 'tools.json' ? itemName(bytes, file, d.pointer, 'tools') : undefined;
  const ui = file === 'ui_schemas.json' ? itemName(bytes, file, d.pointer, 'ui_schemas') : undefined;
  return {
    code: d.code,
    message: d.message,
    file,
    ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(field !== undefined && field !== '' ? { field } : {}),
    ...(tool !== undefined ? { tool } : {}),
    ...(ui !== undefined ? { ui_schema: ui } : {}),
  };
}

const WHAT: Record<string, string> = {
  'capability.json': 'capability metadata',
  'skill.md': 'skill doc',
  'tools.json': 'tool schema',
  'ui_schemas.json': 'UI schema',
};

function malformed(id: string, findings: readonly MalformedFinding[]): LoadError {
  const first = findings[0] as MalformedFinding;
  const what = WHAT[first.file] ?? 'bundle';
  const missing = first.code === 'SCHEMA_REQUIRED' && first.field !== undefined;
  const text = missing ? `Missing required field '${first.field}'` : first.message.charAt(0).toUpperCase() + first.message.slice(1);
  const where = first.tool !== undefined ? ` in tool '${first.tool}'` : first.ui_schema !== undefined ? ` in UI schema '${first.ui_schema}'` : ` in ${first.file}`;
  const extra = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return { code: 'SKILL_MALFORMED', message: `Skill '${id}' has an invalid ${what}`, details: `${text}${where}${extra}`, findings };
}

async function loadEntry(registry: string, entry: IndexEntry): Promise<LoadResult | 'gone'> {
  const dir = bundleDir(registry, entry);
  if ((await stat(dir).catch((err: unknown) => errnoCode(err))) === 'ENOENT') return 'gone';
  const read = await readCapabilityFiles(dir, '', { listExtra: false });
  const id = entry.capability_id;
  const findings: MalformedFinding[] = read.diagnostics.map((d) => toFinding(d, read.bytes));
  if (findings.length === 0) {
    if (bundleDigest(read.bytes) !== entry.digest) {
      findings.push({ code: 'SKILL_MALFORMED', message: 'the files changed since they were published (digest mismatch)', file: 'bundle' });
    } else {
      const parts = parsePublished(read.bytes);
      if (parts !== undefined && parts.meta.capability_id === id) {
        return { ok: true, bundle: { capability_id: id, version: LATEST, skill_doc: parts.skillDoc, tools: parts.tools, ui_schemas: parts.uiSchemas }, entry };
      }
    }
  }
  const parsed = parseCapability(read.bytes, '');
  for (const d of parsed.diagnostics) if (d.severity === 'error') findings.push(toFinding(d, read.bytes));
  if (parsed.meta !== undefined && parsed.meta.capability_id !== id) {
    findings.push({ code: 'SKILL_MALFORMED', message: `the bundle is capability '${parsed.meta.capability_id}', not '${id}'`, file: 'capability.json', pointer: '/capability_id', field: 'capability_id' });
  }
  if (findings.length > 0 || parsed.doc === undefined) return { ok: false, error: malformed(id, findings) };
  const bundle: CapabilityBundle = {
    capability_id: id,
    version: LATEST,
    skill_doc: parsed.doc.text,
    tools: parsed.tools.map((t) => t.value as Tool),
    ui_schemas: parsed.uiSchemas.map((u) => u.value as UiSchema),
  };
  return { ok: true, bundle, entry };
}

/**
 * Loads capability `id` from the registry in `registry`, whose index the caller has read. When
 * the bundle's directory is gone (a concurrent publish replaced it), the index is read again once.
 */
export async function loadCapability(registry: string, index: RegistryIndex, id: string): Promise<LoadResult> {
  let current = index;
  for (let attempt = 0; attempt < 2; attempt++) {
    const entry = current.capabilities.find((e) => e.capability_id === id);
    if (entry === undefined) return { ok: false, error: notFound(current, id) };
    const r = await loadEntry(registry, entry);
    if (r !== 'gone') return r;
    const again = await readIndex(registry);
    if (!again.ok) break;
    current = again.index;
  }
  return {
    ok: false,
    error: malformed(id, [{ code: 'CAPABILITY_FILE_MISSING', message: 'the published files are missing from the registry', file: 'bundle' }]),
  };
}
