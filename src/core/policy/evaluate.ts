/**
 * One capability against a policy, on values alone (no file system, no DNS): the rules of
 * provenact's capability evaluation (docs/formats/policy.md, "Evaluation"). The run engine adds
 * symlink resolution and address checks on top (grant.ts, gate.ts).
 */
import type { Code } from '../diagnostics.js';
import { PERMISSION_SCOPES, type PermissionScope } from '../manifest/model.js';
import type { HostPolicy } from './model.js';
import { pathForm, within } from './paths.js';
import { covers, parseScopeValue, type ScopeValue } from './scopes.js';

export type Evaluation =
  | { readonly allowed: true; readonly covered_by: string }
  | { readonly allowed: false; readonly code: Code; readonly reason: string };

export function isPermissionScope(kind: string): kind is PermissionScope {
  return (PERMISSION_SCOPES as readonly string[]).includes(kind);
}

/**
 * Does `policy` allow the capability `kind: value`? Unknown kinds are denied. Relative paths
 * resolve against `cwd`; without a `cwd` they are refused.
 */
export function evaluateCapability(policy: HostPolicy, kind: string, value: string, opts: { cwd?: string } = {}): Evaluation {
  if (!isPermissionScope(kind)) return { allowed: false, code: 'POLICY_PERMISSION_DENIED', reason: `unknown capability kind ${kind}` };
  const parsed = parseScopeValue(kind, value);
  switch (kind) {
    case 'fs.read':
    case 'fs.write': {
      if (!parsed.ok) return { allowed: false, code: 'POLICY_PATH_INVALID', reason: parsed.reason };
      if (!value.startsWith('/') && opts.cwd === undefined) return { allowed: false, code: 'POLICY_PATH_INVALID', reason: 'a relative path with no working directory' };
      const form = pathForm(value, opts.cwd ?? '/');
      if (!form.ok) return { allowed: false, code: 'POLICY_PATH_INVALID', reason: form.reason };
      const roots = kind === 'fs.read' ? policy.fsRead : policy.fsWrite;
      const root = roots.find((r) => within(form.absolute, r));
      return root !== undefined ? { allowed: true, covered_by: root } : { allowed: false, code: 'POLICY_PATH_DENIED', reason: `outside the granted ${kind} paths` };
    }
    case 'net.http': {
      if (!parsed.ok) return { allowed: false, code: 'POLICY_URL_INVALID', reason: parsed.reason };
      const grant = policy.netHttp.find((g) => covers(g.value, parsed.value));
      return grant !== undefined ? { allowed: true, covered_by: grant.raw } : { allowed: false, code: 'POLICY_URL_DENIED', reason: 'not covered by the granted net.http prefixes' };
    }
    case 'exec': {
      if (!parsed.ok) return { allowed: false, code: 'POLICY_EXEC_DENIED', reason: parsed.reason };
      const command = (parsed.value as ScopeValue & { scope: 'exec' }).command;
      const rule = policy.exec.find((r) => r.command === command);
      return rule !== undefined ? { allowed: true, covered_by: rule.command } : { allowed: false, code: 'POLICY_EXEC_DENIED', reason: 'not on the exec allowlist' };
    }
    case 'env':
      if (!parsed.ok) return { allowed: false, code: 'POLICY_ENV_DENIED', reason: parsed.reason };
      return policy.env.includes(value) ? { allowed: true, covered_by: value } : { allowed: false, code: 'POLICY_ENV_DENIED', reason: 'not on the env allowlist' };
    default: {
      const never: never = kind;
      return never;
    }
  }
}
