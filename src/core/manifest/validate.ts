/**
 * Validates one manifest: parse, schema, semantic rules, digest correctness, metadata and the
 * loader error. Every finding is collected; nothing stops at the first.
 */
import { stat } from '../fs/callback-fs.js';
import { readBounded, refusalDiagnostic } from '../fs/read-bounded.js';
import { join } from 'node:path';
import { bundleDirSource, computeContent, listAndHash, MANIFEST_NAMES, type BundleDirOptions, type BundleFile, type BundleListing, type BundleSource } from '../bundle/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic, type Result } from '../diagnostics.js';
import { capFindings, pushAll } from '../findings.js';
import { canonicalDigest, isSha256Digest, jcsDigest, type Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { validate as validateContract } from '../../generated/skill-contract-v1.validator.js';
import contractSchema from '../../../schemas/skill.contract.v1.schema.json' with { type: 'json' };
import { toLoaderError, type LoaderError } from './loader-error.js';
import { fieldExample } from './examples.js';
import { checkSkillMdSync } from './skill-md-sync.js';
import { checkDeterminism, summariseEntrypoints, unmetRequests, type DeterminismFindings, type EntrypointSummary } from './determinism/index.js';
import { deriveMetadata, UNKNOWN_METADATA, type ValidationMetadata } from './metadata.js';
import type { Manifest } from './model.js';
import { MANIFEST_MAX_BYTES, parseDocumentBytes, type DocumentFormat, type ParsedDocument } from './parse.js';
import { entrypointViews, RULES, type ViewedEntrypoint } from './rules/index.js';

const validator = validateContract as StandaloneValidator;

export interface DigestCheck {
  /** The value in the manifest, when it is a string. */
  readonly declared?: string;
  /** The value the manifest should carry, when it could be computed. */
  readonly computed?: Sha256Digest;
}

export interface ManifestValidation {
  /** The manifest file as the user named it (or `-` for stdin). */
  readonly file: string;
  /** The bundle directory, when the manifest was read from one. */
  readonly bundle?: string;
  readonly format: DocumentFormat;
  readonly skill_id?: string;
  readonly skill_version?: string;
  /** True when there is no error-severity diagnostic. */
  readonly valid: boolean;
  readonly metadata: ValidationMetadata;
  /** Each entrypoint that is a mapping, with its determinism eligibility and the reasons against it. */
  readonly entrypoints: readonly EntrypointSummary[];
  readonly loader_error?: LoaderError;
  readonly diagnostics: readonly Diagnostic[];
  readonly digests: { readonly manifest: DigestCheck; readonly content: DigestCheck };
  /** The typed manifest, when it passed the schema. */
  readonly manifest?: Manifest;
  /** The bundle's files, when a bundle directory was read. */
  readonly files?: readonly BundleFile[];
  /** The parsed source, for position lookups and in-place edits (`--fix`). */
  readonly document: ParsedDocument;
}

export interface ValidateOptions {
  /** How to name the manifest file in diagnostics. */
  readonly file: string;
  /** The bundle the manifest belongs to, for content_digest and file checks. */
  readonly bundle?: BundleSource;
  /** How to name the bundle in diagnostics about its files. */
  readonly bundleLabel?: string;
  /** The bundle's listing, when the caller already walked it. */
  readonly listing?: BundleListing;
}

/** The manifest without `manifest_digest`: the preimage of manifest_digest. */
function preimage(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...data };
  delete rest.manifest_digest;
  return rest;
}

/** The manifest_digest of a manifest read from a file, or DIGEST_NOT_CANONICALIZABLE. */
export function computeManifestDigest(data: Readonly<Record<string, unknown>>): Result<Sha256Digest> {
  return canonicalDigest(preimage(data));
}

/** The manifest_digest of a manifest the caller built; throws DIGEST_NOT_CANONICALIZABLE for non-JSON data. */
export function manifestDigestOf(data: Readonly<Record<string, unknown>>): Sha256Digest {
  return jcsDigest(preimage(data));
}

function schemaDiagnostics(data: unknown, doc: ParsedDocument): Diagnostic[] {
  if (validator(data)) return [];
  return schemaErrorsToDiagnostics(validator.errors ?? [], data, {
    schema: contractSchema as Record<string, unknown>,
    unknownFieldCode: (parent) => (/\/(?:requested|required)_permissions$/.test(parent) ? 'PERMISSION_SCOPE_UNKNOWN' : undefined),
    // The value as written: `skill_version: 1.0` is a YAML float, though the data holds 1.
    written: (pointer) => {
      const range = doc.scalarRange(pointer);
      return { format: doc.format, ...(range !== undefined ? { text: doc.text.slice(range[0], range[1]) } : {}) };
    },
    example: fieldExample,
  });
}

