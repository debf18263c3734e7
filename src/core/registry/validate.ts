/**
 * The Studio validation of seed 004, on a capability bundle directory: every file parsed and
 * checked against its schema, then every publish-time check (skill.md sections and references,
 * tool names across the registry, tool schemas and bindings, UI schema references and dialects).
 * Every finding is collected; `valid` only when none is an error.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { validateBundle, type Manifest } from '../manifest/index.js';
import { bundlePath, parseCapability, readCapabilityFiles, type BundleBytes, type ParsedCapability } from './bundle.js';
import { bindingKey, CHECKS, type BindingResolution } from './checks/index.js';
import { BUNDLE_FILES, type IndexEntry } from './model.js';
import { pushAll } from '../findings.js';

/** Finds the manifest of a skill by id, for the binding checks. */
export interface SkillResolver {
  resolve(skillId: string): Promise<{ readonly manifest: Manifest; readonly source: string } | { readonly reason: string }>;
}

/**
 * Resolves a skill id to `<root>/<skill_id>/skill.yaml|json` in the first root that has it (the
 * built-in bundle is `manifests/default`). A manifest with errors does not resolve: a binding to
 * a broken skill would fail at every call.
 */
export function dirSkillResolver(roots: readonly string[]): SkillResolver {
  const cache = new Map<string, ReturnType<SkillResolver['resolve']>>();
  const lookup = async (skillId: string): ReturnType<SkillResolver['resolve']> => {
    if (!/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/.test(skillId)) return { reason: 'not a valid skill_id' };
    for (const root of roots) {
      const dir = join(root, skillId);
      const r = await validateBundle(dir);
      if (r.diagnostics.some((d) => d.code === 'BUNDLE_NO_MANIFEST' || d.code === 'BUNDLE_NOT_FOUND')) continue;
      if (r.manifest === undefined || !r.valid) {
        const codes = [...new Set(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))];
        return { reason: `the manifest in ${dir} is invalid (${codes.join(', ')})` };
      }
      if (r.manifest.skill_id !== skillId) return { reason: `${dir} holds skill ${r.manifest.skill_id}, not ${skillId}` };
      return { manifest: r.manifest, source: dir };
    }
    return { reason: `no skill ${skillId} in ${roots.length === 0 ? 'any skill directory (none given)' : roots.join(', ')}` };
  };
  return {
    resolve(skillId) {
      let p = cache.get(skillId);
      if (p === undefined) cache.set(skillId, (p = lookup(skillId)));
      return p;
    },
  };
}

export interface ValidateCapabilityOptions {
  /** How the bundle directory is named in diagnostics (default: the path given). */
  readonly label?: string;
  /** The registry's published capabilities, for the tool-name collision check. */
  readonly others?: readonly IndexEntry[];
  /** Where bound skills are found; without it every binding is unresolved. */
  readonly skills?: SkillResolver;
}

export interface CapabilityValidation {
  readonly label: string;
  readonly capability_id?: string;
  /** True when no diagnostic is an error. */
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly parsed: ParsedCapability;
  /** The files as read, which publishing copies byte for byte. */
  readonly bytes: BundleBytes;
}

async function resolveBindings(parsed: ParsedCapability, skills: SkillResolver | undefined): Promise<Map<string, BindingResolution>> {
  const out = new Map<string, BindingResolution>();
  for (const { value: tool } of parsed.tools) {
    const b = tool.binding;
    if (b === undefined || out.has(bindingKey(b.skill_id, b.entrypoint_id))) continue;
    let res: BindingResolution;
    if (skills === undefined) res = { found: false, reason: 'no skill resolver was given' };
    else {
      const r = await skills.resolve(b.skill_id);
      if ('reason' in r) res = { found: false, reason: r.reason };
      else {
        const ep = r.manifest.entrypoints.find((e) => e.entrypoint_id === b.entrypoint_id);
        res = ep !== undefined ? { found: true, entrypoint: ep, source: r.source } : { found: false, reason: `${b.skill_id} has no entrypoint ${b.entrypoint_id} (it has ${r.manifest.entrypoints.map((e) => e.entrypoint_id).join(', ')})` };
      }
    }
    out.set(bindingKey(b.skill_id, b.entrypoint_id), res);
  }
  return out;
}

