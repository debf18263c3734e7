/**
 * Turns the four files of a capability bundle into the typed model, once, at the edge: each JSON
 * file through the hardened parser and its build-time schema validator, skill.md through the
 * skill-doc reader. Checks and loaders only ever see the result.
 */
import { readdir } from 'node:fs/promises';
import { readBounded } from '../fs/read-bounded.js';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { capFindings, pushAll } from '../findings.js';
import { errnoCode } from '../errors.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { MANIFEST_MAX_BYTES, parseDocumentBytes, type ParsedDocument } from '../manifest/index.js';
import { validate as validateCapabilityJson } from '../../generated/capability-v1.validator.js';
import { validate as validateToolsJson } from '../../generated/capability-tools-v1.validator.js';
import { validate as validateUiJson } from '../../generated/capability-ui-schemas-v1.validator.js';
import capabilitySchema from '../../../schemas/capability.v1.schema.json' with { type: 'json' };
import toolsSchema from '../../../schemas/capability-tools.v1.schema.json' with { type: 'json' };
import uiSchema from '../../../schemas/capability-ui-schemas.v1.schema.json' with { type: 'json' };
import { BUNDLE_FILES, type BundleFileName, type CapabilityMeta, type Tool, type UiSchema } from './model.js';
import { parseSkillDoc, type SkillDoc } from './skill-doc.js';

/** The raw bytes of the bundle's files that could be read. */
export type BundleBytes = Partial<Record<BundleFileName, Uint8Array>>;

export interface Indexed<T> {
  readonly index: number;
  /** `/tools/<index>` or `/ui_schemas/<index>` */
  readonly pointer: string;
  readonly value: T;
}

export interface ParsedCapability {
  /** How the bundle is named in diagnostics (its directory as given). */
  readonly label: string;
  /** capability.json, when it passed its schema. */
  readonly meta?: CapabilityMeta;
  /** The `capability_id` capability.json declares, when it is a string, schema or not. */
  readonly declaredId?: string;
  readonly doc?: SkillDoc;
  /** Tools that passed the schema; a broken tool is reported and left out. */
  readonly tools: readonly Indexed<Tool>[];
  readonly uiSchemas: readonly Indexed<UiSchema>[];
  /**
   * Every tool name and schema_id the files declare, broken items included; undefined when the
   * file is missing or not a list at all, so references into it cannot be judged.
   */
  readonly declared: { readonly tools?: ReadonlySet<string>; readonly uiSchemas?: ReadonlySet<string> };
  /** True when every file was present and passed its schema. */
  readonly complete: boolean;
  readonly documents: Partial<Record<BundleFileName, ParsedDocument>>;
  readonly diagnostics: readonly Diagnostic[];
}

const JSON_FILES = {
  'capability.json': { validate: validateCapabilityJson as StandaloneValidator, schema: capabilitySchema as Record<string, unknown> },
  'tools.json': { validate: validateToolsJson as StandaloneValidator, schema: toolsSchema as Record<string, unknown> },
  'ui_schemas.json': { validate: validateUiJson as StandaloneValidator, schema: uiSchema as Record<string, unknown> },
} as const;

/** Joins a bundle label and a file name the way every diagnostic names the file. */
export function bundlePath(label: string, name: string): string {
  // A bundle pulled from oci:// is named by its reference, which path joining would mangle (oci:/).
  return label === '' ? name : label.includes('://') ? `${label}/${name}` : join(label, name);
}

function positioned(doc: ParsedDocument, file: string, found: readonly Diagnostic[]): Diagnostic[] {
  return found.map((d) => {
    const out = { ...d, file };
    if (d.pointer === undefined || d.line !== undefined) return out;
    const p = doc.locate(d.pointer, { key: d.code === 'SCHEMA_UNKNOWN_FIELD' || d.code === 'MANIFEST_FORBIDDEN_KEY' });
    return p === undefined ? out : { ...out, line: p.line, column: p.column };
  });
}

/** Items of `data[key]` with no schema finding below them. */
function cleanItems<T>(data: unknown, key: string, findings: readonly Diagnostic[]): Indexed<T>[] {
  const list = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) return [];
  const broken = new Set<number>();
  const re = new RegExp(`^/${key}/(\\d+)(?:/|$)`);
  for (const d of findings) {
    const m = re.exec(d.pointer ?? '');
    if (m) broken.add(Number(m[1]));
  }
  const out: Indexed<T>[] = [];
  list.forEach((value, index) => {
    if (!broken.has(index)) out.push({ index, pointer: `/${key}/${index}`, value: value as T });
  });
  return out;
}

