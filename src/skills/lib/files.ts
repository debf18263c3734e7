/** What a built-in says when the checked file layer did not open a path. */
import type { BuiltinOutcome } from '../../core/run/index.js';
import type { FsFailure } from '../../core/policy/index.js';
import { denied, fail } from './outcome.js';

/**
 * The outcome for a path that was not opened: the policy's refusal as a denial, else what the
 * file system said. `what` is the operation (`read x`), `shown` the path as the request gave it.
 */
export function notOpened(f: FsFailure, what: string, shown: string): BuiltinOutcome {
  switch (f.kind) {
    case 'denied':
      return denied(f.decision, what);
    case 'missing':
      return fail('SKILL_FILE_NOT_FOUND', `${shown} does not exist`);
    case 'not-file':
      return fail('SKILL_NOT_A_FILE', `${shown} is not a regular file`);
    case 'not-dir':
      return fail('SKILL_NOT_A_DIRECTORY', `${shown} is not a directory`);
    case 'error':
      return fail('SKILL_NOT_A_FILE', `${shown} cannot be opened (${f.code})`);
    default: {
      const never: never = f;
      return never;
    }
  }
}