/** Adds line and column to findings that point into one of the bundle's JSON files. */
function positioned(parsed: ParsedCapability, found: readonly Diagnostic[]): Diagnostic[] {
  return found.map((d) => {
    if (d.pointer === undefined || d.line !== undefined || d.file === undefined) return d;
    const name = BUNDLE_FILES.find((n) => d.file === bundlePath(parsed.label, n));
    const doc = name !== undefined ? parsed.documents[name] : undefined;
    const p = doc?.locate(d.pointer);
    return p === undefined ? d : { ...d, line: p.line, column: p.column };
  });
}

/** A bundle directory read and parsed, before the publish-time checks. */
export interface ReadCapability {
  readonly label: string;
  readonly bytes: BundleBytes;
  readonly parsed: ParsedCapability;
  /** Reading and parsing findings. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Reads and parses the bundle in `dir`; `label` names it in diagnostics. */
export async function readCapability(dir: string, label: string = dir): Promise<ReadCapability> {
  const st = await stat(dir).catch((err: unknown) => errnoCode(err) ?? String(err));
  if (typeof st === 'string' || !st.isDirectory()) {
    const d =
      st === 'ENOENT'
        ? diag('INPUT_NOT_FOUND', `${label} does not exist`, { file: label })
        : diag('INPUT_UNREADABLE', `${label} ${typeof st === 'string' ? `cannot be read (${st})` : 'is not a directory'}`, { file: label });
    return { label, bytes: {}, parsed: parseCapability({}, label), diagnostics: [d] };
  }
  const read = await readCapabilityFiles(dir, label);
  const found: Diagnostic[] = [...read.diagnostics];
  if (read.diagnostics.length === BUNDLE_FILES.length && read.diagnostics.every((d) => d.code === 'CAPABILITY_FILE_MISSING')) {
    // Nothing of a bundle here: say so once instead of four times.
    found.splice(0, found.length, diag('CAPABILITY_FILE_MISSING', `${label} holds none of ${BUNDLE_FILES.join(', ')}`, { file: label }));
  }
  for (const name of read.extra) {
    found.push(diag('CAPABILITY_FILE_UNEXPECTED', `${name} is not part of a capability bundle and is not published`, { file: bundlePath(label, name) }));
  }
  const parsed = parseCapability(read.bytes, label);
  return { label, bytes: read.bytes, parsed, diagnostics: [...found, ...parsed.diagnostics] };
}

/** Runs the publish-time checks on a bundle already read. */
export async function checkCapability(read: ReadCapability, opts: Omit<ValidateCapabilityOptions, 'label'> = {}): Promise<CapabilityValidation> {
  const { parsed, label } = read;
  const found: Diagnostic[] = [...read.diagnostics];
  if (!found.some((d) => d.code === 'INPUT_NOT_FOUND' || d.code === 'INPUT_UNREADABLE')) {
    const bindings = await resolveBindings(parsed, opts.skills);
    const ctx = { bundle: parsed, bindings, ...(opts.others !== undefined ? { others: opts.others } : {}) };
    for (const check of CHECKS) pushAll(found, check.check(ctx));
  }
  const diagnostics = sortDiagnostics(positioned(parsed, found));
  return {
    label,
    ...(parsed.meta !== undefined ? { capability_id: parsed.meta.capability_id } : {}),
    valid: !hasErrors(diagnostics),
    diagnostics,
    parsed,
    bytes: read.bytes,
  };
}

/** Validates the capability bundle in `dir` without publishing it. */
export async function validateCapability(dir: string, opts: ValidateCapabilityOptions = {}): Promise<CapabilityValidation> {
  return checkCapability(await readCapability(dir, opts.label ?? dir), opts);
}