function positioned(doc: ParsedDocument, file: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    let out = d.file === undefined ? { ...d, file } : d;
    if (d.pointer !== undefined && d.line === undefined && out.file === file) {
      const keyed = d.code === 'SCHEMA_UNKNOWN_FIELD' || d.code === 'PERMISSION_SCOPE_UNKNOWN' || d.code === 'MANIFEST_FORBIDDEN_KEY';
      const p = doc.locate(d.pointer, { key: keyed });
      if (p !== undefined) out = { ...out, line: p.line, column: p.column };
    }
    return out;
  });
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Validates manifest bytes, and the bundle around them when one is given. */
export async function validateManifest(bytes: Uint8Array, format: DocumentFormat, opts: ValidateOptions): Promise<ManifestValidation> {
  const doc = parseDocumentBytes(bytes, format);
  const found: Diagnostic[] = [...doc.diagnostics];
  const data = doc.data as Record<string, unknown> | undefined;
  let manifestCheck: DigestCheck = {};
  let contentCheck: DigestCheck = {};
  let files: readonly BundleFile[] | undefined;
  let entrypoints: ViewedEntrypoint[] = [];
  let determinism: DeterminismFindings | undefined;

  if (data !== undefined) {
    const schemaFindings = schemaDiagnostics(data, doc);
    pushAll(found, schemaFindings);
    // The rules run whatever the schema found: each reads what is not broken (rules/view.ts).
    entrypoints = entrypointViews(data, schemaFindings);

    let computedContent: Sha256Digest | undefined;
    if (opts.bundle !== undefined) {
      const content = await computeContent(opts.bundle, opts.listing);
      files = content.files.map(({ path, size, mode }) => ({ path, size, mode }));
      const label = opts.bundleLabel ?? opts.bundle.location;
      pushAll(found, content.diagnostics.map((d) => (d.file !== undefined ? { ...d, file: join(label, d.file) } : { ...d, file: label })));
      if (content.complete) computedContent = content.digest;
    }
    for (const rule of RULES) pushAll(found, rule.check({ data, entrypoints, ...(files !== undefined ? { files } : {}) }));
    determinism = checkDeterminism(data, entrypoints);
    pushAll(found, determinism.findings);
    if (opts.bundle !== undefined && files !== undefined) {
      pushAll(found, await checkSkillMdSync({ source: opts.bundle, files, data, label: opts.bundleLabel ?? opts.bundle.location }));
    }

    const declaredContent = str(data.content_digest);
    contentCheck = { ...(declaredContent !== undefined ? { declared: declaredContent } : {}), ...(computedContent ? { computed: computedContent } : {}) };
    if (opts.bundle === undefined) {
      if (declaredContent !== undefined) {
        found.push(diag('CONTENT_DIGEST_UNVERIFIED', 'content_digest was not checked: no bundle directory (manifest read from stdin)', { pointer: '/content_digest' }));
      }
    } else if (declaredContent === undefined) {
      found.push(
        diag('CONTENT_DIGEST_MISSING', "no content_digest: manifest_digest does not cover the bundle's other files", {
          pointer: '',
          hint: `add content_digest: ${computedContent ?? '<digest>'} (skillctl validate --fix does it)`,
        }),
      );
    } else if (computedContent !== undefined && isSha256Digest(declaredContent) && declaredContent !== computedContent) {
      found.push(
        diag('CONTENT_DIGEST_MISMATCH', `content_digest is ${declaredContent} but the bundle's files hash to ${computedContent}`, {
          pointer: '/content_digest',
          hint: 'if the change to the files is intended, run skillctl validate --fix; otherwise restore the files',
        }),
      );
    }

    const declared = str(data.manifest_digest);
    const digest = computeManifestDigest(data);
    const computed = digest.value;
    pushAll(found, digest.diagnostics.map((d) => ({ ...d, pointer: '' })));
    manifestCheck = { ...(declared !== undefined ? { declared } : {}), ...(computed !== undefined ? { computed } : {}) };
    if (declared !== undefined && computed !== undefined && isSha256Digest(declared) && declared !== computed) {
      found.push(
        diag('MANIFEST_DIGEST_MISMATCH', `manifest_digest is ${declared} but the manifest hashes to ${computed}`, {
          pointer: '/manifest_digest',
          hint: 'run skillctl validate --fix to write the right value, if the edit was intended',
        }),
      );
    }
  }

  // Capped before positions are looked up: a position per finding is the costly part.
  const diagnostics = sortDiagnostics(positioned(doc, opts.file, capFindings(found, opts.file)));
  const metadata = deriveMetadata(diagnostics);
  const summaries = summariseEntrypoints(entrypoints, determinism?.byEntrypoint ?? new Map(), diagnostics);
  // Advisory (seed 003): a strict request never changes eligibility, it is only told it is unmet.
  const extra = unmetRequests(entrypoints, summaries);
  const all = extra.length > 0 ? sortDiagnostics([...diagnostics, ...positioned(doc, opts.file, extra)]) : diagnostics;
  const loaderError = toLoaderError(data, all);
  const schemaValid = metadata.contract_valid && data !== undefined;
  return {
    file: opts.file,
    ...(opts.bundleLabel !== undefined ? { bundle: opts.bundleLabel } : {}),
    format,
    ...(str(data?.skill_id) !== undefined ? { skill_id: str(data?.skill_id) } : {}),
    ...(str(data?.skill_version) !== undefined ? { skill_version: str(data?.skill_version) } : {}),
    valid: !hasErrors(all),
    metadata,
    entrypoints: summaries,
    ...(loaderError !== undefined ? { loader_error: loaderError } : {}),
    diagnostics: all,
    digests: { manifest: manifestCheck, content: contentCheck },
    ...(schemaValid ? { manifest: data as unknown as Manifest } : {}),
    ...(files !== undefined ? { files } : {}),
    document: doc,
  };
}