/** The string values of `key` in the items of `data[list]`, or undefined when there is no list. */
function declaredNames(data: unknown, list: string, key: string): Set<string> | undefined {
  const items = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[list] : undefined;
  if (!Array.isArray(items)) return undefined;
  return new Set(items.flatMap((it) => (it !== null && typeof it === 'object' && typeof (it as Record<string, unknown>)[key] === 'string' ? [(it as Record<string, string>)[key] as string] : [])));
}

function decodeText(bytes: Uint8Array, file: string): { text: string } | { diagnostic: Diagnostic } {
  if (bytes.length > MANIFEST_MAX_BYTES) {
    return { diagnostic: diag('MANIFEST_TOO_LARGE', `skill.md is ${bytes.length} bytes; the bound is ${MANIFEST_MAX_BYTES}`, { file }) };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    if (text.includes('\u0000')) return { diagnostic: diag('MANIFEST_ENCODING', 'skill.md contains a NUL byte', { file }) };
    return { text };
  } catch {
    return { diagnostic: diag('MANIFEST_ENCODING', 'skill.md is not valid UTF-8', { file, hint: 're-save the file as UTF-8' }) };
  }
}

/** Parses the bytes of a bundle's files (pure: no I/O). */
export function parseCapability(bytes: BundleBytes, label: string): ParsedCapability {
  const diagnostics: Diagnostic[] = [];
  const documents: Partial<Record<BundleFileName, ParsedDocument>> = {};
  let complete = true;
  const parsed: Partial<Record<keyof typeof JSON_FILES, { data: unknown; findings: Diagnostic[] }>> = {};
  for (const name of Object.keys(JSON_FILES) as (keyof typeof JSON_FILES)[]) {
    const b = bytes[name];
    if (b === undefined) {
      complete = false;
      continue;
    }
    const file = bundlePath(label, name);
    const doc = parseDocumentBytes(b, 'json', name);
    documents[name] = doc;
    const found: Diagnostic[] = [...doc.diagnostics];
    if (doc.data !== undefined) {
      const { validate, schema } = JSON_FILES[name];
      if (!validate(doc.data)) pushAll(found, schemaErrorsToDiagnostics(validate.errors ?? [], doc.data, { schema }));
    }
    if (doc.data === undefined || found.some((d) => d.severity === 'error')) complete = false;
    // Capped before positions are looked up (findings.ts).
    pushAll(diagnostics, positioned(doc, file, capFindings(found, file)));
    parsed[name] = { data: doc.data, findings: found };
  }
  const capability = parsed['capability.json'];
  const meta = capability !== undefined && capability.data !== undefined && capability.findings.length === 0 ? (capability.data as CapabilityMeta) : undefined;
  const rawId = (capability?.data as { capability_id?: unknown } | undefined)?.capability_id;
  const tools = parsed['tools.json'];
  const ui = parsed['ui_schemas.json'];

  let doc: SkillDoc | undefined;
  const md = bytes['skill.md'];
  if (md === undefined) complete = false;
  else {
    const file = bundlePath(label, 'skill.md');
    const decoded = decodeText(md, file);
    if ('diagnostic' in decoded) {
      complete = false;
      diagnostics.push(decoded.diagnostic);
    } else {
      doc = parseSkillDoc(decoded.text, file);
      pushAll(diagnostics, doc.diagnostics);
      if (doc.diagnostics.some((d) => d.severity === 'error')) complete = false;
    }
  }
  return {
    label,
    ...(meta !== undefined ? { meta } : {}),
    ...(typeof rawId === 'string' ? { declaredId: rawId } : {}),
    ...(doc !== undefined ? { doc } : {}),
    tools: tools?.data !== undefined ? cleanItems<Tool>(tools.data, 'tools', tools.findings) : [],
    uiSchemas: ui?.data !== undefined ? cleanItems<UiSchema>(ui.data, 'ui_schemas', ui.findings) : [],
    declared: {
      ...(declaredNames(tools?.data, 'tools', 'name') !== undefined ? { tools: declaredNames(tools?.data, 'tools', 'name') } : {}),
      ...(declaredNames(ui?.data, 'ui_schemas', 'schema_id') !== undefined ? { uiSchemas: declaredNames(ui?.data, 'ui_schemas', 'schema_id') } : {}),
    },
    complete,
    documents,
    diagnostics,
  };
}

