import { compareSkillPins, renderLock, type SkillPin as SkillctlPin } from '../../src/core/pins/index.js';
import { defaultPolicy, loadPolicy, type HostPolicy } from '../../src/core/policy/index.js';
import { runSkill, type BuiltinSkill, type RunOptions, type RunRequest, type RunResult } from '../../src/core/run/index.js';
import { errorCodesOf } from './diagnostics.js';

/** A clock that does not move: records are reproducible. */
export const FIXED_CLOCK = { now: () => Date.UTC(2026, 0, 1), monotonic: () => 0 };

export function policyFrom(doc: Record<string, unknown>, baseDir: string): HostPolicy {
  const r = loadPolicy(Buffer.from(JSON.stringify({ version: 1, ...doc })), { file: 'test.policy.json', baseDir });
  if (r.policy === undefined) throw new Error(JSON.stringify(r.diagnostics));
  return r.policy;
}

export interface EngineCall {
  readonly cwd: string;
  readonly target: string;
  readonly input?: unknown;
  readonly policy?: HostPolicy;
  readonly builtins?: readonly BuiltinSkill[];
  readonly env?: Record<string, string | undefined>;
  readonly request?: Partial<RunRequest>;
  readonly options?: Partial<RunOptions>;
}

/** runSkill with test defaults: the default policy, a fixed clock, the given fixture built-ins. */
export function engine(call: EngineCall): Promise<RunResult> {
  const builtins = new Map((call.builtins ?? []).map((b) => [b.id, b]));
  return runSkill(
    { target: call.target, ...(call.input !== undefined ? { input: Buffer.from(JSON.stringify(call.input)) } : {}), ...call.request },
    {
      cwd: call.cwd,
      env: call.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
      policy: call.policy ?? defaultPolicy(call.cwd),
      clock: FIXED_CLOCK,
      builtins: async (id) => builtins.get(id),
      skillctlVersion: '0.0.0-test',
      hostNode: { path: process.execPath, version: process.version },
      ...call.options,
    },
  );
}

/** The distinct codes of error diagnostics, sorted. */
export function errorCodes(r: RunResult): string[] {
  return errorCodesOf(r.diagnostics);
}

/**
 * Writes `pins/skills.lock.json` under `root` as `skillctl pin` would (canonical, schema-valid),
 * from pins that may leave out the fields a run does not compare (files_digest, signers).
 */
export async function writeLock(root: string, pins: readonly Partial<SkillctlPin>[]): Promise<void> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const zero = `sha256:${'0'.repeat(64)}` as const;
  const skills = pins.map((p) => ({ files_digest: zero, signers: [], ...p }) as SkillctlPin).sort(compareSkillPins);
  await mkdir(join(root, 'pins'), { recursive: true });
  await writeFile(join(root, 'pins', 'skills.lock.json'), renderLock({ lock_version: 'skillctl.lock.v1', min_signers: 0, skills, packs: [] }));
}

/** Pins `skills/<id>` (as writeBundle wrote each) in the project's lock, by their manifests' digests. */
export async function pinBundles(root: string, ids: readonly string[]): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  await writeLock(
    root,
    ids.map((id) => {
      const m = JSON.parse(readFileSync(join(root, 'skills', id, 'skill.json'), 'utf8')) as { skill_version: string; manifest_digest: `sha256:${string}`; content_digest: `sha256:${string}` };
      return { skill_id: id, skill_version: m.skill_version, source: `skills/${id}`, manifest_digest: m.manifest_digest, content_digest: m.content_digest };
    }),
  );
}