export function formatOf(path: string): DocumentFormat {
  return path.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

/** The format of a manifest with no name (stdin): JSON when it opens with `{`. */
export function formatOfBytes(bytes: Uint8Array): DocumentFormat {
  return /^\s*\{/.test(Buffer.from(bytes.subarray(0, 64)).toString('utf8')) ? 'json' : 'yaml';
}

/** The result for a manifest that could not even be read. */
export function unreadable(file: string, diagnostic: Diagnostic, format: DocumentFormat = formatOf(file)): ManifestValidation {
  const diagnostics = [diagnostic.file === undefined ? { ...diagnostic, file } : diagnostic];
  const loaderError = toLoaderError(undefined, diagnostics);
  return {
    file,
    format,
    valid: false,
    metadata: UNKNOWN_METADATA,
    entrypoints: [],
    ...(loaderError !== undefined ? { loader_error: loaderError } : {}),
    diagnostics,
    digests: { manifest: {}, content: {} },
    document: parseDocumentBytes(new Uint8Array(), format),
  };
}

/**
 * Reads the manifest file at `path` (named `file` in results) and validates it without a bundle.
 * A FIFO, a device or a file over the size bound is refused before it is read (read-bounded.ts).
 */
export async function validateManifestFile(path: string, file: string): Promise<ManifestValidation> {
  const r = await readBounded(path, { maxBytes: MANIFEST_MAX_BYTES });
  if (!r.ok) return unreadable(file, refusalDiagnostic(r, file, 'MANIFEST_TOO_LARGE'));
  return validateManifest(r.bytes, formatOf(file), { file });
}

/**
 * Reads and validates the bundle in `dir` (its manifest plus its files). `label` is how the
 * bundle is named in results (by default `dir` itself). The bundle is walked once and each file
 * read once (bundle/content.ts `listAndHash`): the manifest checked and the digests computed are
 * of the same bytes.
 */
export async function validateBundle(dir: string, label: string = dir, opts: BundleDirOptions = {}): Promise<ManifestValidation> {
  try {
    const st = await stat(dir);
    if (!st.isDirectory()) return unreadable(label, diag('BUNDLE_NOT_FOUND', `${label} is not a directory`));
  } catch (err) {
    return unreadable(label, diag('BUNDLE_NOT_FOUND', `${label} cannot be opened: ${errnoCode(err) ?? String(err)}`));
  }
  // One walk serves both: the manifest is found in the listing, and the listing is hashed.
  const source = bundleDirSource(dir, opts);
  const { listing } = await listAndHash(source);
  const replaced = listing.diagnostics.find((d) => d.code === 'BUNDLE_ROOT_CHANGED');
  if (replaced !== undefined) return unreadable(label, replaced);
  const present = MANIFEST_NAMES.filter((n) => listing.files.some((f) => f.path === n));
  if (present.length !== 1) {
    const linked = listing.diagnostics.filter((d) => d.file !== undefined && (MANIFEST_NAMES as readonly string[]).includes(d.file));
    const d =
      present.length === 0
        ? diag('BUNDLE_NO_MANIFEST', 'no skill.yaml or skill.json at the bundle root', { file: label })
        : diag('BUNDLE_AMBIGUOUS_MANIFEST', 'both skill.yaml and skill.json exist; keep exactly one', { file: label });
    const result = unreadable(label, d);
    return { ...result, diagnostics: [...result.diagnostics, ...linked.map((x) => ({ ...x, file: join(label, x.file as string) }))] };
  }
  const name = present[0] as string;
  const file = join(label, name);
  let bytes: Buffer;
  try {
    bytes = await source.read(name);
  } catch (err) {
    return unreadable(file, diag('BUNDLE_UNREADABLE', `cannot read manifest: ${errnoCode(err) ?? String(err)}`));
  }
  return validateManifest(bytes, formatOf(name), { file, bundle: source, bundleLabel: label, listing });
}
