/**
 * Where an audit log named with `--audit FILE` lies. A run holds its own log (read-only under
 * bubblewrap, refused to built-ins and WebAssembly skills), and every run of a project holds the
 * project's `.skillctl/audit.jsonl`; a log elsewhere is an ordinary file to the runs that do not
 * write it. Its chain has no key, so a skill run under a policy that lets it write the log's
 * folder could rewrite the log and its chain whole, and `audit verify` would accept it.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ProjectWrite } from '../policy/project-writes.js';

/** AUDIT_FILE_WRITABLE (a warning) for the log `path` that a skill of a project may rewrite (`write`), or nothing. */
export function exposedAuditLog(path: string, write: ProjectWrite | undefined): Diagnostic[] {
  if (write === undefined) return [];
  const { grant, policy } = write;
  return [
    diag('AUDIT_FILE_WRITABLE', `the audit log ${path} lies inside ${grant}, which the policy of the project ${policy.root} (${policy.source}) lets skills write: a skill run there could rewrite this log and its chain`, {
      file: path,
      hint: `keep it in ${policy.root}/.skillctl/ (every run of ${policy.root} holds that folder), or keep its head elsewhere (run --json prints audit.head; audit verify --head checks it)`,
    }),
  ];
}
