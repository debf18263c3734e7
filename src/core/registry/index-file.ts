/**
 * A registry's index.json: the one file `list` and `match` read, and the commit point of a
 * publish. It is written whole and atomically, sorted by capability_id, with no timestamps, so the
 * same set of published capabilities always gives the same bytes.
 */
import { stat } from 'node:fs/promises';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { writeFileAtomic } from '../fs/index.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
// Not through manifest/index.js: that holds the YAML parser, which reading the index never needs.
import { jsonSyntaxProblem } from '../manifest/json-syntax.js';
import { validate as validateIndexJson } from '../../generated/registry-index-v1.validator.js';
import indexSchema from '../../../schemas/registry-index.v1.schema.json' with { type: 'json' };
import { CAPABILITIES_DIR, INDEX_FILE, REGISTRY_FORMAT, type IndexEntry, type RegistryIndex } from './model.js';

export { CAPABILITIES_DIR, INDEX_FILE };
/** One entry per published bundle: the lock file's room (16 manifests' worth), not a manifest's. */
const INDEX_MAX_BYTES = 64 * 1024 * 1024;
export const EMPTY_INDEX: RegistryIndex = { registry_format: REGISTRY_FORMAT, capabilities: [] };

const validator = validateIndexJson as StandaloneValidator;

export type IndexRead = { readonly ok: true; readonly index: RegistryIndex } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** The directory holding one published bundle. */
export function bundleDir(registry: string, entry: Pick<IndexEntry, 'capability_id' | 'digest'>): string {
  return join(registry, CAPABILITIES_DIR, entry.capability_id, entry.digest.slice('sha256:'.length));
}

/**
 * Reads the index of the registry in `dir`. A registry directory without an index is an empty
 * registry; a missing directory, an unparsable index or one off its schema is an error.
 */
export async function readIndex(dir: string): Promise<IndexRead> {
  const file = join(dir, INDEX_FILE);
  // A FIFO or device named index.json is refused before it is opened (read-bounded.ts).
  const read = await readBounded(file, { maxBytes: INDEX_MAX_BYTES });
  if (!read.ok) {
    if (read.reason === 'missing') {
      const st = await stat(dir).catch(() => undefined);
      if (st?.isDirectory() === true) return { ok: true, index: EMPTY_INDEX };
      return { ok: false, diagnostics: [diag('REGISTRY_NOT_FOUND', `registry ${dir} ${st === undefined ? 'does not exist' : 'is not a directory'}`, { file: dir })] };
    }
    return { ok: false, diagnostics: [diag('REGISTRY_INDEX_INVALID', describeRefusal(read, INDEX_FILE), { file })] };
  }
  const text = read.bytes.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // In skillctl's words, at a line and column: JSON.parse's message changes with Node's version.
    const p = jsonSyntaxProblem(text);
    return { ok: false, diagnostics: [diag('REGISTRY_INDEX_INVALID', `${INDEX_FILE} is not JSON: ${p?.reason ?? 'it is not one JSON value'}`, { file, ...(p !== undefined ? { line: p.line, column: p.column } : {}) })] };
  }
  if (!validator(data)) {
    const found = schemaErrorsToDiagnostics(validator.errors ?? [], data, { schema: indexSchema as Record<string, unknown> });
    return { ok: false, diagnostics: found.map((d) => diag('REGISTRY_INDEX_INVALID', d.message, { file, ...(d.pointer !== undefined ? { pointer: d.pointer } : {}) })) };
  }
  const index = data as RegistryIndex;
  const seen = new Set<string>();
  for (const [i, e] of index.capabilities.entries()) {
    if (seen.has(e.capability_id)) {
      return { ok: false, diagnostics: [diag('REGISTRY_INDEX_INVALID', `capability ${e.capability_id} is listed twice`, { file, pointer: `/capabilities/${i}/capability_id` })] };
    }
    seen.add(e.capability_id);
  }
  return { ok: true, index };
}

function byId(a: IndexEntry, b: IndexEntry): number {
  return a.capability_id < b.capability_id ? -1 : a.capability_id > b.capability_id ? 1 : 0;
}

/** The index with `entry` added or replacing the entry of the same capability_id. */
export function withEntry(index: RegistryIndex, entry: IndexEntry): RegistryIndex {
  const rest = index.capabilities.filter((e) => e.capability_id !== entry.capability_id);
  return { registry_format: REGISTRY_FORMAT, capabilities: [...rest, entry].sort(byId) };
}

/** The bytes of an index: fixed key order, 2-space JSON, trailing newline. */
export function renderIndex(index: RegistryIndex): string {
  const capabilities = [...index.capabilities].sort(byId).map((e) => ({
    capability_id: e.capability_id,
    name: e.name,
    description: e.description,
    intent_triggers: e.intent_triggers,
    version: e.version,
    digest: e.digest,
    tools: e.tools,
    ui_schemas: e.ui_schemas,
  }));
  return `${JSON.stringify({ registry_format: REGISTRY_FORMAT, capabilities }, null, 2)}\n`;
}

export async function writeIndex(dir: string, index: RegistryIndex): Promise<void> {
  await writeFileAtomic(join(dir, INDEX_FILE), renderIndex(index));
}
