import { canonicalize } from '../../digest/index.js';

/** A string equal for equal JSON values (canonical JSON); values JSON cannot hold get a key of their own. */
export function jsonKey(value: unknown): string {
  try {
    return 'j' + canonicalize(value);
  } catch {
    return 'x' + String(value);
  }
}
