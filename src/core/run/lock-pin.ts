/**
 * A skill id's pin in the project's lock, trusted only as `skillctl verify-pins` would trust it:
 * the same size bound, the same strict JSON, the same schema, the same canonical form, the same
 * source rules (a relative path inside the project that does not lead out through a link:
 * PIN_SOURCE_INVALID). A lock verify-pins would reject runs nothing. The bundle's digests are then
 * checked against the pin when it is loaded (resolve.ts).
 *
 * A clean lock (the usual case) is checked here with the light modules; a lock with a problem is
 * read again by the pins module, loaded then, whose diagnostics say what is wrong and where.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import type { StandaloneValidator } from '../json-schema/standalone.js';
import { readCleanJson } from '../manifest/guards.js';
import { DEFAULT_LOCK_PATH, type SkillctlLock, type SkillPin } from '../pins/model.js';
import { LOCK_MAX_BYTES, renderLock } from '../pins/lock.js';
import { resolveSource } from '../pins/paths.js';
import { validate as validateSkillctlLock } from '../../generated/skillctl-lock-v1.validator.js';
import { loadFull } from './full-load.js';
import { compareVersions } from './versions.js';

export type PinFound = { readonly pin?: SkillPin; readonly diagnostics: readonly Diagnostic[] };

const validator = validateSkillctlLock as StandaloneValidator;

function lockInvalid(file: string, message: string, found: readonly Diagnostic[] = []): PinFound {
  return {
    diagnostics: [
      diag('RUN_LOCK_INVALID', message, { file, hint: 'skillctl verify-pins names every finding; fix the lock, or run a bundle directory (./path)' }),
      ...found.map((d) => ({ ...d, file: d.file ?? file })),
    ],
  };
}

/** The lock's bytes: a regular file within the bound, opened without blocking (a FIFO never answers). */
async function readBounded(file: string): Promise<Buffer | 'absent' | string> {
  let fh;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? 'absent' : `cannot read the lock file: ${errnoCode(err) ?? String(err)}`;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return 'the lock file is not a regular file';
    if (st.size > LOCK_MAX_BYTES) return `the lock is ${st.size} bytes; the bound is ${LOCK_MAX_BYTES}`;
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await fh.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The lock, when it is exactly what verify-pins accepts; undefined otherwise. */
function cleanLock(bytes: Buffer): SkillctlLock | undefined {
  const parsed = readCleanJson(bytes);
  if (parsed === undefined || !validator(parsed.value)) return undefined;
  const lock = parsed.value as SkillctlLock;
  return renderLock(lock) === bytes.toString('utf8') ? lock : undefined;
}

/** The project's lock as verify-pins would accept it; no lock and no findings when there is none. */
export async function verifiedLock(root: string): Promise<{ readonly file: string; readonly lock?: SkillctlLock; readonly diagnostics: readonly Diagnostic[] }> {
  const file = join(root, DEFAULT_LOCK_PATH);
  const bytes = await readBounded(file);
  if (bytes === 'absent') return { file, diagnostics: [] };
  if (typeof bytes === 'string') return { file, ...lockInvalid(file, bytes) };
  const lock = cleanLock(bytes);
  if (lock !== undefined) return { file, lock, diagnostics: [] };
  // Not a clean skillctl lock: the pins module says why (or that it is another format).
  const load = (await loadFull()).loadLock(bytes, file);
  if (load.loaded?.format === 'provenact') return { file, ...lockInvalid(file, 'the lock is a provenact lock; skill ids run from a skillctl lock (pins/skills.lock.json as skillctl pin writes it)') };
  return { file, ...lockInvalid(file, 'the lock file has errors; nothing runs from it', load.diagnostics) };
}

export async function verifiedPin(root: string, skillId: string, version: string | undefined): Promise<PinFound> {
  const { file, lock, diagnostics } = await verifiedLock(root);
  if (lock === undefined) return { diagnostics };
  const matches = lock.skills.filter((p) => p.skill_id === skillId && (version === undefined || p.skill_version === version));
  const byVersion = (a: SkillPin, b: SkillPin): number => compareVersions(b.skill_version, a.skill_version);
  // An Agent Skills pin has nothing to run; a manifest bundle pinned under the same id is still run.
  const pin = matches.filter((p) => p.kind === undefined).sort(byVersion)[0];
  if (pin === undefined) {
    const agentSkill = matches.sort(byVersion)[0];
    if (agentSkill === undefined) return { diagnostics: [] };
    return {
      diagnostics: [
        diag('RUN_BUNDLE_INVALID', `${skillId} is pinned as an Agent Skills folder (${agentSkill.source}), which has no manifest or entrypoints to run`, {
          file,
          hint: `skillctl convert ${agentSkill.source} writes a skill.yaml for its scripts; pin it again, then run it`,
        }),
      ],
    };
  }
  const at = { file, pointer: `/skills/${lock.skills.indexOf(pin)}/source` };
  const source = await resolveSource(root, pin.source, 'source', at);
  if (source.diagnostic !== undefined) {
    return {
      diagnostics: [
        diag('RUN_PIN_MISMATCH', `${skillId} ${pin.skill_version} is pinned at a source outside the project (${pin.source}); it is not run`, {
          file,
          hint: 'skillctl verify-pins reports it too; pin the bundle from inside the project',
        }),
        source.diagnostic,
      ],
    };
  }
  return { pin, diagnostics: [] };
}
