/**
 * Reading and writing lock files. Two formats are read: skillctl's own (`lock_version`
 * skillctl.lock.v1) and provenact-skills' (`schema_version` 1.0.0); only skillctl's is written.
 * A skillctl lock must be exactly what `renderLock` writes for its content (entries sorted by id
 * then version, keys sorted, 2-space indentation, final newline), so any edit to it, whitespace
 * included, is a finding and merges never hide reordering.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { capFindings } from '../findings.js';
import { comparePaths } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { schemaErrorsToDiagnostics, type StandaloneValidator } from '../json-schema/index.js';
import { MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, parseDocumentBytes, parseJsonStrict } from '../manifest/index.js';
import { validate as validateSkillctlLock } from '../../generated/skillctl-lock-v1.validator.js';
import { validate as validateProvenactLock } from '../../generated/provenact-lock.validator.js';
import skillctlSchema from '../../../schemas/skillctl.lock.v1.schema.json' with { type: 'json' };
import provenactSchema from '../../../schemas/provenact.lock.schema.json' with { type: 'json' };
import { LOCK_MAX_BYTES, type LoadedLock, type PackPin, type ProvenactLock, type SkillctlLock, type SkillPin } from './model.js';
import { checkSkillRoots } from './skill-roots.js';

export { LOCK_MAX_BYTES } from './model.js';

export interface LockLoad {
  readonly loaded?: LoadedLock;
  readonly diagnostics: readonly Diagnostic[];
}

// The comparisons and the key sort below run over every pin of a lock each time one is read
// (verify-pins checks the lock is canonical before any pin): they allocate nothing they can avoid.
export function compareSkillPins(a: SkillPin, b: SkillPin): number {
  return comparePaths(a.skill_id, b.skill_id) || comparePaths(a.skill_version, b.skill_version) || comparePaths(a.source, b.source);
}

export function comparePackPins(a: PackPin, b: PackPin): number {
  return comparePaths(a.profile, b.profile) || comparePaths(a.skill_pack_version, b.skill_pack_version) || comparePaths(a.source, b.source);
}

/** A copy with every object's keys in sorted order and undefined members left out. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sortKeys(value[i]);
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    // No prototype: a key named __proto__ stays an ordinary member, as JSON has it.
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(obj).sort()) {
      const v = obj[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The canonical text of a skillctl lock: what `pin` writes and `verify-pins` expects. */
export function renderLock(lock: SkillctlLock): string {
  const sorted: SkillctlLock = {
    ...lock,
    skills: [...lock.skills].map((p) => ({ ...p, signers: [...p.signers].sort(comparePaths) })).sort(compareSkillPins),
    packs: [...lock.packs].sort(comparePackPins),
  };
  return JSON.stringify(sortKeys(sorted), null, 2) + '\n';
}

/** A new, empty lock. */
export function emptyLock(): SkillctlLock {
  return { lock_version: 'skillctl.lock.v1', min_signers: 0, skills: [], packs: [] };
}

function schemaFindings(validator: StandaloneValidator, schema: unknown, data: unknown, file: string, locate: (p: string) => object | undefined): Diagnostic[] {
  if (validator(data)) return [];
  // Capped before positions are looked up (findings.ts).
  return capFindings(schemaErrorsToDiagnostics(validator.errors ?? [], data, { schema: schema as Record<string, unknown> }), file).map((d) => ({
    ...d,
    code: 'LOCK_INVALID' as const,
    file,
    ...(d.pointer !== undefined ? locate(d.pointer) : {}),
  }));
}

/**
 * Parses a lock file's bytes: detects its format, checks it against the format's schema and, for
 * a skillctl lock, that it is in canonical form. `file` names it in diagnostics.
 */
