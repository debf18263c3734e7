/**
 * The policy in force without a policy file, and where that file is looked for: light (no
 * parser), for `skillctl run`, which needs them on every invocation (load.ts reads a file).
 */
import { jcsDigest } from '../digest/index.js';
import type { HostPolicy } from './model.js';

/** The policy file looked for in the project root. */
export const POLICY_FILE_NAME = 'skillctl.policy.yaml';

/**
 * The PATH a run gets when the policy names none: the standard system directories, the same on
 * every host (docs/formats/policy.md). The host's own PATH never reaches a skill.
 */
export const RUN_PATH_DEFAULT = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The policy in force when there is no policy file: read inside the working directory, nothing else. */
export function defaultPolicy(cwd: string): HostPolicy {
  const document = { version: 1, permissions: { 'fs.read': [cwd] } };
  return { source: 'default', digest: jcsDigest(document), fsRead: [cwd], fsWrite: [], netHttp: [], exec: [], env: [], limits: {}, allowUnsandboxed: false, allowContainerNetwork: false, runPath: RUN_PATH_DEFAULT };
}
