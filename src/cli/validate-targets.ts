/**
 * Validating (and fixing) the targets of `skillctl validate`, the same in the command's thread and
 * in the worker pool's threads (src/entry/pool.ts). Results crossing a thread boundary are plain
 * data: `Checked`.
 */
import { resolve } from 'node:path';
import { diag, type Diagnostic } from '../core/diagnostics.js';
import { checkSkillArchive } from '../core/skill-gate/index.js';
import { fixManifestFile, validateBundle, validateManifestFile, type ManifestValidation } from '../core/manifest/index.js';
import { validateAgentSkill, type AgentSkillOptions, type AgentSkillValidation } from '../core/agent-skills/index.js';
import type { Target } from './inputs.js';

/** A validation result without its parsed document: structured-clone safe. */
export type ManifestChecked = Omit<ManifestValidation, 'document' | 'manifest'> & {
  /** Digests `--fix` rewrote in this file. */
  readonly fixed?: readonly string[];
  /** Why `--fix` could not fix this file. */
  readonly notFixed?: Diagnostic;
};

/** An Agent Skills folder's result; SKILL.md has no digests, so --fix never touches it. */
export type AgentSkillChecked = Omit<AgentSkillValidation, 'document'> & { readonly fixed?: undefined; readonly notFixed?: undefined };

export type Checked = ManifestChecked | AgentSkillChecked;

export function isAgentSkill(r: Checked): r is AgentSkillChecked {
  return 'kind' in r && r.kind === 'agent-skill';
}

export function toChecked(r: ManifestValidation, extra: Pick<ManifestChecked, 'fixed' | 'notFixed'> = {}): ManifestChecked {
  const { document, manifest, ...rest } = r;
  void document;
  void manifest;
  return { ...rest, ...extra };
}

function withoutDocument(v: AgentSkillValidation): AgentSkillChecked {
  const { document, ...rest } = v;
  void document;
  return rest;
}

/** Validates one file target (not stdin), then fixes and re-validates it when asked. */
export async function checkTarget(cwd: string, t: Exclude<Target, { kind: 'stdin' }>, fix: boolean, skill: AgentSkillOptions = {}): Promise<Checked> {
  if (t.kind === 'agent-skill') return withoutDocument(await validateAgentSkill(resolve(cwd, t.dir), { ...skill, label: t.dir }));
  if (t.kind === 'archive') {
    // An archive is checked as it is and never rewritten: --fix has nothing to write into.
    const { validation } = await checkSkillArchive(resolve(cwd, t.file), t.file, skill);
    const notFixed = fix && !validation.valid ? { notFixed: diag('INPUT_UNREADABLE', 'not fixed: an archive is never rewritten; fix its folder and pack it again', { file: t.file, severity: 'warning' }) } : {};
    return 'kind' in validation ? withoutDocument(validation) : toChecked(validation, notFixed);
  }
  let r: ManifestValidation;
  if (t.kind === 'bundle') r = await validateBundle(resolve(cwd, t.dir), t.dir);
  else r = await validateManifestFile(resolve(cwd, t.file), t.file);
  if (!fix) return toChecked(r);
  const { validation, ...outcome } = await fixManifestFile(cwd, r);
  return toChecked(validation, outcome);
}

/** A validate job as the worker pool passes it to every thread. */
export interface ValidateJob {
  readonly cwd: string;
  readonly fix: boolean;
  /** Profile and name character set for SKILL.md folders. */
  readonly skill: AgentSkillOptions;
  readonly targets: readonly Exclude<Target, { kind: 'stdin' }>[];
}

/** The job's item function: validates target `i`. */
export async function serveValidate(job: ValidateJob): Promise<(i: number) => Promise<Checked>> {
  return (i) => checkTarget(job.cwd, job.targets[i] as Exclude<Target, { kind: 'stdin' }>, job.fix, job.skill);
}