export function loadLock(bytes: Uint8Array, file: string): LockLoad {
  if (bytes.length > LOCK_MAX_BYTES) {
    return { diagnostics: [diag('LOCK_UNREADABLE', `the lock is ${bytes.length} bytes; the bound is ${LOCK_MAX_BYTES}`, { file })] };
  }
  // The manifest parser's guards (duplicate keys, prototype keys, depth) apply to locks too.
  const parsed = bytes.length > MANIFEST_MAX_BYTES ? parseLarge(bytes) : parseDocumentBytes(bytes, 'json', 'lock file');
  if (parsed.data === undefined) {
    return {
      diagnostics: parsed.diagnostics.map((d) => ({ ...d, code: 'LOCK_UNREADABLE' as const, file, hint: 'the lock file must be JSON as skillctl pin writes it' })),
    };
  }
  const data = parsed.data as Record<string, unknown>;
  const locate = (p: string): object | undefined => parsed.locate(p);
  if ('schema_version' in data) {
    const found = schemaFindings(validateProvenactLock as StandaloneValidator, provenactSchema, data, file, locate);
    if (found.length > 0) return { diagnostics: found };
    return { loaded: { format: 'provenact', lock: data as unknown as ProvenactLock }, diagnostics: [] };
  }
  if (!('lock_version' in data)) {
    return {
      diagnostics: [diag('LOCK_INVALID', 'not a lock file: it has neither lock_version (skillctl) nor schema_version (provenact)', { file, pointer: '' })],
    };
  }
  const found = schemaFindings(validateSkillctlLock as StandaloneValidator, skillctlSchema, data, file, locate);
  if (found.length > 0) return { diagnostics: found };
  const lock = data as unknown as SkillctlLock;
  // A root leading outside the project would have the unpinned check search elsewhere.
  const roots = lock.skill_roots !== undefined ? checkSkillRoots(lock.skill_roots, { file, pointer: '/skill_roots' }) : [];
  if (roots.length > 0) return { diagnostics: roots.map((d) => ({ ...d, ...(d.pointer !== undefined ? locate(d.pointer) : {}) })) };
  const diagnostics: Diagnostic[] = [];
  const text = Buffer.from(bytes).toString('utf8');
  if (text !== renderLock(lock)) {
    diagnostics.push(
      diag('LOCK_NOT_CANONICAL', 'the lock is not in the form skillctl writes (entry order, key order, indentation or final newline)', {
        file,
        hint: 'rewrite it with skillctl pin --all, then review the diff',
      }),
    );
  }
  return { loaded: { format: 'skillctl', lock }, diagnostics };
}

/**
 * Locks above the manifest parser's bound: the same strict JSON rules, without source positions
 * (the position-keeping parser is what the bound protects).
 */
function parseLarge(bytes: Uint8Array): { data: unknown; diagnostics: Diagnostic[]; locate: (p: string) => undefined } {
  const text = Buffer.from(bytes).toString('utf8');
  const parsed = text.includes('\ufffd') ? undefined : parseJsonStrict(text, MANIFEST_MAX_DEPTH);
  if (parsed === undefined || parsed.data === null || typeof parsed.data !== 'object' || Array.isArray(parsed.data)) {
    return {
      data: undefined,
      diagnostics: [diag('LOCK_UNREADABLE', 'the lock is not a strict JSON object (UTF-8, no duplicate or prototype keys, nesting within bounds)')],
      locate: () => undefined,
    };
  }
  return { data: parsed.data, diagnostics: [], locate: () => undefined };
}

/**
 * The bytes of the lock at `path`: throws `INPUT_NOT_REGULAR_FILE` for a FIFO, device or
 * directory (refused before it is opened, so a FIFO cannot block a pre-commit hook), else
 * `LOCK_UNREADABLE` when it cannot be read or exceeds LOCK_MAX_BYTES.
 */
export async function readLockBytes(path: string, label: string = path): Promise<Buffer> {
  const r = await readBounded(path, { maxBytes: LOCK_MAX_BYTES });
  if (r.ok) return r.bytes;
  if (r.reason === 'not-regular') throw new SkillctlError('INPUT_NOT_REGULAR_FILE', `the lock file ${describeRefusal(r, label)}`, { hint: 'name a regular file with --lock' });
  const why = r.reason === 'missing' ? 'it does not exist' : r.reason === 'too-large' ? `it exceeds ${LOCK_MAX_BYTES} bytes` : r.errno;
  throw new SkillctlError('LOCK_UNREADABLE', `cannot read the lock file ${label}: ${why}`, {
    hint: r.reason === 'missing' ? 'create it with skillctl pin, or name another with --lock' : undefined,
  });
}

/**
 * Reads and parses the lock at `path` (`label` names it in messages). Throws `LOCK_UNREADABLE`
 * when the file cannot be read; content problems are diagnostics.
 */
export async function readLockFile(path: string, label: string = path): Promise<LockLoad & { bytes: Buffer }> {
  const bytes = await readLockBytes(path, label);
  return { ...loadLock(bytes, label), bytes };
}