/** What a load needs from a bundle: the metadata, the skill.md text, the tools and UI schemas. */
export interface CapabilityParts {
  readonly meta: CapabilityMeta;
  readonly skillDoc: string;
  readonly tools: readonly Tool[];
  readonly uiSchemas: readonly UiSchema[];
}

/**
 * The fast path of a load, for files whose digest matches the one recorded when the hardened
 * parser and every check accepted them at publish: plain JSON.parse, then the schema validators
 * again. Undefined on any doubt; the caller then parses with `parseCapability` for the findings.
 */
export function parsePublished(bytes: BundleBytes): CapabilityParts | undefined {
  const text = (name: BundleFileName): string | undefined => {
    const b = bytes[name];
    if (b === undefined) return undefined;
    const d = decodeText(b, name);
    return 'text' in d ? d.text : undefined;
  };
  try {
    const data: Partial<Record<keyof typeof JSON_FILES, unknown>> = {};
    for (const name of Object.keys(JSON_FILES) as (keyof typeof JSON_FILES)[]) {
      const t = text(name);
      if (t === undefined) return undefined;
      const v = JSON.parse(t) as unknown;
      if (!JSON_FILES[name].validate(v)) return undefined;
      data[name] = v;
    }
    const skillDoc = text('skill.md');
    if (skillDoc === undefined) return undefined;
    return {
      meta: data['capability.json'] as CapabilityMeta,
      skillDoc,
      tools: (data['tools.json'] as { tools: Tool[] }).tools,
      uiSchemas: (data['ui_schemas.json'] as { ui_schemas: UiSchema[] }).ui_schemas,
    };
  } catch {
    // Too deep for JSON.parse, or otherwise unreadable: let the hardened parser say why.
    return undefined;
  }
}

export interface BundleFilesRead {
  readonly bytes: BundleBytes;
  readonly diagnostics: readonly Diagnostic[];
  /** Other entries in the directory, which are not part of the bundle. */
  readonly extra: readonly string[];
}

/**
 * Reads the four files of the bundle in `dir`. Symbolic links and special files are refused, so
 * publishing can never copy a file from outside the bundle into the registry.
 */
export async function readCapabilityFiles(dir: string, label: string, opts: { readonly listExtra?: boolean } = {}): Promise<BundleFilesRead> {
  const bytes: BundleBytes = {};
  const diagnostics: Diagnostic[] = [];
  for (const name of BUNDLE_FILES) {
    const file = bundlePath(label, name);
    // Links are not followed, and a FIFO or device is refused before it is opened (read-bounded.ts).
    const r = await readBounded(join(dir, name), { maxBytes: MANIFEST_MAX_BYTES, followLinks: false });
    if (r.ok) bytes[name] = r.bytes;
    else if (r.reason === 'not-regular') {
      diagnostics.push(diag('CAPABILITY_FILE_MISSING', `${name} is a ${r.kind}, not a regular file`, { file, hint: 'bundle files must be regular files inside the bundle' }));
    } else if (r.reason === 'too-large') {
      diagnostics.push(diag('MANIFEST_TOO_LARGE', `${name} is ${r.size} bytes; the bound is ${MANIFEST_MAX_BYTES}`, { file }));
    } else if (r.reason === 'missing') {
      diagnostics.push(diag('CAPABILITY_FILE_MISSING', `${name} is missing`, { file, hint: `a capability bundle holds ${BUNDLE_FILES.join(', ')}` }));
    } else diagnostics.push(diag('INPUT_UNREADABLE', `cannot read ${name}: ${r.errno}`, { file }));
  }
  let extra: string[] = [];
  if (opts.listExtra === false) return { bytes, diagnostics, extra };
  try {
    extra = (await readdir(dir)).filter((n) => !(BUNDLE_FILES as readonly string[]).includes(n)).sort();
  } catch (err) {
    diagnostics.push(diag('INPUT_UNREADABLE', `cannot list the bundle directory: ${errnoCode(err) ?? String(err)}`, { file: label }));
  }
  return { bytes, diagnostics, extra };
}
