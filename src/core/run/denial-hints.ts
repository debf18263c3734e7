/**
 * The hint of a refusal made while a built-in ran (the gate's POLICY_PATH_DENIED,
 * POLICY_URL_DENIED, POLICY_EXEC_DENIED...): the policy file to edit and the entry to add there,
 * as the check before the run gives for a required permission. The refused value is in the
 * message, which the user sees; the hint names it by kind only. Hints are not in the audit
 * record, which keeps a run-time refusal as its scope and reason (record.ts): a value that may
 * come from the input is never written there.
 */
import type { Diagnostic } from '../diagnostics.js';
import { grantEntry, grantIn, WRITABLE_PROGRAM_HINT } from '../policy/index.js';
import type { AuditDenial } from './audit.js';
import type { RunResult } from './trail.js';

/**
 * The hint for one refusal, when the policy can lift it. A path refused as a protected file, a
 * malformed path or URL, or a command that is not found, is not a missing grant.
 */
function hintFor(d: Diagnostic, denial: AuditDenial, source: string): string | undefined {
  const where = grantIn(source);
  switch (d.code) {
    case 'POLICY_PATH_DENIED':
      return denial.reason.includes('outside the granted') ? grantEntry(source, denial.scope) : undefined;
    case 'POLICY_EXEC_DENIED':
      return denial.reason.includes('not on the granted allowlist') ? grantEntry(source, 'exec') : undefined;
    case 'POLICY_URL_DENIED':
    case 'POLICY_ENV_DENIED':
    case 'POLICY_PERMISSION_DENIED':
      return grantEntry(source, denial.scope);
    case 'POLICY_ADDRESS_PRIVATE':
      return `${where}: a non-public address is reached only when permissions.net.http names it by IP literal (http://10.0.0.5:8080/)`;
    case 'POLICY_EXEC_WRITABLE':
      return WRITABLE_PROGRAM_HINT;
    case 'POLICY_EXEC_ARGUMENT_DENIED':
      return `the exec entry's args or deny_args patterns refuse this argument; ${where} only if the skill should pass it`;
    default:
      return undefined;
  }
}

/** The run's findings with a hint on each run-time refusal the policy can lift. */
export function withDenialHints(result: RunResult): RunResult {
  const { denials, source } = result.record.policy;
  let changed = false;
  const diagnostics = result.diagnostics.map((d) => {
    if (d.hint !== undefined || !d.code.startsWith('POLICY_')) return d;
    // A run-time refusal's message ends with the reason the record keeps (runtimes/builtin.ts).
    const denial = denials.find((x) => x.value === undefined && x.code === d.code && d.message.endsWith(x.reason));
    const hint = denial !== undefined ? hintFor(d, denial, source) : undefined;
    if (hint === undefined) return d;
    changed = true;
    return { ...d, hint };
  });
  return changed ? { ...result, diagnostics } : result;
}
