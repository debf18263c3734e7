/**
 * Where a refusal tells the user to grant what is missing: the policy file in force, or, under
 * the default policy (which has no file), where a policy file would be read; and the entry to add
 * there. Shared by the check before a run (authorise.ts) and the refusals of a built-in while it
 * runs (run/denial-hints.ts), so both say the same thing.
 */
import type { PermissionScope } from '../manifest/model.js';
import { POLICY_FILE_NAME } from './default.js';

/**
 * What a policy entry must name to allow a refused operation, by scope. Said by kind: a value
 * refused while a skill runs may come from its input.
 */
const ENTRY = {
  'fs.read': 'the path, or a directory above it, to permissions.fs.read',
  'fs.write': 'the path, or a directory above it, to permissions.fs.write',
  'net.http': "the URL's prefix (scheme://host[:port][/path]) to permissions.net.http",
  exec: 'the command to permissions.exec',
  env: "the variable's name to permissions.env",
} as const satisfies Record<PermissionScope, string>;

function isScope(scope: string): scope is PermissionScope {
  return Object.hasOwn(ENTRY, scope);
}

/** `grant it in <file>`, naming the file a policy in force was read from. */
export function grantIn(source: string): string {
  // A policy file is read only at the project root (or from --policy); one anywhere else is ignored.
  return source === 'default' ? `grant it in ${POLICY_FILE_NAME} at the project root (or a file given with --policy)` : `grant it in ${source}`;
}

/** `grant it in <file>: add <the kind of entry> to permissions.<scope>`; undefined for an unknown scope. */
export function grantEntry(source: string, scope: string): string | undefined {
  return isScope(scope) ? `${grantIn(source)}: add ${ENTRY[scope]}` : undefined;
}

/** `grant it in <file>: add "<value>" to permissions.<scope>`, for a value the manifest wrote. */
export function grantValue(source: string, scope: PermissionScope, value: string): string {
  return `${grantIn(source)}: add ${JSON.stringify(value)} to permissions.${scope}`;
}

/** What mends a program refused for lying where skills may write (POLICY_EXEC_WRITABLE, RUN_PROGRAM_WRITABLE). */
export const WRITABLE_PROGRAM_HINT = "install the program outside every fs.write path of the policy and name it there, or take its directory out of the policy's fs.write";
