/**
 * `validate --fix` on disk: the digests fixDigests computes are written back atomically, and the
 * file is validated again, so what is reported describes the file as it now is.
 */
import { resolve } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { writeFileAtomic } from '../fs/index.js';
import { fixDigests } from './fix.js';
import { validateBundle, type ManifestValidation } from './validate.js';

export interface FixedFile {
  /** The validation after the fix (the one given, when nothing was written). */
  readonly validation: ManifestValidation;
  /** The digests rewritten in the file. */
  readonly fixed?: readonly string[];
  /** Why the file could not be fixed. */
  readonly notFixed?: Diagnostic;
}

/**
 * Fixes the digests of the manifest `r` validated (its `file` and `bundle` are relative to
 * `cwd`). A manifest that did not parse is left alone: nothing in it can be trusted to rewrite.
 */
export async function fixManifestFile(cwd: string, r: ManifestValidation): Promise<FixedFile> {
  if (r.document.data === undefined) return { validation: r };
  const f = fixDigests(r);
  if (f.text === undefined) {
    return { validation: r, ...(f.reason === undefined ? {} : { notFixed: diag('INPUT_UNREADABLE', `not fixed: ${f.reason}`, { file: r.file, severity: 'warning' }) }) };
  }
  await writeFileAtomic(resolve(cwd, r.file), f.text);
  // Re-validate what is now on disk, so the report describes the fixed file.
  const again = r.bundle !== undefined ? await validateBundle(resolve(cwd, r.bundle), r.bundle) : r;
  return { validation: again, fixed: f.changed };
}
