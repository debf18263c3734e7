/**
 * Where a refusal tells the user to grant what is missing: the policy file in force, or, under
 * the default policy (which has no file), where a policy file would be read. Shared by the check
 * before a run (authorise.ts) and the refusals of a built-in while it runs (run/denial-hints.ts).
 */
import { POLICY_FILE_NAME } from './default.js';

/** `grant it in <file>`, naming the file a policy in force was read from. */
export function grantIn(source: string): string {
  // A policy file is read only at the project root (or from --policy); one anywhere else is ignored.
  return source === 'default' ? `grant it in ${POLICY_FILE_NAME} at the project root (or a file given with --policy)` : `grant it in ${source}`;
}
