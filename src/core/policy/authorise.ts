/**
 * The policy's one decision about an entrypoint before anything of it runs: what it is granted
 * (requested ∩ policy, every policy path resolved once, here), whether everything it requires is
 * granted, and its limits under the policy's caps. Nothing of the skill runs unless `allowed`.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ResolvedLimits } from '../manifest/limits.js';
import type { Permissions } from '../manifest/model.js';
import { grantPermissions, NOT_GRANTED, type Grant } from './grant.js';
import { grantIn, grantValue, WRITABLE_PROGRAM_HINT } from './grant-hint.js';
import { capLimits } from './limits.js';
import type { HostPolicy } from './model.js';

/** What an entrypoint asks for, read from its manifest. */
export interface AuthoriseRequest {
  readonly requested: Permissions;
  readonly required: Permissions;
  /** `required_environment_variables`: each must be granted (env) for the run to start. */
  readonly requiredEnv: readonly string[];
  /** The entrypoint's declared limits. */
  readonly limits: ResolvedLimits;
}

export interface AuthoriseOptions {
  /** The run's working directory: relative manifest paths resolve against it. */
  readonly cwd: string;
  /** The PATH commands are looked up on. */
  readonly pathEnv: string;
}

export interface Authorisation {
  /** True when every required permission and variable is granted. */
  readonly allowed: boolean;
  readonly grant: Grant;
  /** The declared limits lowered to the policy's caps. */
  readonly limits: ResolvedLimits;
  /** Refusals (pointing into the entrypoint) and limits lowered. */
  readonly diagnostics: readonly Diagnostic[];
}

export async function authorise(req: AuthoriseRequest, policy: HostPolicy, opts: AuthoriseOptions): Promise<Authorisation> {
  const grant = await grantPermissions(req.requested, req.required, policy, opts);
  const diagnostics: Diagnostic[] = [];
  for (const d of grant.denials) {
    if (d.code === 'POLICY_PATH_CHANGED' || d.code === 'POLICY_PATH_LINK') diagnostics.push(diag(d.code, d.reason, { file: policy.source, hint: 'write where the symlink leads in the policy instead (or remove it, if you did not make it)' }));
    else if (d.code === 'POLICY_EXEC_WRITABLE') diagnostics.push(diag(d.code, d.reason, { file: policy.source, hint: WRITABLE_PROGRAM_HINT }));
    else {
      // Only a value the policy does not grant is mended by an entry; a path that does not exist
      // or a command not on PATH is not, and is only told where the policy is.
      const hint = d.reason.endsWith(NOT_GRANTED) ? grantValue(policy.source, d.scope, d.value) : grantIn(policy.source);
      diagnostics.push(diag(d.code, d.reason, { pointer: `/required_permissions/${d.scope}`, hint }));
    }
  }
  for (const name of req.requiredEnv.filter((n) => !grant.granted.env.includes(n))) {
    diagnostics.push(diag('POLICY_PERMISSION_DENIED', `required environment variable ${name} is not granted by the host policy`, { pointer: '/required_environment_variables', hint: grantValue(policy.source, 'env', name) }));
  }
  const capped = capLimits(req.limits, policy.limits);
  const allowed = diagnostics.length === 0;
  return { allowed, grant, limits: capped.limits, diagnostics: [...diagnostics, ...capped.diagnostics] };
}
