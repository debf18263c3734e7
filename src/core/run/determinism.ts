/**
 * `skillctl run --check-determinism`: runs a determinism-eligible entrypoint twice through the
 * same engine (each run recorded as usual) and compares what the runs' audit records fingerprint.
 * A claim of determinism is then backed by two records that agree, not by a flag in a manifest.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { exitStatusOf } from '../exit-status.js';
import { permissionValues } from '../manifest/model.js';
import { runSkill, type RunOptions, type RunRequest } from './engine.js';
import { fingerprintDifferences, type RunFingerprints } from './fingerprints.js';
import { loadFull } from './full-load.js';
import { resolveSkill } from './resolve.js';
import { selectEntrypoint } from './select.js';
import type { RunResult } from './trail.js';

/** What the comparison found: the two runs' ids and the fingerprints that differ. */
export interface DeterminismVerdict {
  readonly run_ids: readonly [string, string];
  readonly fingerprints: readonly [RunFingerprints, RunFingerprints];
  /** Empty when the runs agree. */
  readonly differ: readonly (keyof RunFingerprints)[];
}

/** The second run's result (its output is the one shown), with the verdict when both runs completed. */
export type DeterminismResult = RunResult & { readonly determinism?: DeterminismVerdict };

/** Why the entrypoint cannot be checked, or undefined when it can: refused before anything runs. */
async function refusal(req: RunRequest, opts: RunOptions): Promise<Diagnostic | undefined> {
  const resolution = await resolveSkill(req.target, { cwd: opts.cwd, ...opts.resolve });
  try {
    const skill = resolution.skill;
    // Not found, not valid: the run itself reports it, and records it.
    if (skill === undefined) return undefined;
    const ep = selectEntrypoint(skill.manifest, req.entrypoint);
    if (!('entrypoint_id' in ep)) return undefined;
    const v = await (await loadFull()).validateBundle(skill.dir, skill.file);
    const summary = v.entrypoints.find((e) => e.entrypoint_id === ep.entrypoint_id);
    if (summary === undefined || !summary.determinism.eligible) {
      const codes = [...new Set(summary?.determinism.reasons.map((r) => r.code) ?? [])].sort().join(', ');
      return diag('RUN_DETERMINISM_INELIGIBLE', `entrypoint ${ep.entrypoint_id} is not determinism-eligible${codes !== '' ? ` (${codes})` : ''}; it was not run`, {
        hint: `skillctl validate --json ${req.target} lists the reasons (entrypoints[].determinism)`,
      });
    }
    // The second run would see the first one's writes, so the comparison would mean nothing.
    if ((['requested_permissions', 'required_permissions'] as const).some((w) => permissionValues(ep[w]?.['fs.write']).length > 0)) {
      return diag('RUN_DETERMINISM_WRITES', `entrypoint ${ep.entrypoint_id} may write files (fs.write): two runs in one working directory cannot be compared; it was not run`, {
        hint: 'check the entrypoint in a scratch copy of the working directory, or compare two recorded runs with skillctl audit diff',
      });
    }
    return undefined;
  } finally {
    await resolution.cleanup?.().catch(() => undefined);
  }
}

/**
 * Runs the entrypoint twice and compares the result and side-effect fingerprints of the two
 * records. Refused before anything runs (`refused`, no record) when the entrypoint is not
 * determinism-eligible or may write files. A run that does not end `ok` is returned as it is,
 * uncompared; two that differ add RUN_NONDETERMINISTIC to the second's findings.
 */
export async function checkRunDeterminism(req: RunRequest, opts: RunOptions): Promise<DeterminismResult | { readonly refused: Diagnostic }> {
  const refused = await refusal(req, opts);
  if (refused !== undefined) return { refused };
  const first = await runSkill(req, opts);
  if (first.status !== 'ok') return first;
  const second = await runSkill(req, opts);
  if (second.status !== 'ok') return second;
  const a = first.record.fingerprints;
  const b = second.record.fingerprints;
  // Same input bytes, so the args agree; only what the runs produced is compared.
  const differ = fingerprintDifferences(a, b).filter((k) => k !== 'args');
  const determinism: DeterminismVerdict = { run_ids: [first.record.run_id, second.record.run_id], fingerprints: [a, b], differ };
  if (differ.length === 0) return { ...second, determinism };
  const diagnostics = [
    ...second.diagnostics,
    diag('RUN_NONDETERMINISTIC', `two runs of the same input differ in their ${differ.join(' and ')} fingerprint${differ.length > 1 ? 's' : ''} (runs ${first.record.run_id} and ${second.record.run_id})`, {
      hint: 'compare the two records with skillctl audit diff; leave out of the result what cannot be reproduced (a time, a random value)',
    }),
  ];
  return { ...second, diagnostics, exitCode: exitStatusOf(diagnostics), determinism };
}
