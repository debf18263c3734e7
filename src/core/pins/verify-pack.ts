/** Verifies one pack pin: the file exists in the project, its bytes and parsed content are the pinned ones. */
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { SkillctlLockContext } from './context.js';
import type { PackPin } from './model.js';
import { readPackFile } from './pack-doc.js';
import { resolveSource } from './paths.js';
import type { DigestComparison } from './verify-skill.js';
import { pushAll } from '../findings.js';

export interface PackVerification {
  readonly ok: boolean;
  readonly pin: PackPin;
  readonly pointer?: string;
  readonly digests: Readonly<Record<string, DigestComparison>>;
  readonly diagnostics: readonly Diagnostic[];
}

export async function verifyPackPin(ctx: SkillctlLockContext, pin: PackPin): Promise<PackVerification> {
  const index = ctx.lock.packs.indexOf(pin);
  const base = index === -1 ? undefined : `/packs/${index}`;
  const at = (field: string): { file: string; pointer?: string } => ({ file: ctx.lockFile, ...(base !== undefined ? { pointer: `${base}/${field}` } : {}) });
  const found: Diagnostic[] = [];
  const digests: Record<string, DigestComparison> = {
    pack_digest: { expected: pin.pack_digest, actual: null },
    file_digest: { expected: pin.file_digest, actual: null },
  };
  const done = (): PackVerification => {
    const diagnostics = sortDiagnostics(found);
    return { ok: !hasErrors(diagnostics), pin, ...(base !== undefined ? { pointer: base } : {}), digests, diagnostics };
  };
  const { abs, diagnostic } = await resolveSource(ctx.root, pin.source, 'source', at('source'), ctx.ops, ctx.realRoot);
  if (diagnostic !== undefined) {
    found.push(diagnostic);
    return done();
  }
  const doc = await readPackFile(abs, pin.source, ctx.ops.readBounded);
  if (doc === undefined) {
    found.push(diag('PIN_MISSING', `${pin.source} does not exist or is not a file`, { ...at('source'), hint: 'restore it, or remove the pin' }));
    return done();
  }
  pushAll(found, doc.diagnostics);
  for (const [field, actual] of [
    ['file_digest', doc.file_digest],
    ['pack_digest', doc.pack_digest],
  ] as const) {
    digests[field] = { expected: pin[field], actual: actual ?? null };
    if (actual !== undefined && actual !== pin[field]) {
      found.push(diag('PIN_MODIFIED', `${field} is ${pin[field]} in the lock but ${actual} for ${pin.source}`, at(field)));
    }
  }
  for (const [field, want, got] of [
    ['profile', pin.profile, doc.profile],
    ['skill_pack_version', pin.skill_pack_version, doc.skill_pack_version],
  ] as const) {
    if (got !== undefined && got !== want) {
      found.push(diag('PIN_IDENTITY_MISMATCH', `the lock pins ${field} ${JSON.stringify(want)} but ${pin.source} declares ${JSON.stringify(got)}`, at(field)));
    }
  }
  return done();
}
